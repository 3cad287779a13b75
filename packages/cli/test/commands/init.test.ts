import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreatureJson } from '@mocap/layout';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

const WOLF = fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));

describe('mocap init', () => {
  let dir = '';
  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'mocap-init-')), 'wolf2');
    await mkdir(dir);
    await copyFile(path.join(WOLF, 'rig.json'), path.join(dir, 'rig.json'));
  });
  afterEach(async () => {
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  it('writes creature.json, then creature.proposed.json beside it, and prints what to review', async () => {
    const a = await run(['init', '--creature', dir]);
    expect(a.code).toBe(0);
    expect(a.out).toBe(
      `${path.join(dir, 'creature.json')}: proposed from ${path.join(dir, 'rig.json')}; review it before the rig stage\n`,
    );
    expect(a.err).toContain('review: prep.length_m: 1.720');
    const first = await readFile(path.join(dir, 'creature.json'), 'utf8');
    const b = await run(['init', '--creature', dir]);
    expect(b.out).toContain('creature.proposed.json');
    expect(await readFile(path.join(dir, 'creature.json'), 'utf8')).toBe(first);
  });

  it('prints the proposal with --print and writes nothing', async () => {
    const r = await run(['init', '--creature', dir, '--print']);
    expect(r.code).toBe(0);
    expect(CreatureJson.parse(JSON.parse(r.out)).feet).toHaveLength(8);
    await expect(readFile(path.join(dir, 'creature.json'))).rejects.toThrow(/ENOENT/);
  });

  it('asks for a creature', async () => {
    const r = await run(['init']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no creature');
  });
});
