import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateGltf } from '@mocap/blender-bridge';
import { creatureGlb, creatureMesh } from '@mocap/blender-bridge/internal';
import { CreatureJson, RigJson, readJsonFile } from '@mocap/layout';
import { CREATURES } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

async function load(kind: 'wolf' | 'dragon') {
  const dir = path.join(CREATURES, kind);
  const rig = await readJsonFile('test', path.join(dir, 'rig.json'), RigJson);
  const creature = await readJsonFile('test', path.join(dir, 'creature.json'), CreatureJson);
  return { dir, rig, lengthM: creature.prep.length_m };
}

describe.each(['wolf', 'dragon'] as const)('creatureMesh: %s', (kind) => {
  it('is the committed model.glb, byte for byte (made by `pnpm make-creatures`)', async () => {
    const { dir, rig, lengthM } = await load(kind);
    const a = await creatureGlb(rig, { kind, lengthM });
    const b = await creatureGlb(rig, { kind, lengthM });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(await readFile(path.join(dir, 'model.glb')))).toBe(true);
  });

  it('has a few thousand faces, spans exactly the creature length, symmetric, on the ground', async () => {
    const { rig, lengthM } = await load(kind);
    const mb = creatureMesh(rig, { kind, lengthM });
    const faces = mb.indices.length / 3;
    expect(faces).toBeGreaterThan(1000);
    expect(faces).toBeLessThan(10000);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < mb.positions.length; i++) {
      lo[i % 3] = Math.min(lo[i % 3]!, mb.positions[i]!);
      hi[i % 3] = Math.max(hi[i % 3]!, mb.positions[i]!);
    }
    expect(hi[1]! - lo[1]!).toBeCloseTo(lengthM, 9);
    expect(hi[1]! + lo[1]!).toBeCloseTo(0, 9);
    expect(hi[0]! + lo[0]!).toBeCloseTo(0, 6);
    expect(lo[2]).toBe(0);
  });

  it('passes the Khronos glTF validator with no errors', async () => {
    const { rig, lengthM } = await load(kind);
    const file = path.join(tmpdir(), `mocap-${kind}-${process.pid}.glb`);
    await writeFile(file, await creatureGlb(rig, { kind, lengthM }));
    expect((await validateGltf(file)).errors).toBe(0);
  });
});

describe('creatureMesh: bad input', () => {
  it('names a joint the rig lacks', () => {
    expect(() => creatureMesh({ joints: { pelvis: [0, 0, 1] } }, { kind: 'wolf', lengthM: 1 })).toThrow(
      /rig.json has no joint "tailbase"/,
    );
  });
});
