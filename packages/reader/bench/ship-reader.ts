// Ships a trained reader: loads it (a finished run's folder, or its checkpoint/ when a run was
// stopped early, whose optimizer state is dropped), measures its error on the run's held-out split
// and saves it with that error and its training record to --to (model.json + weights.bin).
// Run from the repo root:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/ship-reader.ts \
//     --from DIR --to DIR --dataset DIR [--seed N] [--held-out 0.04] [--creature DIR]
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { resolveCreature } from '@mocap/layout';
import { initBackend, loadDataset, loadReader, saveReader } from '@mocap/reader';
import { evaluateReader } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { heldOutDir } from './held-out-split.js';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    dataset: { type: 'string' },
    creature: { type: 'string' },
    seed: { type: 'string', default: '0' },
    'held-out': { type: 'string', default: '0.04' },
  },
});
if (!values.from || !values.to || !values.dataset)
  throw new TypeError('ship-reader: Expected --from DIR, --to DIR and --dataset DIR.');
const layout = values.creature ? (await resolveCreature({ creature: values.creature })).layout : undefined;
await initBackend();
const { reader, model, extra } = await loadReader(values.from);
tf.dispose(Object.values(extra));
const split = await heldOutDir(values.dataset, Number(values.seed), Number(values['held-out']));
const ds = await loadDataset(split.dir, {
  ...(layout ? { layout } : {}),
  inputSize: reader.config.inputSize,
  heatmapSize: reader.heatmapSize,
});
await rm(split.dir, { recursive: true, force: true });
const heldOut = evaluateReader(reader, ds.items);
await saveReader(reader, values.to, {
  heldOut,
  training: { ...model.training, heldOutSamples: split.count, shippedFrom: values.from },
});
console.log(JSON.stringify({ to: values.to, params: reader.params.count(), heldOut }, null, 1));
reader.dispose();
