import { z } from 'zod';
import { type MotionCore, type PackedMotion, packMotion, unpackMotion } from './motion-pack.js';
import { parseOptions } from './parse-options.js';
import { quatConjugate, quatMultiply } from './quat.js';
import { quatAngle, quatExp, quatLog } from './quat-interp.js';

/** Options of {@link findLoop}. */
export const FindLoopOptions = z
  .object({
    /** Fewest frames in a loop (from its first frame to the one that repeats it). @default 8 */
    minFrames: z.number().int().min(2).default(8),
    /** Most frames in a loop. @default the whole motion */
    maxFrames: z.number().int().min(2).optional(),
    /** Frames each side of the ends compared too, so velocities match as well as poses. @default 1 */
    window: z.number().int().min(0).default(1),
    /** Weight of root height mismatch, radians per metre. @default 10 */
    heightWeight: z.number().min(0).default(10),
  })
  .strict();
/** Options of {@link findLoop} as given (defaults optional). */
export type FindLoopOptions = z.input<typeof FindLoopOptions>;

/** A loop window: frames `start` to `end`, where `end` repeats `start`. */
export interface LoopWindow {
  start: number;
  end: number;
  /** RMS pose distance between the ends (radians, root height included by its weight). */
  distance: number;
}

/** Squared pose distance between frames i and j: bone and root angles, root height. */
function poseDistance2(p: PackedMotion, i: number, j: number, heightWeight: number): number {
  const B = p.bones.length;
  let d = quatAngle(p.root.subarray(i * 4, i * 4 + 4), p.root.subarray(j * 4, j * 4 + 4)) ** 2;
  for (let b = 0; b < B; b++) {
    const a = quatAngle(
      p.rot.subarray((i * B + b) * 4, (i * B + b) * 4 + 4),
      p.rot.subarray((j * B + b) * 4, (j * B + b) * 4 + 4),
    );
    d += a * a;
  }
  const dz = (p.trans[i * 3 + 2]! - p.trans[j * 3 + 2]!) * heightWeight;
  return d + dz * dz;
}

/**
 * The best loop window of a motion: the frames `start < end` with `end - start` between
 * `minFrames` and `maxFrames` whose poses (bone and root rotations, root height; over
 * `window` frames each side) are nearest. Horizontal root travel is not compared (a loop
 * may walk). Throws a `RangeError` when the motion is shorter than `minFrames + 1` frames.
 *
 * ```ts
 * const { start, end } = findLoop(motion, { minFrames: 20 });
 * ```
 */
export function findLoop(motion: MotionCore, options: FindLoopOptions = {}): LoopWindow {
  const o = parseOptions('findLoop', FindLoopOptions, options);
  const p = packMotion('findLoop', motion);
  const T = p.frames;
  const maxFrames = Math.min(o.maxFrames ?? T - 1, T - 1);
  if (T - 1 < o.minFrames || maxFrames < o.minFrames) {
    throw new RangeError(
      `findLoop: motion has ${T} frames; a loop of at least ${o.minFrames} frames needs ${o.minFrames + 1}.`,
    );
  }
  const cache = new Map<number, number>();
  const d2 = (i: number, j: number) => {
    const key = i * T + j;
    let v = cache.get(key);
    if (v === undefined) {
      v = poseDistance2(p, i, j, o.heightWeight);
      cache.set(key, v);
    }
    return v;
  };
  let best: LoopWindow = { start: 0, end: o.minFrames, distance: Number.POSITIVE_INFINITY };
  for (let s = 0; s + o.minFrames < T; s++) {
    for (let e = s + o.minFrames; e < T && e - s <= maxFrames; e++) {
      let sum = 0,
        n = 0;
      for (let k = -o.window; k <= o.window; k++) {
        if (s + k < 0 || e + k >= T) continue;
        sum += d2(s + k, e + k);
        n++;
      }
      const dist = Math.sqrt(sum / n);
      if (dist < best.distance - 1e-12) best = { start: s, end: e, distance: dist };
    }
  }
  return best;
}

/** Options of {@link makeSeamless}. */
export const SeamlessOptions = z
  .object({
    /** Frames at the end of the loop over which the seam is cross-faded. @default the whole loop */
    blendFrames: z.number().int().min(1).optional(),
  })
  .strict();
/** Options of {@link makeSeamless} as given. */
export type SeamlessOptions = z.input<typeof SeamlessOptions>;

/** A seamless loop and how well its seam closes. */
export interface SeamlessLoop {
  /** The loop's `end - start` frames; playing it cyclically, frame 0 follows the last. */
  motion: MotionCore;
  start: number;
  end: number;
  /** Largest rotation (bones and root) between the cross-faded end frame and frame 0, radians. */
  residual: number;
  /** Root displacement between the cross-faded end frame and frame 0, metres. */
  residualM: number;
  /** The root travel over one loop that was removed (end minus start), metres; add
   * `k / frames * travel` back to frame k for root motion. */
  travel: [number, number, number];
}

const delta = new Float64Array(4);
const logd = new Float64Array(3);
const step = new Float64Array(4);
const tmp = new Float64Array(4);

/**
 * Makes frames `start..end` of a motion loop seamlessly: every bone's and the root's rotation
 * mismatch between the ends is cross-faded on the rotation manifold (`exp(w log delta)` applied
 * with a weight rising linearly to 1 over the last `blendFrames`), and the root's drift (end
 * minus start) is removed linearly, so the loop closes on itself. Returns the loop (without the
 * repeated end frame) and the seam's residual.
 *
 * ```ts
 * const loop = makeSeamless(motion, findLoop(motion, { minFrames: 20 }));
 * ```
 */
export function makeSeamless(
  motion: MotionCore,
  window: Pick<LoopWindow, 'start' | 'end'>,
  options: SeamlessOptions = {},
): SeamlessLoop {
  const o = parseOptions('makeSeamless', SeamlessOptions, options);
  const p = packMotion('makeSeamless', motion);
  const { start, end } = window;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end >= p.frames || end - start < 2) {
    throw new RangeError(
      `makeSeamless: window [${start}, ${end}] must be whole frames with 0 <= start, start + 2 <= end < ${p.frames}.`,
    );
  }
  const B = p.bones.length;
  const L = end - start;
  const blend = Math.min(o.blendFrames ?? L, L);
  const weight = (k: number) => Math.max(0, (k - (L - blend)) / blend);
  const out: PackedMotion = {
    fps: p.fps,
    bones: [...p.bones],
    frames: L,
    trans: new Float64Array(L * 3),
    root: new Float64Array(L * 4),
    rot: new Float64Array(L * B * 4),
    euler: p.euler.slice(start * B * 3, end * B * 3),
  };
  let residual = 0;
  // Cross-fade one rotation track (stride numbers apart) into `dst`.
  const fade = (src: Float64Array, dst: Float64Array, stride: number) => {
    const q0 = src.subarray(start * stride, start * stride + 4);
    const q1 = src.subarray(end * stride, end * stride + 4);
    quatMultiply(delta, q0, quatConjugate(tmp, q1)); // delta * q(end) = q(start)
    quatLog(logd, delta);
    for (let k = 0; k <= L; k++) {
      const w = weight(k);
      quatExp(step, [logd[0]! * w, logd[1]! * w, logd[2]! * w]);
      const q = src.subarray((start + k) * stride, (start + k) * stride + 4);
      if (k === L) {
        quatMultiply(tmp, step, q);
        residual = Math.max(residual, quatAngle(tmp, dst.subarray(0, 4)));
      } else {
        quatMultiply(dst.subarray(k * stride, k * stride + 4), step, q);
      }
    }
  };
  fade(p.root, out.root, 4);
  for (let b = 0; b < B; b++) fade(p.rot.subarray(b * 4), out.rot.subarray(b * 4), B * 4);
  const travel: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) travel[c] = p.trans[end * 3 + c]! - p.trans[start * 3 + c]!;
  let residualM = 0;
  for (let k = 0; k <= L; k++) {
    let d2 = 0;
    for (let c = 0; c < 3; c++) {
      const v = p.trans[(start + k) * 3 + c]! - (k / L) * travel[c]!;
      if (k < L) out.trans[k * 3 + c] = v;
      else d2 += (v - out.trans[c]!) ** 2;
    }
    if (k === L) residualM = Math.sqrt(d2);
  }
  return { motion: unpackMotion(out, out.euler), start, end, residual, residualM, travel };
}
