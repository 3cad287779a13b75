import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commands, VERSION } from '@mocap/cli';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli as run } from './helpers/run-cli.js';

const temp = tempDirs();

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The module URLs a fresh `mocap <argv>` process (sources through tsx) resolves, and its exit code. */
async function importsOf(argv: string[]): Promise<{ code: number | null; urls: string[] }> {
  const dir = await temp.make('mocap-imports-');
  const log = path.join(dir, 'imports.txt');
  try {
    await writeFile(log, '');
    const child = spawn(
      process.execPath,
      [
        '--conditions=@mocap/source',
        '--import',
        'tsx',
        '--import',
        fileURLToPath(new URL('./helpers/record-imports.mjs', import.meta.url)),
        path.join(root, 'packages/cli/src/bin.ts'),
        ...argv,
      ],
      { cwd: root, env: { ...process.env, MOCAP_IMPORT_LOG: log }, stdio: 'ignore' },
    );
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    return { code, urls: (await readFile(log, 'utf8')).split('\n').filter(Boolean) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What only some commands need: the reader (tfjs), capture, Blender's bridge, ffmpeg's, fal's. */
const HEAVY = /packages\/(reader|pipeline|blender-bridge|media|fal)\/|@tensorflow|@gltf-transform|@fal-ai/;

describe('mocap', () => {
  it('prints help listing the commands', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('layout');
  });

  it("lists each command with its module's own name and summary", async () => {
    for (const entry of commands) {
      const cmd = await entry.load();
      expect(cmd.name, 'commands/index.ts lists a command under another name').toBe(entry.name);
      expect(
        entry.summary,
        `commands/index.ts: the summary of "${entry.name}" differs from its module's`,
      ).toBe(cmd.summary);
    }
  });

  it('loads only what a command needs: --help and solve never load the reader, Blender or fal', async () => {
    const help = await importsOf(['--help']);
    expect(help.code).toBe(0);
    expect(help.urls.some((u) => u.includes('/packages/cli/src/main.ts'))).toBe(true);
    expect(help.urls.filter((u) => HEAVY.test(u))).toEqual([]);
    const solve = await importsOf(['solve']);
    expect(solve.code).toBe(2);
    expect(solve.urls.some((u) => u.includes('/packages/solver/src/'))).toBe(true);
    expect(solve.urls.filter((u) => HEAVY.test(u))).toEqual([]);
  }, 120_000);

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
    const dir = await temp.make('mocap-cli-');
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
    const dir = await temp.make('mocap-cli-');
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ layout: { W_FRONT: 'wide' } }));
    const r = await run(['layout', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('creature.json');
    expect(r.err).toContain('layout.W_FRONT');
    expect(r.err).toContain('"wide"');
  });
});
