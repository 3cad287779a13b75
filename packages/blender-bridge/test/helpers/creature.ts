import { seededRandom } from '@mocap/anim-loop';
import { emptySyncReport, type MotionJson, type RigInfo } from '@mocap/layout';

/**
 * A seeded motion of `frames` frames on `info`: every bone swings within half its limits, the root
 * turns and moves a little. Fields the fit would fill are zero.
 */
export function randomMotion(info: RigInfo, frames: number, seed: number): MotionJson {
  const r = seededRandom(seed);
  const deg = Math.PI / 180;
  const amp = info.bones.map((b) => b.limits_deg.map(([lo, hi]) => [lo * 0.5, hi * 0.5]));
  const phase = info.bones.map(() => [r.next(), r.next(), r.next()].map((x) => x * 2 * Math.PI));
  const euler: [number, number, number][][] = [];
  const rootQuat: [number, number, number, number][] = [];
  const trans: [number, number, number][] = [];
  for (let t = 0; t < frames; t++) {
    euler.push(
      info.bones.map((b, i) => {
        if (b.name === info.root) return [0, 0, 0];
        return [0, 1, 2].map((a) => {
          const [lo, hi] = amp[i]![a]!;
          const s = 0.5 + 0.5 * Math.sin(phase[i]![a]! + t * 0.9);
          return (lo + (hi - lo) * s) * deg;
        }) as [number, number, number];
      }),
    );
    const yaw = 0.3 * Math.sin(t * 0.5);
    const pitch = 0.1 * Math.cos(t * 0.7);
    const h = Math.hypot(yaw, pitch);
    const s = Math.sin(h / 2) / (h || 1);
    rootQuat.push([Math.cos(h / 2), 0, pitch * s, yaw * s]);
    trans.push([0.05 * Math.sin(t), -0.1 * t * 0.2, 0.03 * Math.cos(t)]);
  }
  const names = info.keypoints.map((k) => k.name);
  return {
    fps: 24,
    bones: info.bones.map((b) => b.name),
    names,
    trans,
    root_quat: rootQuat,
    euler,
    joints: euler.map(() => names.map(() => [0, 0, 0] as [number, number, number])),
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: euler.map(() => 0) },
    sync: emptySyncReport(),
  };
}
