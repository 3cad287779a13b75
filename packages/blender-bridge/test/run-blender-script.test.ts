import { fileURLToPath } from 'node:url';
import { type BlenderProgress, runBlenderScript } from '@mocap/blender-bridge';
import { BlenderError } from '@mocap/blender-bridge/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const PROBE = fileURLToPath(new URL('./fixtures/probe.py', import.meta.url));
const Result = z.object({ version: z.array(z.number()), echo: z.string().nullable() });

async function failure(p: Promise<unknown>): Promise<BlenderError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(BlenderError);
  return e as BlenderError;
}

describe('runBlenderScript', () => {
  it('returns the validated result and reports progress lines as events', async () => {
    const seen: BlenderProgress[] = [];
    const r = await runBlenderScript(PROBE, { mode: 'ok', steps: 3, echo: 'hi' }, Result, {
      onProgress: (p) => seen.push(p),
    });
    expect(r.echo).toBe('hi');
    expect(r.version[0]).toBeGreaterThanOrEqual(3);
    expect(seen.map((p) => [p.done, p.total, p.stage, p.extra])).toEqual([
      [1, 3, 'step', 0],
      [2, 3, 'step', 1],
      [3, 3, 'step', 2],
    ]);
    expect(seen[0]!.script).toBe(PROBE);
  });

  it('turns a Python exception into a BlenderError with the traceback and exit code', async () => {
    const e = await failure(runBlenderScript(PROBE, { mode: 'fail' }, Result));
    expect(e.kind).toBe('exit');
    expect(e.exitCode).toBe(1);
    expect(e.script).toBe(PROBE);
    expect(e.traceback).toContain('Traceback (most recent call last)');
    expect(e.traceback).toContain('ZeroDivisionError');
    expect(e.message).toContain('ZeroDivisionError');
    expect(e.stderrTail).toContain('ZeroDivisionError');
    expect(e.cause).toBeDefined();
  });

  it('keeps the stderr tail of a script that dies without a traceback', async () => {
    const e = await failure(runBlenderScript(PROBE, { mode: 'exit' }, Result));
    expect(e.exitCode).toBe(3);
    expect(e.traceback).toBeNull();
    expect(e.stderrTail).toContain('about to exit badly');
  });

  it('rejects a script that reports no result, or a result that does not validate', async () => {
    expect((await failure(runBlenderScript(PROBE, { mode: 'silent' }, Result))).kind).toBe('protocol');
    const e = await failure(runBlenderScript(PROBE, { mode: 'ok' }, z.object({ missing: z.string() })));
    expect(e.kind).toBe('protocol');
    expect(e.message).toContain('does not validate');
  });

  it('kills Blender at its timeout', async () => {
    const e = await failure(
      runBlenderScript(PROBE, { mode: 'sleep', seconds: 60 }, Result, { timeoutMs: 4000 }),
    );
    expect(e.kind).toBe('timeout');
    expect(e.timedOut).toBe(true);
  });

  it('cancels through an AbortSignal', async () => {
    const ac = new AbortController();
    const p = runBlenderScript(PROBE, { mode: 'sleep', seconds: 60, steps: 1 }, Result, {
      signal: ac.signal,
      onProgress: () => ac.abort(),
    });
    const e = await failure(p);
    expect(e.kind).toBe('cancelled');
    expect(e.cancelled).toBe(true);
  });
});
