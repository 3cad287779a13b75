import type { RigModel } from './rig-model.js';

/**
 * Per-bone multipliers of the angle jerk prior: min(1, (lever / median lever)^power), where a
 * bone's lever is the rest distance from its head to the farthest keypoint it moves. The data
 * term pins an angle in proportion to lever^2, so power 2 eases the prior on short bones (a paw's
 * flick is not flattened more than a thigh's swing) and never raises it on long ones; power 0 is
 * one weight for all. Index 0 (the root) is unused.
 */
export function jerkScales(model: RigModel, power: number): Float64Array {
  const b = model.bones.length;
  const out = new Float64Array(b).fill(1);
  if (power === 0) return out;
  const lever = new Float64Array(b);
  const h = model.restHead;
  const r = model.restRot;
  model.keypoints.forEach((kp) => {
    // Blender bones run along their local Y: the tail is head + length * (column 1 of restRot).
    const l = kp.end === 'tail' ? (model.length[kp.bone] as number) : 0;
    const p = [0, 1, 2].map(
      (a) => (h[kp.bone * 3 + a] as number) + l * (r[kp.bone * 9 + 3 + a] as number),
    ) as [number, number, number];
    let i = kp.end === 'tail' ? kp.bone : (model.parent[kp.bone] as number);
    while (i > 0) {
      const d = Math.hypot(
        p[0] - (h[i * 3] as number),
        p[1] - (h[i * 3 + 1] as number),
        p[2] - (h[i * 3 + 2] as number),
      );
      lever[i] = Math.max(lever[i] as number, d);
      i = model.parent[i] as number;
    }
  });
  const moving = Array.from(lever.subarray(1))
    .filter((v) => v > 0)
    .sort((x, y) => x - y);
  if (moving.length === 0) return out;
  const median = moving[moving.length >> 1] as number;
  for (let i = 1; i < b; i++) {
    const v = lever[i] as number;
    // A bone that moves no keypoint keeps the plain weight (only the priors hold it).
    if (v > 0) out[i] = Math.min(1, (v / median) ** power);
  }
  return out;
}
