import { writeFile } from 'node:fs/promises';
import { Document, type Node, NodeIO } from '@gltf-transform/core';

/** One joint of a test skin: glTF frame (Y up), its local translation, and its bind head. */
export interface TestJoint {
  name: string;
  /** Index of the parent joint, or of a helper node (`helper: true`), or null for the root. */
  parent: number | null;
  translation: [number, number, number];
  /** World position of the bind pose (the inverse bind matrix is its negative translation). */
  bind: [number, number, number];
  /** Not a joint of the skin: a static helper node. @default false */
  helper?: boolean;
}

/**
 * A bar along glTF's Z from -1 to 1 (rings of 4 vertices at `ringZ`), skinned by `joints`:
 * `weights[ring]` lists [joint index among the skin's joints, weight] per ring; more than four
 * spill into JOINTS_1/WEIGHTS_1. With no joints, the skin has none. `attach` hangs a rigid,
 * unskinned triangle (vertices (0,0,0), (0.1,0,0), (0,0.1,0)) on a joint node, `translation` from it.
 */
export async function writeSkinnedBar(
  file: string,
  joints: TestJoint[],
  ringZ: number[],
  weights: [number, number][][],
  attach?: { joint: number; translation: [number, number, number] },
): Promise<void> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const nodes: Node[] = joints.map((j) => doc.createNode(j.name).setTranslation(j.translation));
  const scene = doc.createScene();
  joints.forEach((j, i) => {
    if (j.parent === null) scene.addChild(nodes[i]!);
    else nodes[j.parent]!.addChild(nodes[i]!);
  });
  const skinJoints = joints.flatMap((j, i) => (j.helper ? [] : [{ j, node: nodes[i]! }]));
  const pos: number[] = [];
  const j0: number[] = [];
  const w0: number[] = [];
  const j1: number[] = [];
  const w1: number[] = [];
  const sets = Math.max(...weights.map((w) => w.length)) > 4 ? 2 : 1;
  ringZ.forEach((z, r) => {
    for (const [x, y] of [
      [-0.1, 0],
      [0.1, 0],
      [0.1, 0.2],
      [-0.1, 0.2],
    ] as const) {
      pos.push(x, y, z);
      const ws = weights[r] ?? [];
      for (let k = 0; k < 8; k++) {
        const [jj, ww] = ws[k] ?? [0, 0];
        (k < 4 ? j0 : j1).push(jj);
        (k < 4 ? w0 : w1).push(ww);
      }
    }
  });
  const idx: number[] = [];
  for (let r = 0; r + 1 < ringZ.length; r++) {
    for (let s = 0; s < 4; s++) {
      const a = r * 4 + s;
      const b = r * 4 + ((s + 1) % 4);
      idx.push(a, b, b + 4, a, b + 4, a + 4);
    }
  }
  const acc = (type: 'VEC3' | 'VEC4' | 'SCALAR' | 'MAT4', a: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(a).setBuffer(buffer);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array(pos)))
    .setIndices(acc('SCALAR', new Uint16Array(idx)));
  if (skinJoints.length > 0) {
    prim.setAttribute('JOINTS_0', acc('VEC4', new Uint16Array(j0)));
    prim.setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array(w0)));
    if (sets > 1) {
      prim.setAttribute('JOINTS_1', acc('VEC4', new Uint16Array(j1)));
      prim.setAttribute('WEIGHTS_1', acc('VEC4', new Float32Array(w1)));
    }
  }
  const mesh = doc.createMesh('bar').addPrimitive(prim);
  const skin = doc.createSkin('barSkin');
  const ibm: number[] = [];
  for (const { j, node } of skinJoints) {
    skin.addJoint(node);
    ibm.push(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -j.bind[0], -j.bind[1], -j.bind[2], 1);
  }
  if (skinJoints.length > 0) skin.setInverseBindMatrices(acc('MAT4', new Float32Array(ibm)));
  scene.addChild(doc.createNode('barMesh').setMesh(mesh).setSkin(skin));
  if (attach) {
    // A rigid unskinned triangle hung on a joint node.
    const tri = doc
      .createPrimitive()
      .setAttribute('POSITION', acc('VEC3', new Float32Array([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0])))
      .setIndices(acc('SCALAR', new Uint16Array([0, 1, 2])));
    const node = doc.createNode('attached').setMesh(doc.createMesh('attached').addPrimitive(tri));
    nodes[attach.joint]!.addChild(node.setTranslation(attach.translation));
  }
  await writeFile(file, await new NodeIO().writeBinary(doc));
}

/** A chain of `n` joints along the bar, one per ring, each bound where its node is. */
export function barChain(n: number, ringZ: number[]): TestJoint[] {
  return Array.from({ length: n }, (_, k) => ({
    name: `J${k}`,
    parent: k === 0 ? null : k - 1,
    translation: (k === 0 ? [0, 0.1, ringZ[0]!] : [0, 0, ringZ[k]! - ringZ[k - 1]!]) as [
      number,
      number,
      number,
    ],
    bind: [0, 0.1, ringZ[k]!] as [number, number, number],
  }));
}
