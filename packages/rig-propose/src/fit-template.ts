import type { RigJson } from '@mocap/layout';
import type { LegTrack } from './leg-tracks.js';
import { type MeshFeatures, profileAt } from './mesh-features.js';
import {
  crownOf,
  locateOnPath,
  type MedialPath,
  pointOnPath,
  sideMedialPath,
  throughCrown,
} from './side-medial-path.js';

/** A template: a rig and the features measured on the mesh it was placed in. */
export interface RigTemplate {
  rig: RigJson;
  features: MeshFeatures;
}

/** Where a proposed joint came from. */
export type JointSource = 'leg' | 'leg-root' | 'body' | 'chain';

/** The fitted joints with a confidence each (0..1) and where each came from. */
export interface FittedJoints {
  joints: Record<string, [number, number, number]>;
  confidence: Record<string, number>;
  source: Record<string, JointSource>;
}

type Vec3 = [number, number, number];

/** The leg's centre (x, y) at height z, linear between its levels (clamped to its ends). */
function trackAt(t: LegTrack, z: number): [number, number] {
  const n = t.z.length;
  if (z <= (t.z[0] as number)) return [t.x[0] as number, t.y[0] as number];
  if (z >= (t.z[n - 1] as number)) return [t.x[n - 1] as number, t.y[n - 1] as number];
  let k = 0;
  while ((t.z[k + 1] as number) < z) k++;
  const a = (z - (t.z[k] as number)) / ((t.z[k + 1] as number) - (t.z[k] as number));
  return [
    (t.x[k] as number) + a * ((t.x[k + 1] as number) - (t.x[k] as number)),
    (t.y[k] as number) + a * ((t.y[k + 1] as number) - (t.y[k] as number)),
  ];
}

/** Landmarks along the body: nose, front legs' top, hind legs' top, tail tip (y), and the legs' mean tops. */
function landmarks(f: MeshFeatures) {
  const legTop = (prefix: string) => f.legs.filter((l) => l.leg.startsWith(prefix));
  const yTop = (ls: LegTrack[]) => ls.reduce((a, l) => a + (l.y[l.y.length - 1] as number), 0) / ls.length;
  const top = (ls: LegTrack[]) => ls.reduce((a, l) => a + l.top, 0) / ls.length;
  const fr = legTop('front');
  const hi = legTop('hind');
  return { knots: [f.front[0], yTop(fr), yTop(hi), f.back[0]], topF: top(fr), topH: top(hi) };
}

/** Piecewise-linear map of y through matching knots (extrapolated past the ends). */
function mapY(y: number, from: number[], to: number[]): number {
  let s = 0;
  while (s < from.length - 2 && y > (from[s + 1] as number)) s++;
  const a = (y - (from[s] as number)) / ((from[s + 1] as number) - (from[s] as number));
  return (to[s] as number) + a * ((to[s + 1] as number) - (to[s] as number));
}

/**
 * The template's head and tail chains: from the mid-plane joint furthest front (back), bone by
 * bone towards the root until the bone whose parent branches (where the legs hang); the first
 * joint is the chain's anchor on the torso.
 */
function extremityChains(rig: RigJson, f: MeshFeatures): { end: 'front' | 'back'; joints: string[] }[] {
  const mids = Object.entries(rig.joints).filter(
    ([, p]) => Math.abs((p[0] as number) - f.centreX) <= 0.5 * f.halfTrack,
  );
  const children = new Map<string, number>();
  for (const b of rig.bones) if (b[3]) children.set(b[3], (children.get(b[3]) ?? 0) + 1);
  const out: { end: 'front' | 'back'; joints: string[] }[] = [];
  for (const end of ['front', 'back'] as const) {
    const sorted = [...mids].sort((a, b) => (a[1][1] as number) - (b[1][1] as number));
    const tip = (end === 'front' ? sorted[0] : sorted[sorted.length - 1])?.[0];
    if (!tip) continue;
    const joints = [tip];
    let bone = rig.bones.find((b) => b[2] === tip);
    while (bone) {
      joints.unshift(bone[1]);
      const parent = bone[3];
      if (!parent || (children.get(parent) ?? 0) > 1) break;
      bone = rig.bones.find((b) => b[0] === parent);
    }
    if (joints.length > 1) out.push({ end, joints });
  }
  return out;
}

/** Mid-plane joints beyond the chains' anchors that no chain holds (a jaw), each with the placed bone it hangs from. */
function attachedJoints(
  rig: RigJson,
  placed: Set<string>,
  knots: number[],
  f: MeshFeatures,
): [string, [string, string]][] {
  const out: [string, [string, string]][] = [];
  for (const [name, p] of Object.entries(rig.joints)) {
    if (placed.has(name) || Math.abs((p[0] as number) - f.centreX) > 0.5 * f.halfTrack) continue;
    if ((p[1] as number) >= (knots[1] as number) && (p[1] as number) <= (knots[2] as number)) continue;
    let bone = rig.bones.find((b) => b[1] === name || b[2] === name);
    while (bone && !(placed.has(bone[1]) && placed.has(bone[2]))) {
      const parent = bone[3];
      bone = parent ? rig.bones.find((b) => b[0] === parent) : undefined;
    }
    if (bone) out.push([name, [bone[1], bone[2]]]);
  }
  return out;
}

/** (y, z) of `p` carried from the bone h0-t0 to the bone h1-t1 in the y-z plane (along, across, scaled by length). */
function boneFrame(p: Vec3, h0: Vec3, t0: Vec3, h1: Vec3, t1: Vec3): [number, number] {
  const ay = t0[1] - h0[1];
  const az = t0[2] - h0[2];
  const l0 = Math.hypot(ay, az);
  const u = ((p[1] - h0[1]) * ay + (p[2] - h0[2]) * az) / (l0 * l0);
  const v = ((p[2] - h0[2]) * ay - (p[1] - h0[1]) * az) / (l0 * l0);
  const by = t1[1] - h1[1];
  const bz = t1[2] - h1[2];
  return [h1[1] + u * by - v * bz, h1[2] + u * bz + v * by];
}

/**
 * Places every template joint in the target mesh. Leg joints (off the mid-plane) follow their
 * leg's measured centre line, their heights scaled by where the leg meets the body; the roots
 * (shoulder, hip) sit above that point at the template's fraction of the way to the back. Joints
 * on the mid-plane keep their place along the body (nose, front legs, hind legs, tail tip as
 * knots) and their fraction of the body's height there (side profile). Neck, head and tail
 * joints keep their fraction of the side silhouette's medial path; each chain's end joint (nose,
 * tail tip) keeps its place from the end's extremity (a hanging brush's lowest corner, not the
 * path's smoothed end), and a toe its place from the front of its footprint. Left and right legs are
 * made mirror images; how far they disagreed lowers the confidence.
 *
 * ```ts
 * const fit = fitTemplate(template, meshFeatures(mesh));
 * ```
 */
export function fitTemplate(template: RigTemplate, target: MeshFeatures): FittedJoints {
  const tf = template.features;
  const lt = landmarks(tf);
  const lg = landmarks(target);
  const joints: Record<string, Vec3> = {};
  const confidence: Record<string, number> = {};
  const source: Record<string, JointSource> = {};
  for (const [name, p] of Object.entries(template.rig.joints)) {
    const [x, y, z] = p as Vec3;
    const dx = x - tf.centreX;
    if (Math.abs(dx) > 0.5 * tf.halfTrack) {
      const front = Math.abs(y - (lt.knots[1] as number)) < Math.abs(y - (lt.knots[2] as number));
      const leg = `${front ? 'front' : 'hind'}.${dx > 0 ? 'L' : 'R'}`;
      const tl = tf.legs.find((l) => l.leg === leg) as LegTrack;
      const gl = target.legs.find((l) => l.leg === leg) as LegTrack;
      const s = gl.top / tl.top;
      if (z <= tl.top) {
        const [tx, ty] = trackAt(tl, z);
        const zz = (z / tl.top) * gl.top;
        const [gx, gy] = trackAt(gl, zz);
        // A joint on the ground (a toe) keeps its place from the front of the footprint: feet differ in length more than legs.
        const onGround = z <= 2 * (tl.z[0] as number);
        joints[name] = [gx + (x - tx) * s, onGround ? gl.toeY + (y - tl.toeY) * s : gy + (y - ty) * s, zz];
        source[name] = 'leg';
      } else {
        const [tx, ty] = trackAt(tl, tl.top);
        const [gx, gy] = trackAt(gl, gl.top);
        const yy = gy + (y - ty) * s;
        const backT = profileAt(tf, 'top', y);
        const back = profileAt(target, 'top', yy);
        const zz = gl.top + ((z - tl.top) / (backT - tl.top)) * (back - gl.top);
        joints[name] = [gx + (x - tx) * s, yy, zz];
        source[name] = 'leg-root';
      }
    } else {
      const yy = mapY(y, lt.knots, lg.knots);
      const b0 = profileAt(tf, 'bottom', y);
      const t0 = profileAt(tf, 'top', y);
      const b1 = profileAt(target, 'bottom', yy);
      const t1 = profileAt(target, 'top', yy);
      const frac = (z - b0) / Math.max(t0 - b0, tf.grid.size);
      joints[name] = [target.centreX + dx * (target.halfTrack / tf.halfTrack), yy, b1 + frac * (t1 - b1)];
      source[name] = 'body';
    }
  }
  const placed = new Set<string>();
  for (const chain of extremityChains(template.rig, tf)) {
    const anchorT = template.rig.joints[chain.joints[0] as string] as Vec3;
    const anchorG = joints[chain.joints[0] as string] as Vec3;
    const mt = sideMedialPath(tf, anchorT[1], anchorT[2], chain.end);
    const mg = sideMedialPath(target, anchorG[1], anchorG[2], chain.end);
    const crownT = crownOf(mt);
    const crownG = crownOf(mg);
    const tipName = chain.joints[chain.joints.length - 1] as string;
    for (const name of chain.joints.slice(1)) {
      const p = template.rig.joints[name] as Vec3;
      let yy: number;
      let zz: number;
      if (name === tipName) {
        [yy, zz] = atTip(p, mt, mg);
      } else {
        const at = locateOnPath(mt, p[1], p[2]);
        [yy, zz] = pointOnPath(mg, throughCrown(at.frac, crownT, crownG), at.offset);
      }
      joints[name] = [target.centreX, yy, zz];
      source[name] = 'chain';
      placed.add(name);
    }
    for (const name of chain.joints) placed.add(name);
  }
  for (const [name, bone] of attachedJoints(template.rig, placed, lt.knots, tf)) {
    const p = template.rig.joints[name] as Vec3;
    const h0 = template.rig.joints[bone[0]] as Vec3;
    const t0 = template.rig.joints[bone[1]] as Vec3;
    const h1 = joints[bone[0]] as Vec3;
    const t1 = joints[bone[1]] as Vec3;
    joints[name] = [target.centreX, ...boneFrame(p, h0, t0, h1, t1)];
    source[name] = 'chain';
  }
  symmetrise(joints, confidence, target);
  for (const name of Object.keys(joints)) {
    confidence[name] = Math.min(confidence[name] ?? 1, inside(target, joints[name] as Vec3));
  }
  return { joints, confidence, source };
}

/**
 * The chain's end joint: where the template's sits from its end's extremity (along and across
 * the end's direction, in path lengths), carried to the target's extremity.
 */
function atTip(p: Vec3, mt: MedialPath, mg: MedialPath): [number, number] {
  const lt = mt.s[mt.s.length - 1] as number;
  const lg = mg.s[mg.s.length - 1] as number;
  const oy = p[1] - mt.tip[0];
  const oz = p[2] - mt.tip[1];
  const u = (oy * mt.dir[0] + oz * mt.dir[1]) / lt;
  const v = (oz * mt.dir[0] - oy * mt.dir[1]) / lt;
  return [mg.tip[0] + lg * (u * mg.dir[0] - v * mg.dir[1]), mg.tip[1] + lg * (u * mg.dir[1] + v * mg.dir[0])];
}

/** Mirrors each .L/.R pair to their mean; confidence falls with their disagreement. */
function symmetrise(joints: Record<string, Vec3>, conf: Record<string, number>, f: MeshFeatures): void {
  for (const name of Object.keys(joints)) {
    if (!name.endsWith('.L')) continue;
    const other = `${name.slice(0, -2)}.R`;
    const a = joints[name] as Vec3;
    const b = joints[other];
    if (!b) continue;
    const hx = (a[0] - f.centreX + (f.centreX - b[0])) / 2;
    const d = Math.hypot(a[0] - f.centreX - (f.centreX - b[0]), a[1] - b[1], a[2] - b[2]);
    const y = (a[1] + b[1]) / 2;
    const z = (a[2] + b[2]) / 2;
    joints[name] = [f.centreX + hx, y, z];
    joints[other] = [f.centreX - hx, y, z];
    // A disagreement of a tenth of the body's height halves the confidence.
    const c = Math.exp((-Math.LN2 * d) / (0.1 * f.height));
    conf[name] = c;
    conf[other] = c;
  }
}

/** 1 when the joint lies within the mesh's side profile span at its y, falling off outside it. */
function inside(f: MeshFeatures, p: Vec3): number {
  const t = profileAt(f, 'top', p[1]);
  const legTop = Math.max(...f.legs.map((l) => l.top));
  // Legs stand below the central slab's profile: only joints above the legs are checked.
  if (p[2] < legTop) return 1;
  const b = profileAt(f, 'bottom', p[1]);
  const out = Math.max(0, p[2] - t, b - p[2]);
  return Math.exp((-Math.LN2 * out) / (0.05 * f.height));
}
