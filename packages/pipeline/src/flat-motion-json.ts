import { emptySyncReport, MotionJson } from '@mocap/layout';
import type { FlatMotion, RigModel } from '@mocap/solver';

/**
 * A {@link FlatMotion} as motion.json (the solver's conventions are motion.json's); the
 * reprojection and sync blocks are those of a perfect fit, since nothing was fitted.
 */
export function flatMotionJson(model: RigModel, m: FlatMotion): MotionJson {
  const b = model.bones.length;
  const k = model.keypoints.length;
  const rows = <T>(n: number, f: (t: number) => T) => Array.from({ length: n }, (_, t) => f(t));
  const v3 = (a: Float64Array, o: number): [number, number, number] => [
    a[o] as number,
    a[o + 1] as number,
    a[o + 2] as number,
  ];
  return MotionJson.parse({
    fps: m.fps,
    bones: model.bones,
    names: model.keypoints.map((p) => p.name),
    trans: rows(m.frames, (t) => v3(m.trans, 3 * t)),
    root_quat: rows(m.frames, (t) => Array.from(m.rootQuat.subarray(4 * t, 4 * t + 4))),
    euler: rows(m.frames, (t) => rows(b, (i) => v3(m.euler, 3 * (t * b + i)))),
    joints: rows(m.frames, (t) => rows(k, (j) => v3(m.joints, 3 * (t * k + j)))),
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: rows(m.frames, () => 0) },
    sync: emptySyncReport(),
  });
}
