// Trains a reader with the library API (trainReader), logging progress lines to stdout (the shipped
// wolf reader was trained with it; `mocap train` now takes the same U-Net options). Resumable:
// run the same command again and it continues from <out>/checkpoint. SIGINT/SIGTERM checkpoint and stop.
// Run from the repo root:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/train-reader.ts \
//     --dataset DIR --out DIR [--steps N] [--batch N] [--lr X] [--seed N] [--input-size N] \
//     [--widths 16,32,48,64,96] [--skips] [--head-channels N] [--upsample N] [--peak-weight K] [--creature DIR]
import { parseArgs } from 'node:util';
import { resolveCreature } from '@mocap/layout';
import { type TrainEvent, trainReader } from '@mocap/reader';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    out: { type: 'string' },
    creature: { type: 'string' },
    steps: { type: 'string', default: '2000' },
    batch: { type: 'string', default: '8' },
    lr: { type: 'string', default: '1e-3' },
    seed: { type: 'string', default: '0' },
    'input-size': { type: 'string', default: '256' },
    widths: { type: 'string', default: '16,32,48,64' },
    skips: { type: 'boolean', default: false },
    'head-channels': { type: 'string', default: '48' },
    upsample: { type: 'string', default: '2' },
    'log-every': { type: 'string', default: '25' },
    'peak-weight': { type: 'string', default: '0' },
  },
});
if (!values.dataset || !values.out)
  throw new TypeError('train-reader: Expected --dataset DIR and --out DIR.');
const layout = values.creature ? (await resolveCreature({ creature: values.creature })).layout : undefined;
const controller = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => controller.abort(sig));
const logEvery = Number(values['log-every']);
const t0 = Date.now();
const stamp = () => new Date().toISOString().slice(11, 19);
let window: number[] = [];
const onEvent = (e: TrainEvent) => {
  if (e.phase === 'load' && (e.done % 500 === 0 || e.done === e.total))
    console.log(`${stamp()} loaded ${e.done}/${e.total}`);
  else if (e.phase === 'resume') console.log(`${stamp()} resuming at step ${e.step}`);
  else if (e.phase === 'checkpoint') console.log(`${stamp()} checkpoint at step ${e.step}`);
  else if (e.phase === 'train') {
    window.push(e.loss);
    if (e.step % logEvery === 0 || e.step === e.steps) {
      const mean = window.reduce((a, b) => a + b, 0) / window.length;
      console.log(
        `${stamp()} step ${e.step}/${e.steps} loss ${mean.toExponential(3)} lr ${e.lr.toExponential(2)} ${e.ms.toFixed(0)} ms/step, ${((Date.now() - t0) / 60000).toFixed(1)} min`,
      );
      window = [];
    }
  } else if (e.phase === 'eval') console.log(`${stamp()} held-out ${JSON.stringify(e.heldOut)}`);
};
const result = await trainReader(
  {
    dataset: values.dataset,
    out: values.out,
    ...(layout ? { layout } : {}),
    steps: Number(values.steps),
    batchSize: Number(values.batch),
    lr: Number(values.lr),
    seed: Number(values.seed),
    peakWeight: Number(values['peak-weight']),
    model: {
      inputSize: Number(values['input-size']),
      backbone: { kind: 'cnn', widths: values.widths.split(',').map(Number), skips: values.skips },
      head: { channels: Number(values['head-channels']), upsample: Number(values.upsample) },
    },
  },
  onEvent,
  controller.signal,
);
const sorted = [...result.stepMs].sort((a, b) => a - b);
console.log(
  `${stamp()} done: backend ${result.backend}, steps ${result.startStep}..${result.startStep + result.losses.length}, ` +
    `median step ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, ${result.trainSamples} train / ${result.heldOutSamples} held-out samples, ` +
    `${((Date.now() - t0) / 60000).toFixed(1)} min wall`,
);
