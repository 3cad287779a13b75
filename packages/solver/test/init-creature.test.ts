import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreatureJson, FileError } from '@mocap/layout';
import { initCreature } from '@mocap/solver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('initCreature', () => {
  let dir: string;
  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'init-creature-')), 'my-wolf');
    await mkdir(dir);
    await copyFile(path.join(loadCreature('wolf').dir, 'rig.json'), path.join(dir, 'rig.json'));
  });
  afterEach(async () => {
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  it('writes creature.json from rig.json when there is none, named after the folder', async () => {
    const r = await initCreature(dir);
    expect(r.file).toBe(path.join(dir, 'creature.json'));
    expect(r.source).toBe(path.join(dir, 'rig.json'));
    const written = CreatureJson.parse(JSON.parse(await readFile(r.file!, 'utf8')));
    expect(written.name).toBe('my-wolf');
    expect(written.mirror).toEqual(loadCreature('wolf').creature.mirror);
  });

  it('never overwrites a creature.json without force: the proposal goes beside it', async () => {
    await writeFile(path.join(dir, 'creature.json'), 'reviewed\n');
    const r = await initCreature(dir);
    expect(r.file).toBe(path.join(dir, 'creature.proposed.json'));
    expect(await readFile(path.join(dir, 'creature.json'), 'utf8')).toBe('reviewed\n');
    CreatureJson.parse(JSON.parse(await readFile(r.file!, 'utf8')));
    const forced = await initCreature(dir, { force: true });
    expect(forced.file).toBe(path.join(dir, 'creature.json'));
    CreatureJson.parse(JSON.parse(await readFile(forced.file!, 'utf8')));
  });

  it('writes nothing with dryRun', async () => {
    const r = await initCreature(dir, { dryRun: true });
    expect(r.file).toBeNull();
    await expect(readFile(path.join(dir, 'creature.json'))).rejects.toThrow(/ENOENT/);
    expect(r.creature.paint).toHaveLength(4);
  });

  it("reads model.glb's skin when there is no rig.json", async () => {
    await rm(path.join(dir, 'rig.json'));
    // The Khronos Fox (creatures/fox/model.glb; credits in creatures/fox/README.md).
    await copyFile(path.join(loadCreature('fox').dir, 'model.glb'), path.join(dir, 'model.glb'));
    const r = await initCreature(dir);
    expect(r.source).toBe(path.join(dir, 'model.glb'));
    expect(Object.keys(r.creature.mirror ?? {})).toHaveLength(7);
    expect(r.notes.join('\n')).toMatch(/limits_deg: none proposed/);
  });

  it('fails naming rig.json and model.glb when the folder has neither', async () => {
    await rm(path.join(dir, 'rig.json'));
    const err = await initCreature(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as Error).message).toMatch(/^init: .*rig\.json: neither it nor .*model\.glb exists/);
  });
});
