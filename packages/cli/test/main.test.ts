import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VERSION } from '@mocap/cli';
import { describe, expect, it } from 'vitest';
import { runCli as run } from './helpers/run-cli.js';

describe('mocap', () => {
  it('prints help listing the commands', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('layout');
  });

  it('prints its version', async () => {
    const r = await run(['--version']);
    expect(r.out.trim()).toBe(VERSION);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown command with exit code 2', async () => {
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown command "frobnicate"');
  });

  it('prints the default layout as JSON', async () => {
    const r = await run(['layout', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.creature).toBeNull();
    expect(j.layout.W_FRONT).toBe(420);
    expect(j.layout.W_SIDE).toBe(860);
  });

  it('reads a creature layout from --creature and MOCAP_CREATURE', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mocap-cli-'));
    await writeFile(
      path.join(dir, 'creature.json'),
      JSON.stringify({ layout: { W_FRONT: 480, W_SIDE: 800 } }),
    );
    const a = JSON.parse((await run(['layout', '--json', '--creature', dir])).out);
    expect(a.layout.W_FRONT).toBe(480);
    const b = JSON.parse((await run(['layout', '--json'], { MOCAP_CREATURE: dir })).out);
    expect(b.layout.W_SIDE).toBe(800);
  });

  it('names the file and field of a bad layout', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mocap-cli-'));
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ layout: { W_FRONT: 'wide' } }));
    const r = await run(['layout', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('creature.json');
    expect(r.err).toContain('layout.W_FRONT');
    expect(r.err).toContain('"wide"');
  });
});
