import { seededRandom } from '@mocap/anim-loop';
import { type Detections, FileError, type Layout, MotionJson } from '@mocap/layout';
import { fit, scoreJoints, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { DEFAULT_FIT_WEIGHTS, syntheticExam } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

function detections(name: 'wolf' | 'dragon', frames: number, seed: number, noisePx = 0) {
  const c = loadCreature(name);
  const truth = syntheticMotion(c.model, c.info, { frames, seed });
  const names = c.model.keypoints.map((k) => k.name);
  const det = syntheticDetections(truth.joints, names, 30, c.layout, c.info, { noisePx, seed });
  return { ...c, truth, det, names };
}

describe('fit', () => {
  it('recovers the wolf from perfect detections (mean error <= 0.02 cm)', () => {
    const { model, layout, info } = loadCreature('wolf');
    const { report } = syntheticExam(model, 'wolf', layout, info, { frames: 40, seed: 1 });
    expect(report.error_cm.mean).toBeLessThanOrEqual(0.02);
  });

  it('recovers the dragon from perfect detections (mean error <= 0.02 cm)', () => {
    const { model, layout, info } = loadCreature('dragon');
    const { report } = syntheticExam(model, 'dragon', layout, info, { frames: 30, seed: 2 });
    expect(report.error_cm.mean).toBeLessThanOrEqual(0.02);
  });

  it('keeps every fitted angle within its limits and writes a valid motion.json', () => {
    const { model, layout, info, det } = detections('wolf', 30, 3, 4);
    const { motion } = fit(model, det, { layout, creature: info });
    expect(() => MotionJson.parse(motion)).not.toThrow();
    motion.euler.forEach((row) => {
      row.forEach((e, b) => {
        if (b === 0) return;
        for (let a = 0; a < 3; a++) {
          expect(e[a]).toBeGreaterThanOrEqual((model.limits[b * 6 + 2 * a] as number) - 1e-12);
          expect(e[a]).toBeLessThanOrEqual((model.limits[b * 6 + 2 * a + 1] as number) + 1e-12);
        }
      });
    });
    expect(motion.root_quat[0]).toHaveLength(4);
    expect(motion.sync.height_gap_px).toBeGreaterThan(0);
  });

  it("fits detections in another joint order (or a subset) as in the rig's own order", () => {
    const { model, layout, info, det } = detections('wolf', 20, 4, 2);
    const k = det.names.length;
    // Reversed, without the first joint.
    const order = [...Array(k).keys()].reverse().slice(0, k - 1);
    const pick = (a: Float32Array, w: number) =>
      Float32Array.from({ length: det.frames * order.length * w }, (_, i) => {
        const f = Math.floor(i / (order.length * w));
        const r = i % (order.length * w);
        return a[(f * k + (order[Math.floor(r / w)] as number)) * w + (r % w)] as number;
      });
    const permuted: Detections = {
      ...det,
      names: order.map((q) => det.names[q] as string),
      frontUv: pick(det.frontUv, 2),
      sideUv: pick(det.sideUv, 2),
      frontConf: pick(det.frontConf, 1),
      sideConf: pick(det.sideConf, 1),
    };
    const missing: Detections = {
      ...det,
      frontConf: det.frontConf.map((c, i) => (i % k === 0 ? 0 : c)),
      sideConf: det.sideConf.map((c, i) => (i % k === 0 ? 0 : c)),
    };
    const a = fit(model, permuted, { layout, creature: info }).joints;
    const b = fit(model, missing, { layout, creature: info }).joints;
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('undoes left/right swaps and reports them', () => {
    const { model, layout, info } = loadCreature('wolf');
    const { report } = syntheticExam(model, 'wolf', layout, info, {
      frames: 40,
      seed: 5,
      noisePx: 1,
      swaps: 0.2,
    });
    expect(report.error_cm.mean).toBeLessThan(0.35);
  });
});

describe('fit: the frame rate', () => {
  const { model, layout, info } = loadCreature('wolf');
  const names = model.keypoints.map((k) => k.name);
  const clip = (fps: number, seed: number) => {
    const truth = syntheticMotion(model, info, { frames: 4 * fps, seed, fps });
    const det = syntheticDetections(truth.joints, names, fps, layout, info, {
      noisePx: 2,
      outliers: 0.05,
      seed,
    });
    return { truth, det };
  };

  it('scales each temporal prior on an n-th difference by (fps / 30)^n', () => {
    const { det } = clip(15, 1);
    const r = 15 / 30;
    const w = DEFAULT_FIT_WEIGHTS;
    const byHand = fit(model, det, {
      layout,
      creature: info,
      weightsFps: null,
      weights: {
        jerk: w.jerk * r ** 3,
        velocity: w.velocity * r,
        jointAccel: w.jointAccel * r ** 2,
        rootJerk: w.rootJerk * r ** 3,
        rootTurnJerk: w.rootTurnJerk * r ** 3,
      },
    });
    expect(Array.from(fit(model, det, { layout, creature: info }).joints)).toEqual(Array.from(byHand.joints));
    // At the weights' own 30 fps nothing changes.
    const at30 = clip(30, 1).det;
    expect(Array.from(fit(model, at30, { layout, creature: info }).joints)).toEqual(
      Array.from(fit(model, at30, { layout, creature: info, weightsFps: null }).joints),
    );
  });

  it('follows a 12 fps clip that weights kept per frame flatten', () => {
    const { truth, det } = clip(12, 2);
    const score = (weightsFps?: null) =>
      scoreJoints(
        fit(model, det, { layout, creature: info, ...(weightsFps === null ? { weightsFps } : {}) }).joints,
        truth.joints,
        names,
        info.groups,
      ).error_cm;
    const [scaled, perFrame] = [score(), score(null)];
    expect(scaled.mean).toBeLessThan(0.7 * perFrame.mean);
    expect(scaled.p95).toBeLessThan(0.7 * perFrame.p95);
  });
});

describe('fit: bad input', () => {
  it('refuses fewer than 2 frames, naming the file and field', () => {
    const { model, layout, det } = detections('wolf', 2, 1);
    const one: Detections = {
      ...det,
      frames: 1,
      frontUv: det.frontUv.slice(0, det.names.length * 2),
      sideUv: det.sideUv.slice(0, det.names.length * 2),
      frontConf: det.frontConf.slice(0, det.names.length),
      sideConf: det.sideConf.slice(0, det.names.length),
    };
    expect(() => fit(model, one, { layout, file: 'det.npz' })).toThrow(FileError);
    expect(() => fit(model, one, { layout, file: 'det.npz' })).toThrow(
      /det\.npz: front_uv: needs at least 2 frames, got 1/,
    );
  });

  it('refuses detection names that are not joints of the rig', () => {
    const { model, layout, det } = detections('wolf', 4, 1);
    const names = det.names.slice();
    names[3] = 'tentacle';
    expect(() => fit(model, { ...det, names }, { layout, file: 'clip/det.npz' })).toThrow(
      /clip\/det\.npz: names\[3\]: "tentacle" is not a joint of the rig/,
    );
  });

  it('fits around NaN detections and a joint never seen, without a NaN in motion.json', () => {
    const { model, layout, info, det, names } = detections('wolf', 12, 2, 1);
    const k = names.length;
    const nose = names.indexOf('nose');
    for (let f = 0; f < det.frames; f++) {
      det.frontConf[f * k + nose] = 0;
      det.sideConf[f * k + nose] = 0;
      det.frontUv[2 * (f * k + nose)] = Number.NaN;
    }
    det.sideUv[2 * (5 * k + 3)] = Number.NaN; // NaN with confidence: treated as unseen
    const { motion } = fit(model, det, { layout, creature: info });
    const flat = JSON.stringify(motion);
    expect(flat).not.toMatch(/NaN|null,null/);
    for (const row of motion.joints)
      for (const p of row) for (const v of p) expect(Number.isFinite(v)).toBe(true);
  });
});

type Garbage = 'random' | 'zero-frame' | 'identical' | 'huge' | 'one-view';

/**
 * Detections an under-trained reader could write: peaks uniform over each view, random
 * confidences; 'zero-frame' also zeroes frame 0's confidences, 'identical' puts every joint on
 * one point, 'huge' scales the coordinates by 1e30, 'one-view' zeroes the side view.
 */
function garbage(names: string[], layout: Layout, frames: number, seed: number, kind: Garbage): Detections {
  const rng = seededRandom(seed, { seedMix: 'golden', normal: 'pair' });
  const k = names.length;
  const frontUv = new Float32Array(frames * k * 2);
  const sideUv = new Float32Array(frames * k * 2);
  const frontConf = new Float32Array(frames * k);
  const sideConf = new Float32Array(frames * k);
  for (let i = 0; i < frames * k; i++) {
    frontUv[2 * i] = rng.uniform(0, layout.W_FRONT);
    frontUv[2 * i + 1] = rng.uniform(0, layout.HEIGHT);
    sideUv[2 * i] = rng.uniform(layout.W_FRONT, layout.WIDTH);
    sideUv[2 * i + 1] = rng.uniform(0, layout.HEIGHT);
    frontConf[i] = rng.next();
    sideConf[i] = kind === 'one-view' ? 0 : rng.next();
    if (kind === 'zero-frame' && i < k) frontConf[i] = sideConf[i] = 0;
    if (kind === 'identical') {
      frontUv.set([200, 300], 2 * i);
      sideUv.set([800, 300], 2 * i);
    }
    if (kind === 'huge') {
      frontUv[2 * i] = (frontUv[2 * i] as number) * 1e30;
      sideUv[2 * i + 1] = -(sideUv[2 * i + 1] as number) * 1e30;
    }
  }
  return {
    names,
    fps: 30,
    frames,
    frontUv,
    sideUv,
    frontConf,
    sideConf,
    calib: Float64Array.from([1, 1, 0, 0]),
  };
}

/** Every number in a JSON value, with its path. */
function numbers(v: unknown, at = ''): [string, number][] {
  if (typeof v === 'number') return [[at, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => numbers(x, `${at}[${i}]`));
  if (v !== null && typeof v === 'object')
    return Object.entries(v).flatMap(([key, x]) => numbers(x, `${at}.${key}`));
  return [];
}

describe('fit: garbage detections (never a NaN in motion.json)', () => {
  const cases: [Garbage, number, number[]][] = [
    ['random', 3, [1, 2, 3, 4]],
    ['random', 2, [1, 2]],
    ['random', 120, [1, 2]],
    ['zero-frame', 3, [2]],
    ['identical', 3, [1]],
    ['identical', 30, [1]],
    ['huge', 3, [1]],
    ['huge', 30, [2]],
    ['one-view', 3, [1]],
    ['one-view', 30, [2]],
  ];
  for (const creature of ['wolf', 'dragon'] as const) {
    for (const [kind, frames, seeds] of cases) {
      it(`${creature}: ${kind} peaks, T = ${frames}, seeds ${seeds.join(', ')}: a valid motion.json, finite, angles within limits`, () => {
        const { model, layout, info } = loadCreature(creature);
        const names = model.keypoints.map((kp) => kp.name);
        for (const seed of seeds) {
          const { motion, joints } = fit(model, garbage(names, layout, frames, seed, kind), {
            layout,
            creature: info,
          });
          expect(() => MotionJson.parse(motion)).not.toThrow();
          const bad = numbers(motion).filter(([, x]) => !Number.isFinite(x));
          expect(bad).toEqual([]);
          expect(joints.every(Number.isFinite)).toBe(true);
          motion.euler.forEach((row) => {
            row.forEach((e, b) => {
              for (let a = 0; a < 3 && b > 0; a++) {
                expect(e[a]).toBeGreaterThanOrEqual((model.limits[b * 6 + 2 * a] as number) - 1e-12);
                expect(e[a]).toBeLessThanOrEqual((model.limits[b * 6 + 2 * a + 1] as number) + 1e-12);
              }
            });
          });
        }
      });
    }
  }
});
