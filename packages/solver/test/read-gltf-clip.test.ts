// Uses the Khronos glTF sample model Fox (creatures/fox/model.glb, a copy of ../shared/fixtures/fox/Fox.glb). Credits: CC0 low
// poly fox by PixelMannen; CC-BY 4.0 rigging and animation by @tomkranis on Sketchfab; glTF conversion by @AsoboStudio and @scurest.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { readMotionClip } from '@mocap/solver';
import { readGltfClip, sampleClipWorld } from '@mocap/solver/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOX } from './helpers/fox-skin-rig.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'solver-gltf-clip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readGltfClip', () => {
  it('reads the Fox Walk: every node, its channels, the skin bind pose', async () => {
    const clip = await readGltfClip(FOX, 'Walk');
    expect(clip.source).toBe(`${FOX}#Walk`);
    expect(clip.names).toContain('b_Hip_01');
    expect(clip.channels.length).toBe(21);
    expect(clip.channels.every((c) => c.interpolation === 'LINEAR')).toBe(true);
    expect(clip.start).toBe(0);
    expect(clip.end).toBeCloseTo(0.7083, 4);
    // The Fox's bind pose is its node rest pose: the world matrices at rest equal the bind.
    const rest = { ...clip, channels: [] };
    const world = sampleClipWorld(new Float64Array(clip.names.length * 16), rest, 0);
    for (let i = 0; i < world.length; i++) expect(world[i]).toBeCloseTo(clip.bind[i] as number, 3);
  });

  it('names the animations when the one asked for is missing, or when several and none is named', async () => {
    await expect(readGltfClip(FOX, 'Trot')).rejects.toThrow(
      /no animation "Trot" \(it has Survey, Walk, Run\)/,
    );
    await expect(readMotionClip(FOX)).rejects.toThrow(/has 3 animations \(Survey, Walk, Run\); name one/);
    await expect(readMotionClip(`${FOX}#1`)).resolves.toMatchObject({ source: `${FOX}#Walk` });
  });

  it('keeps STEP and CUBICSPLINE samplers as written', async () => {
    const doc = new Document();
    const buf = doc.createBuffer();
    const node = doc.createNode('bone');
    doc.createScene().addChild(node);
    const acc = (type: 'SCALAR' | 'VEC3' | 'VEC4', a: number[]) =>
      doc.createAccessor().setType(type).setArray(new Float32Array(a)).setBuffer(buf);
    const step = doc
      .createAnimationSampler()
      .setInput(acc('SCALAR', [0, 1]))
      .setOutput(acc('VEC3', [0, 0, 0, 1, 2, 3]))
      .setInterpolation('STEP');
    const cubic = doc
      .createAnimationSampler()
      .setInput(acc('SCALAR', [0, 1]))
      .setOutput(acc('VEC4', [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]))
      .setInterpolation('CUBICSPLINE');
    doc
      .createAnimation('hold')
      .addSampler(step)
      .addSampler(cubic)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(step),
      )
      .addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath('rotation').setSampler(cubic),
      );
    const file = path.join(dir, 'hold.gltf');
    await new NodeIO().write(file, doc);
    const clip = await readMotionClip(file);
    expect(clip.channels.map((c) => [c.path, c.interpolation, c.values.length])).toEqual([
      ['translation', 'STEP', 6],
      ['rotation', 'CUBICSPLINE', 24],
    ]);
    const world = sampleClipWorld(new Float64Array(16), clip, 0.5);
    expect([world[12], world[13], world[14]]).toEqual([0, 0, 0]);
  });

  it('refuses other file types by name', async () => {
    await expect(readMotionClip('walk.fbx')).rejects.toThrow(
      'motion: Expected <file>.glb#<animation>, <file>.gltf#<animation> or <file>.bvh, got "walk.fbx".',
    );
  });
});
