import { existsSync } from 'node:fs';
import { initBackend } from '@mocap/reader';
import { backendReport, wasmBinaryDir } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';

describe('initBackend', () => {
  it('falls through the optional tfjs-node backends to wasm and reports why', async () => {
    const report = await initBackend();
    expect(report.choice).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(report.skipped.map((s) => s.choice)).toEqual(['tfjs-node-gpu', 'tfjs-node']);
    for (const s of report.skipped) expect(s.reason).toMatch(/Cannot find|not found|ERR_MODULE_NOT_FOUND/i);
    expect(backendReport()).toBe(report);
    expect(existsSync(`${wasmBinaryDir()}tfjs-backend-wasm.wasm`)).toBe(true);
  });

  it('gives cpu when asked for it', async () => {
    const report = await initBackend({ order: ['cpu'] });
    expect(report).toEqual({ choice: 'cpu', backend: 'cpu', skipped: [] });
    expect(tf.getBackend()).toBe('cpu');
  });

  it('rejects an unknown backend with a TypeError-like zod message', async () => {
    await expect(initBackend({ order: ['gpu' as 'cpu'] })).rejects.toThrow(/order/);
  });
});
