import { type Document, type Node, NodeIO, type Skin } from '@gltf-transform/core';
import { FileError } from '@mocap/layout';

/** One joint of a glTF skin, as the rig takes it. */
export interface SkinJoint {
  /** The joint node's name: the bone's name and its vertex group's. */
  name: string;
  /** The nearest ancestor that is a kept joint (helper nodes between are skipped), or null. */
  parent: string | null;
  /** Bind-pose head in Blender's import frame (Z up, the model's own units). */
  head: [number, number, number];
  /** Total skin weight on this joint over the skinned vertices. */
  weight: number;
}

/** The skeleton a skinned glTF carries, read by {@link readSkinSkeleton}. */
export interface SkinSkeleton {
  file: string;
  /** The skin's name, or `skins[i]`. */
  skin: string;
  /** Kept joints, parents first. */
  joints: SkinJoint[];
  /** Unweighted joints above the first weighted one, each with one child (folded into the root). */
  dropped: string[];
  /** Joints whose bind pose (inverse bind matrix) differs from the node's own world transform. */
  bindDiffers: string[];
  /** The most influences (non-zero weights) any vertex has. */
  maxInfluences: number;
}

type Mat4 = number[];

/** Inverse of a column-major affine 4 x 4 (glTF's inverse bind matrices are affine). */
function invertAffine(m: ArrayLike<number>): Mat4 {
  const [a, b, c, , d, e, f, , g, h, i] = Array.from(m) as number[];
  const det = a! * (e! * i! - f! * h!) - d! * (b! * i! - c! * h!) + g! * (b! * f! - c! * e!);
  if (Math.abs(det) < 1e-20) throw new RangeError('singular matrix');
  const r = [
    (e! * i! - f! * h!) / det,
    (c! * h! - b! * i!) / det,
    (b! * f! - c! * e!) / det,
    (f! * g! - d! * i!) / det,
    (a! * i! - c! * g!) / det,
    (c! * d! - a! * f!) / det,
    (d! * h! - e! * g!) / det,
    (b! * g! - a! * h!) / det,
    (a! * e! - b! * d!) / det,
  ];
  const t = [m[12] as number, m[13] as number, m[14] as number];
  const out: Mat4 = [r[0]!, r[1]!, r[2]!, 0, r[3]!, r[4]!, r[5]!, 0, r[6]!, r[7]!, r[8]!, 0, 0, 0, 0, 1];
  for (let row = 0; row < 3; row++)
    out[12 + row] = -(r[row]! * t[0]! + r[3 + row]! * t[1]! + r[6 + row]! * t[2]!);
  return out;
}

/** glTF (Y up) to Blender's import frame (Z up): (x, y, z) -> (x, -z, y). */
function toBlender(x: number, y: number, z: number): [number, number, number] {
  return [x, -z, y];
}

/** The one skin the meshes use; null when no mesh is skinned. */
function creatureSkin(op: string, file: string, doc: Document): { skin: Skin; label: string } | null {
  const skins = doc.getRoot().listSkins();
  const used = [
    ...new Set(
      doc
        .getRoot()
        .listNodes()
        .flatMap((n) => (n.getMesh() && n.getSkin() ? [n.getSkin()!] : [])),
    ),
  ];
  if (used.length === 0) return null;
  const label = (s: Skin) => s.getName() || `skins[${skins.indexOf(s)}]`;
  if (used.length > 1) {
    throw new FileError(
      `${op}: ${file}: ${used.length} skins (${used.map(label).join(', ')}) skin its meshes; a creature takes its rig from one.`,
      file,
      'skins',
    );
  }
  return { skin: used[0]!, label: label(used[0]!) };
}

/** Per joint, the summed weight over every skinned primitive; and the most influences on a vertex. */
function jointWeights(doc: Document, skin: Skin, n: number): { weight: number[]; maxInfluences: number } {
  const weight = new Array<number>(n).fill(0);
  let maxInfluences = 0;
  for (const node of doc.getRoot().listNodes()) {
    if (node.getSkin() !== skin || !node.getMesh()) continue;
    for (const prim of node.getMesh()!.listPrimitives()) {
      const count = prim.getAttribute('POSITION')?.getCount() ?? 0;
      const influences = new Int32Array(count);
      for (let set = 0; ; set++) {
        const js = prim.getAttribute(`JOINTS_${set}`);
        const ws = prim.getAttribute(`WEIGHTS_${set}`);
        if (!js || !ws) break;
        const j = [0, 0, 0, 0];
        const w = [0, 0, 0, 0];
        for (let v = 0; v < count; v++) {
          js.getElement(v, j);
          ws.getElement(v, w);
          for (let k = 0; k < 4; k++) {
            if ((w[k] as number) <= 0) continue;
            weight[j[k] as number] = (weight[j[k] as number] ?? 0) + (w[k] as number);
            influences[v]!++;
          }
        }
      }
      for (const c of influences) maxInfluences = Math.max(maxInfluences, c);
    }
  }
  return { weight, maxInfluences };
}

/**
 * The skeleton of a skinned glTF (`file`), or null when no mesh in it is skinned: each joint's
 * bind-pose head (from the inverse bind matrices, else the node's world transform), its parent
 * (the nearest joint above it; helper nodes between joints are skipped, their transforms being
 * in the bind matrices), the weight the skin puts on it. Unweighted joints at the top of the
 * hierarchy with one child each are dropped. Refuses a skin with no joints, several skins,
 * nameless or duplicate joint names, and joints with several roots.
 *
 * ```ts
 * const s = await readSkinSkeleton('rig', 'creatures/fox-rigged/model.glb'); // 22 joints, root b_Hip_01
 * ```
 */
export async function readSkinSkeleton(op: string, file: string): Promise<SkinSkeleton | null> {
  const doc = await new NodeIO().read(file);
  const found = creatureSkin(op, file, doc);
  if (!found) return null;
  const { skin, label } = found;
  const nodes = skin.listJoints();
  if (nodes.length === 0)
    throw new FileError(`${op}: ${file}: skin "${label}" has no joints.`, file, 'skins');
  const names = new Set<string>();
  nodes.forEach((n, i) => {
    const name = n.getName();
    const at = `skin "${label}" joints[${i}]`;
    if (!name) throw new FileError(`${op}: ${file}: ${at} has no name.`, file, 'joints');
    if (names.has(name))
      throw new FileError(`${op}: ${file}: ${at}: duplicate joint name "${name}".`, file, 'joints');
    if (Buffer.byteLength(name) > 63)
      throw new FileError(
        `${op}: ${file}: ${at}: "${name}" is longer than Blender's 63-byte names.`,
        file,
        'joints',
      );
    names.add(name);
  });
  const ibm = skin.getInverseBindMatrices()?.getArray() ?? null;
  const index = new Map<Node, number>(nodes.map((n, i) => [n, i]));
  const parentOf = (n: Node): number | null => {
    for (let p = n.getParentNode(); p; p = p.getParentNode()) if (index.has(p)) return index.get(p)!;
    return null;
  };
  const { weight, maxInfluences } = jointWeights(doc, skin, nodes.length);
  const bindDiffers: string[] = [];
  const heads = nodes.map((n, i) => {
    const world = n.getWorldMatrix();
    const bind = ibm ? invertAffine(ibm.subarray(i * 16, i * 16 + 16)) : Array.from(world);
    const d = Math.hypot(...[0, 1, 2].map((k) => (bind[12 + k] as number) - (world[12 + k] as number)));
    const scale = Math.hypot(bind[12] as number, bind[13] as number, bind[14] as number, 1);
    if (d > 1e-4 * scale) bindDiffers.push(n.getName());
    return toBlender(bind[12] as number, bind[13] as number, bind[14] as number);
  });
  const parents = nodes.map(parentOf);
  const children = nodes.map((_, i) => parents.flatMap((p, c) => (p === i ? [c] : [])));
  const roots = parents.flatMap((p, i) => (p === null ? [i] : []));
  if (roots.length !== 1) {
    throw new FileError(
      `${op}: ${file}: skin "${label}" has ${roots.length} root joints (${roots.map((r) => nodes[r]!.getName()).join(', ')}); a rig needs one.`,
      file,
      'joints',
    );
  }
  const dropped: string[] = [];
  let root = roots[0]!;
  while ((weight[root] ?? 0) <= 0 && children[root]!.length === 1) {
    dropped.push(nodes[root]!.getName());
    root = children[root]![0]!;
  }
  const joints: SkinJoint[] = [];
  const visit = (i: number, parent: string | null) => {
    joints.push({ name: nodes[i]!.getName(), parent, head: heads[i]!, weight: weight[i] ?? 0 });
    for (const c of children[i]!) visit(c, nodes[i]!.getName());
  };
  visit(root, null);
  return { file, skin: label, joints, dropped, bindDiffers, maxInfluences };
}
