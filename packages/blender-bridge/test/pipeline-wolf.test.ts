import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { riggedGlb } from '@mocap/blender-bridge';
import { riggedGlbPath } from '@mocap/blender-bridge/internal';
import { creaturePaths, RigInfo } from '@mocap/layout';
import { describe, expect, it } from 'vitest';
import { pipelineSuite } from './helpers/pipeline-suite.js';

// Two Blender processes share the wolf's dataset (samples 0, 2, 4, ... and 1, 3, 5, ...).
const current = pipelineSuite('wolf', { length: 1.72, processes: 2 });

describe('wolf: riggedGlb', () => {
  it('exports the rigged creature once: a skin with one joint per bone, kept while newer than rigged.blend', async () => {
    const dir = current().dir;
    const glb = await riggedGlb(dir);
    expect(glb).toBe(riggedGlbPath(dir));
    expect(glb).toBe(path.join(dir, 'runs', 'rigged', 'rigged.glb'));
    const first = (await stat(glb)).mtimeMs;
    expect(await riggedGlb(dir)).toBe(glb);
    expect((await stat(glb)).mtimeMs).toBe(first);
    const info = RigInfo.parse(JSON.parse(await readFile(creaturePaths(dir).rigInfo, 'utf8')));
    const doc = await new NodeIO().read(glb);
    const skin = doc.getRoot().listSkins()[0];
    const joints = (skin?.listJoints() ?? []).map((n) => n.getName());
    expect(joints.sort()).toEqual(info.bones.map((b) => b.name).sort());
  }, 120_000);

  it('explains a creature that is not rigged', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'bridge-rigged-glb-fresh-'));
    try {
      await writeFile(path.join(fresh, 'creature.json'), '{}');
      const blend = path.join(fresh, 'runs', 'rigged', 'rigged.blend');
      await expect(riggedGlb(fresh)).rejects.toThrow(
        `rigged glTF: ${blend}: missing; run \`mocap prep\` then \`mocap rig\` first.`,
      );
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
