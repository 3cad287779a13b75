import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { readSkinnedMesh } from '@mocap/reader';
import {
  jointWorldMatrices,
  linearBlendSkin,
  restJointPose,
  sampleSkinAnimation,
  skinnedMeshFromDocument,
  skinningMatrices,
  vertexPaintLabels,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

/** Two joints (root at the origin, child 1 unit up +Y), one triangle, one animation per interpolation. */
function twoJointDoc(interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE') {
  const doc = new Document();
  const buf = doc.createBuffer();
  const root = doc.createNode('root');
  const child = doc.createNode('child').setTranslation([0, 1, 0]);
  root.addChild(child);
  const ibm = doc
    .createAccessor()
    .setType('MAT4')
    .setArray(
      new Float32Array([
        1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
      ]),
    )
    .setBuffer(buf);
  const skin = doc.createSkin().addJoint(root).addJoint(child).setInverseBindMatrices(ibm);
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc
        .createAccessor()
        .setType('VEC3')
        .setArray(new Float32Array([0, 0, 0, 1, 1, 0, 0, 2, 0]))
        .setBuffer(buf),
    )
    .setAttribute(
      'JOINTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(new Uint16Array([0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]))
        .setBuffer(buf),
    )
    .setAttribute(
      'WEIGHTS_0',
      doc
        .createAccessor()
        .setType('VEC4')
        .setArray(new Float32Array([1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0]))
        .setBuffer(buf),
    );
  const meshNode = doc.createNode('mesh').setMesh(doc.createMesh('m').addPrimitive(prim)).setSkin(skin);
  doc.createScene().addChild(root).addChild(meshNode);
  // child rotates 90 deg about Z between t = 0 and t = 1
  const s = Math.SQRT1_2;
  const keys =
    interpolation === 'CUBICSPLINE'
      ? [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s, 0, 0, 0, 0]
      : [0, 0, 0, 1, 0, 0, s, s];
  const sampler = doc
    .createAnimationSampler()
    .setInput(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(new Float32Array([0, 1]))
        .setBuffer(buf),
    )
    .setOutput(doc.createAccessor().setType('VEC4').setArray(new Float32Array(keys)).setBuffer(buf))
    .setInterpolation(interpolation);
  const channel = doc
    .createAnimationChannel()
    .setTargetNode(child)
    .setTargetPath('rotation')
    .setSampler(sampler);
  doc.createAnimation('bend').addSampler(sampler).addChannel(channel);
  return doc;
}

function posed(mesh: ReturnType<typeof skinnedMeshFromDocument>, time: number) {
  const pose = sampleSkinAnimation(restJointPose(mesh), mesh.animations[0], time);
  const world = jointWorldMatrices(
    new Float64Array(32),
    mesh,
    pose,
    new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
  );
  return {
    pose,
    verts: linearBlendSkin(new Float64Array(9), mesh, skinningMatrices(new Float64Array(32), mesh, world)),
  };
}

describe('skinnedMeshFromDocument + sampleSkinAnimation', () => {
  it('reads joints, parents, weights; LINEAR slerps halfway to 45 degrees', () => {
    const mesh = skinnedMeshFromDocument(twoJointDoc('LINEAR'), 'two.glb');
    expect(mesh.jointNames).toEqual(['root', 'child']);
    expect(Array.from(mesh.parent)).toEqual([-1, 0]);
    const { pose, verts } = posed(mesh, 0.5);
    expect(pose.rotation[4 + 2]).toBeCloseTo(Math.sin(Math.PI / 8), 6);
    // vertex 2 rides on the child: (0, 2) rotated 45 deg about the child's origin (0, 1)
    expect(verts[6]).toBeCloseTo(-Math.SQRT1_2, 6);
    expect(verts[7]).toBeCloseTo(1 + Math.SQRT1_2, 6);
    // vertex 1 is half root, half child
    // (1, 1) in bind space: the root leaves it, the child turns it about (0, 1) to (cos 45, 1 + sin 45)
    expect(verts[3]).toBeCloseTo(0.5 * 1 + 0.5 * Math.SQRT1_2, 6);
    expect(verts[4]).toBeCloseTo(0.5 * 1 + 0.5 * (1 + Math.SQRT1_2), 6);
  });

  it('STEP holds the first key; CUBICSPLINE with zero tangents eases (3u^2 - 2u^3)', () => {
    const step = skinnedMeshFromDocument(twoJointDoc('STEP'), 'two.glb');
    expect(posed(step, 0.9).pose.rotation[6]).toBe(0);
    const cubic = skinnedMeshFromDocument(twoJointDoc('CUBICSPLINE'), 'two.glb');
    const u = 0.25;
    const h = 3 * u * u - 2 * u * u * u;
    const z = h * Math.SQRT1_2;
    const w = 1 - h + h * Math.SQRT1_2;
    expect(posed(cubic, u).pose.rotation[6]).toBeCloseTo(z / Math.hypot(z, w), 6);
    expect(posed(cubic, 5).pose.rotation[6]).toBeCloseTo(Math.SQRT1_2, 6);
  });
});

describe('errors name the operation, the file and the field', () => {
  it('a document without a skinned mesh', () => {
    const doc = new Document();
    doc.createScene().addChild(doc.createNode('empty'));
    expect(() => skinnedMeshFromDocument(doc, 'plain.glb')).toThrow(
      /readSkinnedMesh: plain\.glb: nodes: no node with a skinned mesh/,
    );
    expect(() => skinnedMeshFromDocument(twoJointDoc('LINEAR'), 'two.glb', { node: 'nope' })).toThrow(
      /no skinned mesh node "nope"/,
    );
  });

  it('a file that is not a glTF', async () => {
    const file = join(tmpdir(), 'refine-not-a-gltf.glb');
    writeFileSync(file, 'hello');
    await expect(readSkinnedMesh(file)).rejects.toThrow(
      /readSkinnedMesh: .*refine-not-a-gltf\.glb: cannot read the glTF/,
    );
  });

  it('a missing file', async () => {
    await expect(readSkinnedMesh('/nonexistent/rigged.glb')).rejects.toThrow(
      /readSkinnedMesh: \/nonexistent\/rigged\.glb: cannot read the glTF/,
    );
  });

  it('a paint bone the skin lacks', () => {
    const mesh = skinnedMeshFromDocument(twoJointDoc('LINEAR'), 'two.glb');
    expect(() => vertexPaintLabels(mesh, [{ name: 'legs', bones: ['child', 'fpaw.L'] }])).toThrow(
      /vertexPaintLabels: paint\[0\]\.bones\[1\]: "fpaw\.L" is not a joint/,
    );
  });
});
