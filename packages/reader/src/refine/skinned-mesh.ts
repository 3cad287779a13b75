import { type Accessor, type Document, type Node, NodeIO } from '@gltf-transform/core';
import { z } from 'zod';
import type { JointPose } from './joint-pose.js';
import { mat4FromTrs, mat4IdentityAt, mat4MulAt } from './mat4-ops.js';
import { readSkinAnimations, type SkinAnimation } from './skin-animation.js';

/**
 * A skinned triangle mesh read from a glTF, flat and ready for linear blend skinning. Vertices
 * are in the mesh's bind space; joints are listed in the skin's order.
 */
export interface SkinnedMesh {
  vertexCount: number;
  /** Bind-space vertex positions, N x 3. */
  positions: Float64Array;
  /** Triangles, F x 3 vertex indices. */
  indices: Uint32Array;
  /** Four joint indices per vertex (JOINTS_0), N x 4. */
  joints: Uint16Array;
  /** Four weights per vertex (WEIGHTS_0, normalised to sum 1), N x 4. */
  weights: Float64Array;
  /** Joint node names, in the skin's order. */
  jointNames: string[];
  /** Parent joint index per joint, -1 when the parent node is not a joint of the skin. */
  parent: Int32Array;
  /** Joint indices, parents first. */
  order: Int32Array;
  /** For joints without a parent joint: the world matrix of their parent node (J x 16; identity otherwise). */
  baseWorld: Float64Array;
  /** Inverse bind matrices, J x 16, column-major. */
  inverseBind: Float64Array;
  /** The joint nodes' own transforms: the rest pose. */
  rest: JointPose;
  /** From glTF world space to the layout's world (metres, Z up): the axis swap and unit scale. */
  toWorld: Float64Array;
  /** Animations that move the skin's joints. */
  animations: SkinAnimation[];
}

/** Options of {@link readSkinnedMesh}. */
export const ReadSkinnedMeshOptions = z
  .object({
    /** Name of the node holding the skinned mesh; the first skinned mesh node when left out. */
    node: z.string().optional(),
    /** Up axis of the file. glTF is Y-up: 'y' maps (x, y, z) to (x, -z, y), as Blender's importer does. @default 'y' */
    upAxis: z.enum(['y', 'z']).default('y'),
    /** Metres per file unit. @default 1 */
    unitScale: z.number().positive().default(1),
  })
  .strict();
/** Options of {@link readSkinnedMesh} as passed in. */
export type ReadSkinnedMeshOptions = z.input<typeof ReadSkinnedMeshOptions>;

/**
 * Reads the skinned mesh of a glTF (.glb or .gltf) with @gltf-transform/core: positions,
 * triangles, JOINTS_0 / WEIGHTS_0, inverse bind matrices, the joint hierarchy, its rest pose and
 * its animations.
 *
 * ```ts
 * const mesh = await readSkinnedMesh('creatures/wolf/runs/rigged/rigged.glb');
 * ```
 */
export async function readSkinnedMesh(
  file: string,
  options: ReadSkinnedMeshOptions = {},
): Promise<SkinnedMesh> {
  let doc: Document;
  try {
    doc = await new NodeIO().read(file);
  } catch (err) {
    throw new Error(`readSkinnedMesh: ${file}: cannot read the glTF (${(err as Error).message}).`, {
      cause: err,
    });
  }
  return skinnedMeshFromDocument(doc, file, options);
}

/** {@link readSkinnedMesh} on a document already in memory; `file` names it in errors. */
export function skinnedMeshFromDocument(
  doc: Document,
  file: string,
  options: ReadSkinnedMeshOptions = {},
): SkinnedMesh {
  const opts = ReadSkinnedMeshOptions.parse(options);
  const nodes = doc.getRoot().listNodes();
  const node = nodes.find(
    (n) => n.getMesh() && n.getSkin() && (opts.node === undefined || n.getName() === opts.node),
  );
  if (!node) {
    const what =
      opts.node === undefined ? 'no node with a skinned mesh' : `no skinned mesh node "${opts.node}"`;
    throw new Error(`readSkinnedMesh: ${file}: nodes: ${what}.`);
  }
  const skin = node.getSkin()!;
  const jointNodes = skin.listJoints();
  const nj = jointNodes.length;
  const index = new Map<Node, number>(jointNodes.map((n, i) => [n, i]));
  const parent = new Int32Array(nj);
  const baseWorld = new Float64Array(nj * 16);
  const rest: JointPose = {
    translation: new Float64Array(nj * 3),
    rotation: new Float64Array(nj * 4),
    scale: new Float64Array(nj * 3),
  };
  jointNodes.forEach((jn, j) => {
    rest.translation.set(jn.getTranslation(), 3 * j);
    rest.rotation.set(jn.getRotation(), 4 * j);
    rest.scale.set(jn.getScale(), 3 * j);
    const p = jn.getParentNode();
    parent[j] = p ? (index.get(p) ?? -1) : -1;
    mat4IdentityAt(baseWorld, 16 * j);
    if (parent[j] < 0 && p) nodeWorld(baseWorld, 16 * j, p);
  });
  const order = parentsFirst(parent, file);
  const inverseBind = new Float64Array(nj * 16);
  const ibm = skin.getInverseBindMatrices();
  for (let j = 0; j < nj; j++) {
    if (ibm) inverseBind.set(ibm.getElement(j, new Array(16)), 16 * j);
    else mat4IdentityAt(inverseBind, 16 * j);
  }
  const geometry = readGeometry(node, file, nj);
  return {
    ...geometry,
    jointNames: jointNodes.map((n) => n.getName()),
    parent,
    order,
    baseWorld,
    inverseBind,
    rest,
    toWorld: toWorldMatrix(opts.upAxis, opts.unitScale),
    animations: readSkinAnimations(doc, index),
  };
}

function nodeWorld(out: Float64Array, oo: number, node: Node): void {
  const chain: Node[] = [];
  for (let n: Node | null = node; n; n = n.getParentNode()) chain.unshift(n);
  const local = new Float64Array(16);
  const acc = mat4IdentityAt(new Float64Array(16));
  for (const n of chain) {
    mat4FromTrs(local, 0, n.getTranslation(), 0, n.getRotation(), 0, n.getScale(), 0);
    mat4MulAt(out, oo, acc, 0, local, 0);
    acc.set(out.subarray(oo, oo + 16));
  }
}

function parentsFirst(parent: Int32Array, file: string): Int32Array {
  const n = parent.length;
  const order: number[] = [];
  const state = new Uint8Array(n);
  const visit = (j: number, depth: number): void => {
    if (state[j] === 2) return;
    if (depth > n)
      throw new Error(`readSkinnedMesh: ${file}: skins[0].joints: the joint hierarchy has a cycle.`);
    if (parent[j] >= 0) visit(parent[j], depth + 1);
    state[j] = 2;
    order.push(j);
  };
  for (let j = 0; j < n; j++) visit(j, 0);
  return Int32Array.from(order);
}

function readGeometry(node: Node, file: string, nj: number) {
  const prims = node.getMesh()!.listPrimitives();
  let n = 0;
  let f = 0;
  prims.forEach((p, i) => {
    const where = `meshes["${node.getMesh()!.getName()}"].primitives[${i}]`;
    if (p.getMode() !== 4)
      throw new Error(`readSkinnedMesh: ${file}: ${where}.mode: ${p.getMode()}, expected 4 (triangles).`);
    for (const sem of ['POSITION', 'JOINTS_0', 'WEIGHTS_0']) {
      if (!p.getAttribute(sem))
        throw new Error(`readSkinnedMesh: ${file}: ${where}.attributes.${sem}: missing.`);
    }
    if (p.getAttribute('JOINTS_1')) {
      throw new Error(
        `readSkinnedMesh: ${file}: ${where}.attributes.JOINTS_1: more than 4 influences are not supported.`,
      );
    }
    const count = p.getAttribute('POSITION')!.getCount();
    n += count;
    f += (p.getIndices()?.getCount() ?? count) / 3;
  });
  const positions = new Float64Array(n * 3);
  const joints = new Uint16Array(n * 4);
  const weights = new Float64Array(n * 4);
  const indices = new Uint32Array(f * 3);
  let vo = 0;
  let io = 0;
  const el: number[] = [];
  const wv: number[] = [];
  const jvs: number[] = [];
  prims.forEach((p, pi) => {
    const pos = p.getAttribute('POSITION')!;
    const jnt = p.getAttribute('JOINTS_0')!;
    const wgt = p.getAttribute('WEIGHTS_0')!;
    const count = pos.getCount();
    for (let v = 0; v < count; v++) {
      positions.set(pos.getElement(v, el), 3 * (vo + v));
      const w = wgt.getElement(v, wv);
      const jv4 = jnt.getElement(v, jvs);
      const s = w[0] + w[1] + w[2] + w[3];
      for (let k = 0; k < 4; k++) {
        const jv = jv4[k];
        if (jv >= nj) {
          throw new Error(
            `readSkinnedMesh: ${file}: primitives[${pi}].JOINTS_0[${v}]: joint ${jv} is not one of the skin's ${nj}.`,
          );
        }
        joints[4 * (vo + v) + k] = jv;
        weights[4 * (vo + v) + k] = s > 0 ? w[k] / s : k === 0 ? 1 : 0;
      }
    }
    const idx: Accessor | null = p.getIndices();
    const tri = idx ? idx.getCount() : count;
    for (let t = 0; t < tri; t++) indices[io + t] = vo + (idx ? idx.getScalar(t) : t);
    vo += count;
    io += tri;
  });
  return { vertexCount: n, positions, indices, joints, weights };
}

function toWorldMatrix(upAxis: 'y' | 'z', s: number): Float64Array {
  const m = mat4IdentityAt(new Float64Array(16));
  if (upAxis === 'y') {
    m[5] = 0;
    m[6] = s;
    m[9] = -s;
    m[10] = 0;
  } else {
    m[5] = s;
    m[10] = s;
  }
  m[0] = s;
  return m;
}
