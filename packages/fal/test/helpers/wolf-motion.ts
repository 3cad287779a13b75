import { readFileSync } from 'node:fs';
import { seededRandom } from '@mocap/anim-loop';
import { emptySyncReport, type MotionJson, RigJson } from '@mocap/layout';
import { creatureDir } from '@mocap/test-utils';

/** The wolf's rig.json (creatures/wolf). */
const WOLF_RIG = RigJson.parse(JSON.parse(readFileSync(creatureDir('wolf', 'rig.json'), 'utf8')));

/**
 * A wolf motion.json for plumbing tests: seeded small bone angles, a drifting root, and the
 * rest joints shifted by the root (not a kinematically exact pose; tests that need one pose
 * it with the solver's forward kinematics).
 */
export function wolfMotion(seed: number, frames = 4, fps = 10): MotionJson {
  const r = seededRandom(seed);
  const bones = WOLF_RIG.bones.map((b) => b[0]);
  const names = Object.keys(WOLF_RIG.joints);
  const trans: [number, number, number][] = [];
  const euler: [number, number, number][][] = [];
  const joints: [number, number, number][][] = [];
  for (let t = 0; t < frames; t++) {
    const d: [number, number, number] = [0.01 * t * r.next(), -0.05 * t, 0.002 * r.next()];
    trans.push(d);
    euler.push(
      bones.map((_, i) =>
        i === 0 ? [0, 0, 0] : [0.3 * (r.next() - 0.5), 0.2 * (r.next() - 0.5), 0.2 * (r.next() - 0.5)],
      ),
    );
    joints.push(names.map((n) => WOLF_RIG.joints[n]!.map((v, k) => v + d[k]!) as [number, number, number]));
  }
  return {
    fps,
    bones,
    names,
    trans,
    root_quat: trans.map(() => [1, 0, 0, 0]),
    euler,
    joints,
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: trans.map(() => 0) },
    sync: emptySyncReport(),
  };
}
