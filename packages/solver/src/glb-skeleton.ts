import type { Node } from '@gltf-transform/core';
import { FileError } from '@mocap/layout';
import type { CreatureSkeleton, SkeletonBone, SkeletonKeypoint } from './creature-skeleton.js';

type Vec3 = [number, number, number];

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);

/**
 * Each bone's tail: its one child's head; among several, the child continuing the parent's
 * direction (the root: their mean); a leaf runs on along its parent for a quarter of its length,
 * as the skin rig's tail does where the skin says nothing better.
 */
function tails(heads: Vec3[], parents: number[], children: number[][]): Vec3[] {
  const dir = (i: number): [Vec3, number] => {
    const p = parents[i] as number;
    if (p < 0) return [[0, 0, 1], 0];
    const d = sub(heads[i]!, heads[p]!);
    const l = norm(d);
    return l > 0 ? [[d[0] / l, d[1] / l, d[2] / l], l] : dir(p);
  };
  return heads.map((h, i) => {
    const cs = children[i]!;
    if (cs.length === 1) return heads[cs[0]!]!;
    if (cs.length > 1 && parents[i]! >= 0) {
      const [d] = dir(i);
      const score = (c: number) => {
        const v = sub(heads[c]!, h);
        return (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / (norm(v) || 1);
      };
      return heads[cs.reduce((a, b) => (score(b) > score(a) ? b : a))]!;
    }
    if (cs.length > 1) {
      const m: Vec3 = [0, 0, 0];
      for (const c of cs) for (let k = 0; k < 3; k++) m[k]! += heads[c]![k]! / cs.length;
      return m;
    }
    const [d, l] = dir(i);
    const len = 0.25 * (l || 1);
    return [h[0] + d[0] * len, h[1] + d[1] * len, h[2] + d[2] * len];
  });
}

/**
 * The skeleton a skinned glTF carries, read with @gltf-transform/core: the joint nodes of the skin
 * its meshes use, their world rest positions in Blender's import frame (glTF's (x, y, z) as
 * (x, -z, y): Z up, a model facing +Z faces -Y), parents (the nearest joint above), tails as
 * {@link tails} finds them, keypoints named as the skin rig names them (each bone's head after the
 * bone, each leaf's tail `<bone>_end`), the ground at the skinned meshes' lowest vertex.
 *
 * ```ts
 * const skeleton = await readGlbSkeleton('init', 'creatures/fox-rigged/model.glb');
 * ```
 */
export async function readGlbSkeleton(op: string, file: string): Promise<CreatureSkeleton> {
  // Loaded here, not at the top: `mocap solve` and --help import the solver and must stay light.
  const { NodeIO } = await import('@gltf-transform/core');
  const doc = await new NodeIO().read(file);
  const skinned = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh() && n.getSkin());
  const skin = skinned[0]?.getSkin();
  if (!skin)
    throw new FileError(`${op}: ${file}: no mesh is skinned, so it carries no skeleton.`, file, 'skins');
  const nodes = skin.listJoints();
  const index = new Map<Node, number>(nodes.map((n, i) => [n, i]));
  nodes.forEach((n, i) => {
    if (!n.getName()) throw new FileError(`${op}: ${file}: skin joints[${i}] has no name.`, file, 'joints');
  });
  const parents = nodes.map((n) => {
    for (let p = n.getParentNode(); p; p = p.getParentNode()) if (index.has(p)) return index.get(p)!;
    return -1;
  });
  const children = nodes.map((_, i) => parents.flatMap((p, c) => (p === i ? [c] : [])));
  const heads = nodes.map((n): Vec3 => {
    const m = n.getWorldMatrix();
    return [m[12], -m[14], m[13]];
  });
  const tail = tails(heads, parents, children);
  const order: number[] = [];
  const visit = (i: number) => {
    order.push(i);
    for (const c of children[i]!) visit(c);
  };
  parents.forEach((p, i) => {
    if (p < 0) visit(i);
  });
  const name = (i: number) => nodes[i]!.getName();
  const bones: SkeletonBone[] = order.map((i) => ({
    name: name(i),
    parent: parents[i]! >= 0 ? name(parents[i]!) : null,
    head: heads[i]!,
    tail: tail[i]!,
  }));
  const keypoints: SkeletonKeypoint[] = order.flatMap((i): SkeletonKeypoint[] => [
    { name: name(i), bone: name(i), end: 'head', at: heads[i]! },
    ...(children[i]!.length > 0
      ? []
      : [{ name: `${name(i)}_end`, bone: name(i), end: 'tail' as const, at: tail[i]! }]),
  ]);
  let ground = Number.POSITIVE_INFINITY;
  let front = Number.POSITIVE_INFINITY;
  let back = Number.NEGATIVE_INFINITY;
  for (const n of skinned) {
    for (const prim of n.getMesh()!.listPrimitives()) {
      const pos = prim.getAttribute('POSITION');
      if (!pos) continue;
      const lo = pos.getMin([]);
      const hi = pos.getMax([]);
      ground = Math.min(ground, lo[1] as number);
      front = Math.min(front, -(hi[2] as number));
      back = Math.max(back, -(lo[2] as number));
    }
  }
  if (!Number.isFinite(ground)) ground = Math.min(...keypoints.map((k) => k.at[2]));
  const length = Number.isFinite(front)
    ? back - front
    : Math.max(...heads.map((h) => h[1])) - Math.min(...heads.map((h) => h[1]));
  return { source: file, bones, keypoints, ground, length };
}
