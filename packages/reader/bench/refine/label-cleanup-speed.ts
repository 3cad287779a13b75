// Speed of the refinement's label clean-up on one two-view 1280 x 720 frame (a synthetic studio
// frame: a body and four painted legs in each view, segmented within its boxes grown by 60 px, the
// refinement's `marginPx`): the paint gate, the clean-up, the observation at level 2 and the next
// frame's silhouette boxes, reading the whole frame and reading only those boxes. With
// --baseline DIR (another checkout of the repo with its own `pnpm install`), that checkout's
// functions run on the same labels, interleaved in the same process, and the labels are compared.
// Run from packages/reader:
//   node --conditions=@mocap/source --import tsx bench/refine/label-cleanup-speed.ts [--rounds 300] [--baseline DIR]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LAYOUT as L } from '@mocap/layout';
import {
  cleanLabels,
  fitColourModel,
  gatePaint,
  type ObservedViews,
  observeLabels,
  type PixelRect,
  segmentImage,
  silhouetteBoxes,
} from '@mocap/reader/internal';
import { syntheticFrame } from '../../test/refine/synthetic-frame.js';

const { values: a } = parseArgs({
  options: { rounds: { type: 'string', default: '300' }, baseline: { type: 'string' } },
});
const truth = syntheticFrame(L, 6);
const model = fitColourModel([syntheticFrame(L, 1)], L, { seed: 3 });
const regions = silhouetteBoxes(truth.labels, L, 60) as PixelRect[];
const segmented = segmentImage(new Uint8Array(L.WIDTH * L.HEIGHT), model, truth.image, L, null, regions);
// every paint group's box open wide in both views: the gate reads every pixel and keeps the paint
const open = Float64Array.from({ length: 4 * 2 * 4 }, (_, i) => (i % 2 === 0 ? -1e9 : 1e9));

type Step = (labels: Uint8Array) => void;
/** The four steps with these functions, reading `rects` (null: the whole frame). */
function steps(f: typeof import('@mocap/reader/internal'), rects: PixelRect[] | null): [string, Step][] {
  let level: ObservedViews | undefined;
  return [
    ['gatePaint', (l) => f.gatePaint(l, L, open, rects)],
    ['cleanLabels', (l) => f.cleanLabels(l, L.WIDTH, L.HEIGHT, 40)],
    [
      'observeLabels (level 2)',
      (l) => {
        level = f.observeLabels(l, L, 4, 2, 150, level, rects);
      },
    ],
    ['silhouetteBoxes', (l) => void f.silhouetteBoxes(l, L, 60, rects)],
  ];
}

const current = {
  cleanLabels,
  gatePaint,
  observeLabels,
  silhouetteBoxes,
} as typeof import('@mocap/reader/internal');
const variants: [string, [string, Step][]][] = [
  ['whole frame', steps(current, null)],
  ['within the boxes', steps(current, regions)],
];
if (a.baseline) {
  // the baseline's own source files (its internal entry may not export them all)
  const src = (f: string) => import(path.resolve(a.baseline as string, 'packages/reader/src/refine', f));
  const base = {
    ...(await src('clean-labels.ts')),
    ...(await src('paint-gate.ts')),
    ...(await src('observed-views.ts')),
    ...(await src('silhouette-boxes.ts')),
  } as typeof import('@mocap/reader/internal');
  variants.unshift(['baseline, whole frame', steps(base, null)]);
}
const labels = variants.map(() => new Uint8Array(segmented.length));
const times = variants.map(([, s]) => s.map(() => [] as number[]));
const rounds = Number(a.rounds);
for (let r = -20; r < rounds; r++) {
  variants.forEach(([, s], v) => {
    labels[v]!.set(segmented);
    s.forEach(([, step], k) => {
      const t = performance.now();
      step(labels[v]!);
      if (r >= 0) times[v]![k]!.push(performance.now() - t);
    });
  });
}
const med = (x: number[]) => x.slice().sort((p, q) => p - q)[x.length >> 1] as number;
console.log(`${rounds} rounds, medians in ms per frame`);
console.log(['variant', ...steps(current, null).map(([n]) => n), 'sum of medians'].join(' | '));
variants.forEach(([name], v) => {
  const m = times[v]!.map(med);
  console.log([name, ...m.map((x) => x.toFixed(2)), m.reduce((p, q) => p + q, 0).toFixed(2)].join(' | '));
});
const same = labels.every((l) => l.every((x, i) => x === labels[0]![i]));
console.log(`labels after the clean-up: ${same ? 'the same in every variant' : 'DIFFERENT'}`);
