import { type Animation, type Node, NodeIO } from '@gltf-transform/core';
import type { RigInfo } from '@mocap/layout';

/** Joint positions read back from an animated glTF, Blender's world frame (Z up), metres. */
export interface GltfJoints {
  /** Sample times of the first animation, seconds. */
  times: number[];
  names: string[];
  /** `joints[t][j]`, metres, Z up (converted from glTF's Y up). */
  joints: [number, number, number][][];
}

type Path = 'translation' | 'rotation' | 'scale';

function sample(
  input: ArrayLike<number>,
  output: ArrayLike<number>,
  n: number,
  t: number,
  path: Path,
): number[] {
  let k = 0;
  while (k + 1 < input.length && (input[k + 1] as number) <= t + 1e-9) k++;
  const at = (i: number) => Array.from({ length: n }, (_, c) => output[i * n + c] as number);
  if (k + 1 >= input.length || t <= (input[0] as number)) return at(t <= (input[0] as number) ? 0 : k);
  const t0 = input[k] as number;
  const t1 = input[k + 1] as number;
  const a = at(k);
  const b = at(k + 1);
  const s = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  let dot = 0;
  for (let c = 0; c < n; c++) dot += (a[c] as number) * (b[c] as number);
  const sign = path === 'rotation' && dot < 0 ? -1 : 1;
  const out = a.map((v, c) => v + ((b[c] as number) * sign - v) * s);
  if (path === 'rotation') {
    const len = Math.hypot(...out) || 1;
    return out.map((v) => v / len);
  }
  return out;
}

function apply(anim: Animation, t: number): void {
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode();
    const path = ch.getTargetPath() as Path | 'weights' | null;
    const sampler = ch.getSampler();
    if (!node || !sampler || (path !== 'translation' && path !== 'rotation' && path !== 'scale')) continue;
    const input = sampler.getInput()?.getArray();
    const output = sampler.getOutput()?.getArray();
    if (!input || !output) continue;
    const v = sample(input, output, path === 'rotation' ? 4 : 3, t, path);
    if (path === 'rotation') node.setRotation(v as [number, number, number, number]);
    else if (path === 'translation') node.setTranslation(v as [number, number, number]);
    else node.setScale(v as [number, number, number]);
  }
}

/**
 * Reads an animated glTF written by apply_motion and computes each keypoint of `info` at every
 * sample time of its first animation: a bone's head is its joint node's origin, its tail the
 * point `length` along the bone's axis (glTF local +Y, as Blender's exporter writes bones).
 *
 * ```ts
 * const { joints } = await readGltfJoints('runs/apply/trot/animation.glb', rigInfo);
 * ```
 */
export async function readGltfJoints(file: string, info: RigInfo): Promise<GltfJoints> {
  const doc = await new NodeIO().read(file);
  const root = doc.getRoot();
  const anim = root.listAnimations()[0];
  if (!anim) throw new Error(`readGltfJoints: ${file}: holds no animation.`);
  const nodes = new Map<string, Node>(root.listNodes().map((n) => [n.getName(), n]));
  const lengths = new Map(info.bones.map((b) => [b.name, b.length]));
  for (const k of info.keypoints) {
    if (!nodes.has(k.bone)) throw new Error(`readGltfJoints: ${file}: no node for bone "${k.bone}".`);
  }
  const times = [...(anim.listSamplers()[0]?.getInput()?.getArray() ?? [])];
  const joints = times.map((t) => {
    apply(anim, t);
    return info.keypoints.map((k) => {
      const m = nodes.get(k.bone)!.getWorldMatrix();
      const l = k.end === 'tail' ? (lengths.get(k.bone) ?? 0) : 0;
      const x = m[12] + m[4] * l;
      const y = m[13] + m[5] * l;
      const z = m[14] + m[6] * l;
      return [x, -z, y] as [number, number, number];
    });
  });
  return { times, names: info.keypoints.map((k) => k.name), joints };
}
