/**
 * The synthetic exam on real clips (issue 15): a creature's own animations as the truth
 * (`clipMotion`), T = 120 at 30 fps, 2 px noise + 5% outliers, seeds 1-3, with the creature's
 * limits and with limits widened to cover each clip (+10 degrees), at the default jerk weight and
 * the ones given; per row the error in cm, the worst joint and the frames where it is over 3 cm.
 *
 *   pnpm --filter @mocap/solver exec node --conditions=@mocap/source --import tsx bench/motion-exam.ts \
 *     [--creature ../../creatures/fox-rigged] [--clips Survey,Walk,Run] [--jerk 30000,3000]
 *     [--fit JSON]   (any other fit options, e.g. '{"lagRelease":null}')
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CreatureJson, Layout } from '@mocap/layout';
import { clipMotion, creatureInfo, readMotionClip, readRigModel } from '@mocap/solver';
import { creatureRigFile, DEFAULT_FIT_WEIGHTS, syntheticExam } from '@mocap/solver/internal';

const { values } = parseArgs({
  options: {
    creature: { type: 'string', default: '../../creatures/fox-rigged' },
    clips: { type: 'string', default: 'Survey,Walk,Run' },
    jerk: { type: 'string', default: String(DEFAULT_FIT_WEIGHTS.jerk) },
    seeds: { type: 'string', default: '1,2,3' },
    'jerk-lever': { type: 'string', default: String(DEFAULT_FIT_WEIGHTS.jerkLever) },
    limits: { type: 'string', default: 'creature,cover' },
    robust: { type: 'string', default: '0' },
    rounds: { type: 'string', default: '2' },
    fit: { type: 'string', default: '{}' },
  },
});
const extra = JSON.parse(values.fit) as Record<string, unknown>;
const dir = path.resolve(values.creature);
const creature = CreatureJson.parse(JSON.parse(readFileSync(path.join(dir, 'creature.json'), 'utf8')));
const layout = Layout.parse(creature.layout);
const DEG = Math.PI / 180;
const T = 120;

console.log('| clip | limits | jerk | seed | mean | p95 | max | worst joint (mean / max) | frames > 3 cm |');
console.log('| ---- | ------ | ---- | ---- | ---- | --- | --- | ------------------------ | ------------- |');
for (const name of values.clips.split(',')) {
  const clip = await readMotionClip(`${path.join(dir, 'model.glb')}#${name}`);
  for (const limits of values.limits.split(',')) {
    const model = await readRigModel('bench', creatureRigFile(dir));
    const info = creatureInfo(model, creature);
    let truth = clipMotion(model, info, clip, { frames: T }).motion;
    if (limits === 'cover') {
      const b = model.bones.length;
      for (let i = 1; i < b; i++) {
        for (let a = 0; a < 3; a++) {
          let lo = Number.POSITIVE_INFINITY;
          let hi = Number.NEGATIVE_INFINITY;
          for (let f = 0; f < T; f++) {
            const v = truth.euler[(f * b + i) * 3 + a] as number;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
          }
          model.limits[i * 6 + 2 * a] = Math.min(model.limits[i * 6 + 2 * a] as number, lo - 10 * DEG);
          model.limits[i * 6 + 2 * a + 1] = Math.max(
            model.limits[i * 6 + 2 * a + 1] as number,
            hi + 10 * DEG,
          );
        }
      }
      truth = clipMotion(model, info, clip, { frames: T }).motion;
    }
    for (const [jerk, jerkLever] of values.jerk
      .split(',')
      .flatMap((j) => values['jerk-lever'].split(',').map((l) => [Number(j), Number(l)] as const))) {
      for (const seed of values.seeds.split(',').map(Number)) {
        for (const robust of values.robust.split(',').map(Number)) {
          const r = syntheticExam(model, creature.name, layout, info, {
            frames: T,
            seed,
            noisePx: 2,
            outliers: 0.05,
            truth,
            fit: {
              weights: { jerk, jerkLever },
              robustJerk: robust,
              robustRounds: Number(values.rounds),
              ...extra,
            },
          });
          const e = r.report.error_cm;
          const [worst, ws] = Object.entries(r.report.per_joint).sort((x, y) => y[1].max - x[1].max)[0]!;
          const k = model.keypoints.length;
          const j = model.keypoints.findIndex((p) => p.name === worst);
          const over: number[] = [];
          for (let f = 0; f < T; f++) {
            const d = [0, 1, 2].map(
              (c) =>
                (r.fitted[(f * k + j) * 3 + c] as number) - (truth.joints[(f * k + j) * 3 + c] as number),
            );
            if (Math.hypot(...d) > 0.03) over.push(f);
          }
          console.log(
            `| ${name} | ${limits} | ${jerk}${jerkLever ? ` lever^${jerkLever}` : ''}${robust ? ` robust ${robust}` : ''} | ${seed} | ${e.mean.toFixed(3)} | ${e.p95.toFixed(3)} | ${e.max.toFixed(2)} | ${worst} (${ws.mean.toFixed(2)} / ${ws.max.toFixed(2)}) | ${over.length ? over.join(' ') : '-'} |`,
          );
        }
      }
    }
  }
}
