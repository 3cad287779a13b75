import type { Document, Node } from '@gltf-transform/core';
import type { JointPose } from './joint-pose.js';

/** One animation channel on a skin joint. */
export interface SkinChannel {
  joint: number;
  path: 'translation' | 'rotation' | 'scale';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Key times, seconds. */
  times: Float32Array;
  /** Key values (3 or 4 per key; CUBICSPLINE stores in-tangent, value, out-tangent per key). */
  values: Float32Array;
}

/** A glTF animation restricted to the channels that move a skin's joints. */
export interface SkinAnimation {
  name: string;
  /** Last key time, seconds. */
  duration: number;
  channels: SkinChannel[];
}

/** Reads every animation of `doc` that targets a joint in `jointIndex`. */
export function readSkinAnimations(doc: Document, jointIndex: Map<Node, number>): SkinAnimation[] {
  const out: SkinAnimation[] = [];
  for (const anim of doc.getRoot().listAnimations()) {
    const channels: SkinChannel[] = [];
    let duration = 0;
    for (const ch of anim.listChannels()) {
      const target = ch.getTargetNode();
      const joint = target ? jointIndex.get(target) : undefined;
      const path = ch.getTargetPath();
      const sampler = ch.getSampler();
      if (
        joint === undefined ||
        !sampler ||
        (path !== 'translation' && path !== 'rotation' && path !== 'scale')
      )
        continue;
      const input = sampler.getInput();
      const output = sampler.getOutput();
      if (!input || !output) continue;
      const times = Float32Array.from(input.getArray() ?? []);
      const values = new Float32Array(output.getCount() * output.getElementSize());
      const el: number[] = [];
      for (let i = 0; i < output.getCount(); i++)
        values.set(output.getElement(i, el), i * output.getElementSize());
      duration = Math.max(duration, times[times.length - 1] ?? 0);
      channels.push({ joint, path, interpolation: sampler.getInterpolation(), times, values });
    }
    if (channels.length) out.push({ name: anim.getName(), duration, channels });
  }
  return out;
}

/**
 * Samples an animation at `time` seconds into `out` (a pose already holding the rest
 * transforms for joints the animation leaves alone), as glTF defines it: LINEAR (slerp for
 * rotations), STEP or CUBICSPLINE, clamped to the first and last keys. Returns `out`.
 *
 * ```ts
 * const pose = restJointPose(mesh);
 * sampleSkinAnimation(pose, mesh.animations[0], 0.25);
 * ```
 */
export function sampleSkinAnimation(out: JointPose, anim: SkinAnimation, time: number): JointPose {
  for (const ch of anim.channels) {
    const size = ch.path === 'rotation' ? 4 : 3;
    const dst =
      ch.path === 'rotation' ? out.rotation : ch.path === 'translation' ? out.translation : out.scale;
    const o = ch.joint * size;
    const t = ch.times;
    const last = t.length - 1;
    let k = 0;
    while (k < last && t[k + 1] <= time) k++;
    const cubic = ch.interpolation === 'CUBICSPLINE';
    const stride = cubic ? 3 * size : size;
    const vo = cubic ? size : 0;
    if (time <= t[0] || k >= last || ch.interpolation === 'STEP') {
      for (let c = 0; c < size; c++) dst[o + c] = ch.values[k * stride + vo + c];
      continue;
    }
    const dt = t[k + 1] - t[k];
    const u = (time - t[k]) / dt;
    if (cubic) {
      const u2 = u * u;
      const u3 = u2 * u;
      const h00 = 2 * u3 - 3 * u2 + 1;
      const h10 = u3 - 2 * u2 + u;
      const h01 = -2 * u3 + 3 * u2;
      const h11 = u3 - u2;
      const a = k * stride;
      const b = (k + 1) * stride;
      for (let c = 0; c < size; c++) {
        dst[o + c] =
          h00 * ch.values[a + size + c] +
          h10 * dt * ch.values[a + 2 * size + c] +
          h01 * ch.values[b + size + c] +
          h11 * dt * ch.values[b + c];
      }
    } else if (size === 4) {
      slerpInto(dst, o, ch.values, k * 4, (k + 1) * 4, u);
    } else {
      for (let c = 0; c < 3; c++)
        dst[o + c] = ch.values[k * 3 + c] * (1 - u) + ch.values[(k + 1) * 3 + c] * u;
    }
    if (size === 4) normalizeQuat(dst, o);
  }
  return out;
}

function slerpInto(out: Float64Array, o: number, v: Float32Array, a: number, b: number, u: number): void {
  let d = v[a] * v[b] + v[a + 1] * v[b + 1] + v[a + 2] * v[b + 2] + v[a + 3] * v[b + 3];
  const sign = d < 0 ? -1 : 1;
  d *= sign;
  let wa = 1 - u;
  let wb = u;
  if (d < 0.9995) {
    const th = Math.acos(d);
    const s = Math.sin(th);
    wa = Math.sin((1 - u) * th) / s;
    wb = Math.sin(u * th) / s;
  }
  for (let c = 0; c < 4; c++) out[o + c] = wa * v[a + c] + sign * wb * v[b + c];
}

function normalizeQuat(q: Float64Array, o: number): void {
  const n = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]) || 1;
  for (let c = 0; c < 4; c++) q[o + c] /= n;
}
