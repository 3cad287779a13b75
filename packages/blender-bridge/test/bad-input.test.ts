import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildRig, prepMesh } from '@mocap/blender-bridge';
import { BlenderError } from '@mocap/blender-bridge/internal';
import { creaturePaths, FileError } from '@mocap/layout';
import { CREATURES, copyCreature } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

async function files(dir: string): Promise<string[]> {
  return readdir(dir, { recursive: true }).catch(() => []);
}

async function error(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: Error) => e,
  );
}

/** A GLB whose header is right but whose JSON chunk is not JSON. */
function garbageGlb(): Buffer {
  const json = Buffer.from('{"asset": not json at all  ', 'utf8');
  const glb = Buffer.alloc(12 + 8 + json.length);
  glb.write('glTF', 0, 'latin1');
  glb.writeUInt32LE(2, 4);
  glb.writeUInt32LE(glb.length, 8);
  glb.writeUInt32LE(json.length, 12);
  glb.writeUInt32LE(0x4e4f534a, 16);
  json.copy(glb, 20);
  return glb;
}

describe('bad input: a clear error and no half-written output', () => {
  it('prep: a missing model.glb', async () => {
    const dir = await copyCreature('wolf');
    await rm(path.join(dir, 'model.glb'));
    const e = await error(prepMesh({ creature: dir }));
    expect(e).toBeInstanceOf(FileError);
    expect(e.message).toMatch(/^prep: .*model\.glb: cannot read the model \(ENOENT\)\.$/);
    expect(await files(path.join(dir, 'runs'))).toEqual([]);
  });

  it('prep: a model.glb that is not glTF, or is cut short', async () => {
    const dir = await copyCreature('wolf');
    const model = path.join(dir, 'model.glb');
    await writeFile(model, 'PK\u0003\u0004 this is a zip, not a model');
    expect((await error(prepMesh({ creature: dir }))).message).toContain('not a binary glTF (magic "PK');
    const whole = await readFile(path.join(CREATURES, 'wolf', 'model.glb'));
    await writeFile(model, whole.subarray(0, 5000));
    const e = await error(prepMesh({ creature: dir }));
    expect(e).toBeInstanceOf(FileError);
    expect(e.message).toContain(`truncated or corrupt (header says ${whole.length} bytes, file has 5000)`);
    expect(await files(path.join(dir, 'runs'))).toEqual([]);
  });

  it('prep: a corrupt glTF Blender cannot import fails with its traceback and writes nothing', async () => {
    const dir = await copyCreature('wolf');
    await writeFile(path.join(dir, 'model.glb'), garbageGlb());
    const e = await error(prepMesh({ creature: dir }));
    expect(e).toBeInstanceOf(BlenderError);
    const b = e as BlenderError;
    expect(b.script).toBe('prep_mesh.py');
    expect(b.exitCode).toBe(1);
    expect(b.traceback).toContain('Traceback');
    const left = await files(path.join(dir, 'runs'));
    expect(left.filter((f) => f.endsWith('.blend'))).toEqual([]);
  });

  it('rig: a rig.json bone whose parent is missing', async () => {
    const dir = await copyCreature('wolf');
    const rigFile = path.join(dir, 'rig.json');
    const rig = JSON.parse(await readFile(rigFile, 'utf8'));
    rig.bones[3][3] = 'spine9';
    await writeFile(rigFile, JSON.stringify(rig));
    const e = await error(buildRig({ creature: dir }));
    expect(e).toBeInstanceOf(FileError);
    expect(e.message).toContain('rig.json: bones[3][3]: parent "spine9" is not a bone listed before it');
    const p = creaturePaths(dir);
    expect(await files(path.dirname(p.riggedBlend))).toEqual([]);
  });

  it('Blender absent or too old: a clear error before any output', async () => {
    const dir = await copyCreature('wolf');
    const missing = await error(prepMesh({ creature: dir, blender: path.join(dir, 'no-blender') }));
    expect(missing).toBeInstanceOf(BlenderError);
    expect((missing as BlenderError).kind).toBe('not-found');
    const fake = path.join(dir, 'old-blender');
    await writeFile(fake, '#!/bin/sh\necho "Blender 2.93.1"\n');
    await chmod(fake, 0o755);
    const old = await error(prepMesh({ creature: dir, blender: fake }));
    expect((old as BlenderError).kind).toBe('version');
    expect(old.message).toContain('is Blender 2.93.1; mocap needs 3.4 or newer');
    expect(await files(path.join(dir, 'runs'))).toEqual([]);
  });
});
