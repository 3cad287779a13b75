// How a clip segment that does not start at frame 0 (a parallel detect's second segment) tracks
// into its first kept frame: refineClip on frames [start - warmup, T) with start-up variants,
// against the one-pass refinement of the whole clip (and the rendered truth when truth.json is
// there), per frame after `start`. Run from the repo root on a rendered wolf clip:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/segment-start.ts [--start 65] [--seed 7]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Layout, parseFileData, TruthJson } from '@mocap/layout';
import { decodeVideo, type RgbImage } from '@mocap/media';
import { detectClip, readSkinnedMesh, refineClip, rigKeypoints } from '@mocap/reader';
import {
  backdropSilhouette,
  fitColourModel,
  placeRestPose,
  type RefineClipOptions,
  vertexPaintLabels,
} from '@mocap/reader/internal';

const { values: a } = parseArgs({
  options: {
    seed: { type: 'string', default: '7' },
    start: { type: 'string', default: '65' },
    variants: { type: 'string', default: 'w10,w10-free,w20,w20-free' },
  },
});
const creature = 'creatures/wolf';
const clip = `${creature}/runs/exam/render-seed${a.seed}/clip.mp4`;
const cj = JSON.parse(readFileSync(path.join(creature, 'creature.json'), 'utf8'));
const info = JSON.parse(readFileSync(path.join(creature, 'runs/rigged/rig_info.json'), 'utf8'));
const length = new Map(info.bones.map((b: { name: string; length: number }) => [b.name, b.length]));
const specs = info.keypoints.map((k: { bone: string }) => ({ ...k, length: length.get(k.bone) ?? 0 }));
const paint = cj.paint.map((g: { name: string; bones: string[] }) => ({ name: g.name, bones: g.bones }));
const glb = path.join(creature, 'runs/rigged/rigged.glb');
const layout = Layout.parse(cj.layout ?? {});
const joints = specs.map((k: { name: string }) => k.name);
const d = await detectClip({
  clip,
  reader: path.join(creature, 'reader'),
  layout,
  calib: 'identity',
  joints,
});
const images: RgbImage[] = [];
for await (const f of decodeVideo(clip)) images.push(f);
const mesh = await readSkinnedMesh(glb);
const keypoints = rigKeypoints(mesh, specs, glb);
const K = joints.length;
// the clip's colour model, fitted once on frame 0 (as detectClip does for every segment)
const placed = placeRestPose(
  mesh,
  vertexPaintLabels(mesh, paint),
  layout,
  backdropSilhouette(images[0]!, layout),
);
const colour = fitColourModel([{ image: images[0]!, labels: placed.labels }], layout, { seed: 0 });
const T = images.length;
const start = Number(a.start);
const run = (from: number, o: RefineClipOptions) => {
  const p = d.detections;
  const cut = (x: Float32Array, per: number) => x.subarray(from * per);
  return refineClip(
    {
      mesh,
      paint,
      keypoints,
      layout,
      colour,
      frames: images.slice(from),
      peaks: {
        frontUv: cut(p.frontUv, 2 * K),
        sideUv: cut(p.sideUv, 2 * K),
        frontConf: cut(p.frontConf, K),
        sideConf: cut(p.sideConf, K),
      },
    },
    o,
  );
};
const truthFile = path.join(path.dirname(clip), 'truth.json');
const truth = parseFileData(
  'bench',
  truthFile,
  JSON.parse(readFileSync(truthFile, 'utf8')),
  TruthJson,
).joints;
/** Mean 3D error (cm) of refined keypoints (frames from `from`) against the truth over frames start..T-1. */
const cm = (joints: Float64Array, from: number) => {
  let s = 0;
  for (let t = start; t < T; t++)
    for (let k = 0; k < K; k++) {
      const i = 3 * ((t - from) * K + k);
      const p = truth[t]![k]!;
      s += Math.hypot(joints[i]! - p[0]!, joints[i + 1]! - p[1]!, joints[i + 2]! - p[2]!);
    }
  return (100 * s) / ((T - start) * K);
};
/** The worst keypoints (cm, frames start..T-1). */
const worst = (xyz: Float64Array, from: number) => {
  const e = new Float64Array(K);
  for (let t = start; t < T; t++)
    for (let k = 0; k < K; k++) {
      const i = 3 * ((t - from) * K + k);
      const p = truth[t]![k]!;
      e[k] += (100 * Math.hypot(xyz[i]! - p[0]!, xyz[i + 1]! - p[1]!, xyz[i + 2]! - p[2]!)) / (T - start);
    }
  return [...e.keys()]
    .sort((x, y) => e[y]! - e[x]!)
    .slice(0, 5)
    .map((k) => `${joints[k]}:${e[k]!.toFixed(1)}`)
    .join(' ');
};
const t0 = performance.now();
const ref = await run(0, {});
console.log(
  `one pass: ${T} frames, ${((performance.now() - t0) / 1000).toFixed(1)} s; refined keypoints vs truth over frames ${start}-${T - 1}: ${cm(ref.joints, 0).toFixed(2)} cm`,
);
const variants: Record<string, [number, RefineClipOptions]> = {
  w0: [0, {}],
  w5: [5, {}],
  w10: [10, {}],
  w20: [20, {}],
  'w10-free': [10, { firstPrior: false, firstGatePx: 120, firstIterations: [30] }],
  'w20-free': [20, { firstPrior: false, firstGatePx: 120, firstIterations: [30] }],
  'w10-it30': [10, { firstIterations: [30] }],
  'w10-gate': [10, { firstPrior: false, firstGatePx: 1000, firstGateFrames: 10, firstIterations: [30] }],
  'w20-gate': [20, { firstPrior: false, firstGatePx: 1000, firstGateFrames: 20, firstIterations: [30] }],
  'w10-gp': [10, { firstGatePx: 1000, firstGateFrames: 10, firstIterations: [30] }],
  'w20-gp': [20, { firstGatePx: 1000, firstGateFrames: 20, firstIterations: [30] }],
  'w10-gp3': [10, { firstGatePx: 1000, firstGateFrames: 3, firstIterations: [30] }],
  'w15-gp': [15, { firstGatePx: 1000, firstGateFrames: 15, firstIterations: [30] }],
  'w20-gp100': [20, { firstGatePx: 100, firstGateFrames: 20, firstIterations: [30] }],
  'w20-gp5': [20, { firstGatePx: 1000, firstGateFrames: 5, firstIterations: [30] }],
  'w10-gate5': [10, { firstPrior: false, firstGatePx: 1000, firstGateFrames: 5, firstIterations: [30] }],
};
for (const name of (a.variants as string).split(',')) {
  const [w, o] = variants[name]!;
  const from = start - w;
  const r = await run(from, o);
  // per kept frame: mean px (both views) from the one pass
  const per: number[] = [];
  for (let t = start; t < T; t++) {
    let s = 0;
    for (let k = 0; k < K; k++) {
      const i = (t - from) * K + k;
      const j = t * K + k;
      s += Math.hypot(r.frontUv[2 * i] - ref.frontUv[2 * j], r.frontUv[2 * i + 1] - ref.frontUv[2 * j + 1]);
      s += Math.hypot(r.sideUv[2 * i] - ref.sideUv[2 * j], r.sideUv[2 * i + 1] - ref.sideUv[2 * j + 1]);
    }
    per.push(s / (2 * K));
  }
  const mean = per.reduce((x, y) => x + y, 0) / per.length;
  console.log(
    `${name.padEnd(9)} from ${from}: ${cm(r.joints, from).toFixed(2)} cm vs truth; mean ${mean.toFixed(2)} px vs one pass over frames ${start}-${T - 1}; first frames ${per
      .slice(0, 8)
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )}; last 10 ${(per.slice(-10).reduce((x, y) => x + y, 0) / 10).toFixed(2)}; worst ${worst(r.joints, from)}`,
  );
}
