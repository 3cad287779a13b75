// Held-out error of a saved reader on its training run's held-out split (the same seeded split as
// trainReader), in layout px: per view, visible joints, gross-error rates, per joint, and how well
// the peak confidence flags the gross errors. Prints JSON.
// Run from the repo root:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/eval-reader.ts \
//     --reader DIR --dataset DIR [--seed N] [--held-out 0.04] [--creature DIR] [--gross 50]
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { resolveCreature } from '@mocap/layout';
import { initBackend, loadDataset, loadReader } from '@mocap/reader';
import { errorStats, predictItems } from '@mocap/reader/internal';
import { heldOutDir } from './held-out-split.js';

const { values } = parseArgs({
  options: {
    reader: { type: 'string' },
    dataset: { type: 'string' },
    creature: { type: 'string' },
    seed: { type: 'string', default: '0' },
    'held-out': { type: 'string', default: '0.04' },
    gross: { type: 'string', default: '50' },
  },
});
if (!values.reader || !values.dataset)
  throw new TypeError('eval-reader: Expected --reader DIR and --dataset DIR.');
const layout = values.creature ? (await resolveCreature({ creature: values.creature })).layout : undefined;
const { choice } = await initBackend();
const probe = await loadReader(values.reader);
const { reader } = probe;
// Only the samples trainReader held out are loaded.
const split = await heldOutDir(values.dataset, Number(values.seed), Number(values['held-out']));
const tmp = split.dir;
const nHeld = split.count;
const ds = await loadDataset(tmp, {
  ...(layout ? { layout } : {}),
  inputSize: reader.config.inputSize,
  heatmapSize: reader.heatmapSize,
});
await rm(tmp, { recursive: true, force: true });
const items = ds.items;
const t0 = performance.now();
const preds = predictItems(reader, items);
const msPerView = (performance.now() - t0) / items.length;
const gross = Number(values.gross);
const rows: { err: number; conf: number; margin: number; view: string; joint: number; visible: boolean }[] =
  [];
items.forEach((item, i) => {
  const p = preds[i]!;
  for (let j = 0; j < item.uv.length / 2; j++) {
    const err = Math.hypot(p.uv[2 * j]! - item.uv[2 * j]!, p.uv[2 * j + 1]! - item.uv[2 * j + 1]!);
    rows.push({
      err,
      conf: p.conf[j]!,
      margin: p.margin[j]!,
      view: item.view,
      joint: j,
      visible: item.visible[j]!,
    });
  }
});
const stats = (f: (r: (typeof rows)[number]) => boolean) => errorStats(rows.filter(f).map((r) => r.err));
const rate = (f: (r: (typeof rows)[number]) => boolean, t: number) => {
  const s = rows.filter(f);
  return s.filter((r) => r.err > t).length / Math.max(1, s.length);
};
// Confidence: errors by confidence quartile, and the gross errors left when the lowest-confidence
// fraction of peaks is dropped.
const byConf = [...rows].sort((a, b) => a.conf - b.conf);
const q = (k: number) =>
  byConf.slice(Math.floor((k * byConf.length) / 4), Math.floor(((k + 1) * byConf.length) / 4));
const quartiles = [0, 1, 2, 3].map((k) => {
  const s = q(k);
  return {
    conf: [s[0]!.conf, s[s.length - 1]!.conf],
    ...errorStats(s.map((r) => r.err)),
    gross: s.filter((r) => r.err > gross).length / s.length,
  };
});
const good = rows.filter((r) => r.err <= gross);
const bad = rows.filter((r) => r.err > gross);
/** Probability that a good peak scores above a gross error (area under the ROC curve). */
const auc = (score: (r: (typeof rows)[number]) => number) => {
  let concordant = 0;
  let pairs = 0;
  for (const b of bad)
    for (const g of good) {
      pairs++;
      if (score(g) > score(b)) concordant++;
      else if (score(g) === score(b)) concordant += 0.5;
    }
  return pairs > 0 ? concordant / pairs : null;
};
const perJoint = ds.names.map((name, j) => ({ name, ...stats((r) => r.joint === j) }));
console.log(
  JSON.stringify(
    {
      backend: choice,
      reader: values.reader,
      config: reader.config,
      heldOutSamples: nHeld,
      msPerView,
      front: stats((r) => r.view === 'front'),
      side: stats((r) => r.view === 'side'),
      all: stats(() => true),
      visible: stats((r) => r.visible),
      visibleFront: stats((r) => r.visible && r.view === 'front'),
      visibleSide: stats((r) => r.visible && r.view === 'side'),
      grossPx: gross,
      grossRate: { all: rate(() => true, gross), visible: rate((r) => r.visible, gross) },
      over25: rate(() => true, 25),
      over100: rate(() => true, 100),
      confAuc: auc((r) => r.conf),
      marginAuc: auc((r) => r.margin),
      confQuartiles: quartiles,
      perJoint,
    },
    null,
    1,
  ),
);
reader.dispose();
