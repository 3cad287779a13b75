import { existsSync } from 'node:fs';
import path from 'node:path';
import { creaturePaths, RigInfo, readJsonFile, resolveCreature } from '@mocap/layout';
import {
  initBackend,
  restJointMap,
  restJoints,
  type TrainEvent,
  type TrainOptions,
  trainReader,
} from '@mocap/reader';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

function num(name: string, v: string | undefined, int: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (int && !Number.isInteger(n))) {
    throw new UsageError(`--${name}: Expected ${int ? 'a whole number' : 'a number'} > 0, got "${v}".`);
  }
  return n;
}

/** A whole number in [min, max] (`--upsample`), or undefined when not given. */
function int(name: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name}: Expected a whole number in [${min}, ${max}], got "${v}".`);
  }
  return n;
}

/** `--widths 16,32,48`: the CNN's channels per stage (1 to 6 whole numbers > 0). */
function widths(v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const w = v.split(',').map((x) => Number(x.trim()));
  if (w.length < 1 || w.length > 6 || !w.every((x) => Number.isInteger(x) && x > 0)) {
    throw new UsageError(
      `--widths: Expected 1 to 6 comma-separated whole numbers > 0 (channels per stage, e.g. 16,32,48,64,96), got "${v}".`,
    );
  }
  return w;
}

function bar(done: number, total: number, width = 24): string {
  const k = Math.round((done / Math.max(total, 1)) * width);
  return `[${'#'.repeat(k)}${'.'.repeat(width - k)}]`;
}

/** Progress on stderr: a bar redrawn in place on a terminal, a line every 2% otherwise. */
function progress(stderr: NodeJS.WritableStream) {
  const tty = (stderr as { isTTY?: boolean }).isTTY === true;
  const t0 = Date.now();
  let lastLine = -1;
  return (e: TrainEvent) => {
    if (e.phase === 'load') {
      if (tty) stderr.write(`\rloading dataset ${bar(e.done, e.total)} ${e.done}/${e.total}`);
      if (e.done === e.total) stderr.write(`${tty ? '\n' : ''}loaded ${e.total} samples\n`);
    } else if (e.phase === 'resume') stderr.write(`resuming from the checkpoint at step ${e.step}\n`);
    else if (e.phase === 'init') {
      const r = e.report;
      stderr.write(
        `starting from ${r.from}: ${r.copied} parameters, ${r.matched.length} joints' heatmaps carried over` +
          (Object.keys(r.mapped).length
            ? `; ${Object.keys(r.mapped).length} from the source joint nearest at rest (${Object.entries(
                r.mapped,
              )
                .map(([j, s]) => `${j} <- ${s}`)
                .join(', ')})`
            : '') +
          (r.fresh.length ? `; new joints ${r.fresh.join(', ')}` : '') +
          '\n',
      );
    } else if (e.phase === 'train') {
      const eta = ((Date.now() - t0) / 1000 / e.step) * (e.steps - e.step);
      const line = `train ${bar(e.step, e.steps)} ${e.step}/${e.steps} loss ${e.loss.toExponential(3)} ${e.ms.toFixed(0)} ms/step eta ${eta.toFixed(0)} s`;
      const every = Math.max(1, Math.round(e.steps / 50));
      if (tty) stderr.write(`\r${line}${e.step === e.steps ? '\n' : ''}`);
      else if (e.step % every === 0 || e.step === e.steps) {
        if (e.step !== lastLine) stderr.write(`${line}\n`);
        lastLine = e.step;
      }
    } else if (e.phase === 'eval') {
      const f = (s: { mean: number; median: number; p95: number }) =>
        `mean ${s.mean.toFixed(1)} / median ${s.median.toFixed(1)} / p95 ${s.p95.toFixed(1)} px`;
      stderr.write(
        `held-out error (${e.heldOut.samples} samples, layout px): front ${f(e.heldOut.front)}; side ${f(e.heldOut.side)}; all ${f(e.heldOut.all)}\n`,
      );
    }
  };
}

/** The fine-tune's joint map from the two rigs' rest poses ({@link restJointMap}), each rig_info.json named when missing. */
async function restMap(target: string, source: string): Promise<Record<string, string>> {
  for (const [file, whose] of [
    [target, 'this creature'],
    [source, "the source reader's creature"],
  ] as const) {
    if (!existsSync(file)) {
      throw new UsageError(
        `--init-map rest: ${file} not found (the rest pose of ${whose}: \`mocap rig\` on it writes it${whose === 'this creature' ? '' : '; or pass --init-rig FILE'}), or pass --init-map name to match joints by name only.`,
      );
    }
  }
  const [t, s] = await Promise.all([
    readJsonFile('train', target, RigInfo),
    readJsonFile('train', source, RigInfo),
  ]);
  return restJointMap(restJoints(t), restJoints(s));
}

/** `mocap train`: trains the creature's heatmap reader on its rendered dataset. */
export const trainCommand: Command = {
  name: 'train',
  summary: "Train the creature's heatmap reader on its rendered dataset (resumable)",
  usage:
    'mocap train --creature DIR [--dataset DIR] [--out DIR] [--steps N] [--batch N] [--lr X] [--seed N] ' +
    '[--input-size N] [--backbone cnn|dinov2] [--weights FILE.safetensors]\n' +
    '                   [--widths C1,C2,...] [--skips] [--head-channels N] [--upsample N] [--peak-weight K] [--init DIR] [--init-map rest|name] [--init-rig FILE]\n                   [--fresh] [--json]\n' +
    '  --widths, --skips: the small CNN channels per stage and its U-Net skips (cnn only);\n' +
    '  --head-channels, --upsample: the heatmap head (2x stages); --peak-weight K: loss weight 1 + K x target;\n' +
    "  --init DIR: start from a trained reader (fine-tune; its architecture unless flags say otherwise, same-named joints' heatmaps kept);\n" +
    "  --init-map rest (default): a joint of another name starts from the source joint nearest it at rest (both rigs' rig_info.json:\n" +
    "    this creature's, and the source's from DIR/../runs/rigged/ or --init-rig FILE); name: joints of other names start flat",
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      dataset: { type: 'string' },
      out: { type: 'string' },
      steps: { type: 'string' },
      batch: { type: 'string' },
      lr: { type: 'string' },
      seed: { type: 'string' },
      'input-size': { type: 'string' },
      backbone: { type: 'string', default: 'cnn' },
      weights: { type: 'string' },
      widths: { type: 'string' },
      skips: { type: 'boolean', default: false },
      'head-channels': { type: 'string' },
      upsample: { type: 'string' },
      'peak-weight': { type: 'string' },
      init: { type: 'string' },
      'init-rig': { type: 'string' },
      'init-map': { type: 'string' },
      fresh: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const creature = await resolveCreature({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!creature.dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    if (values.backbone !== 'cnn' && values.backbone !== 'dinov2') {
      throw new UsageError(`--backbone: Expected cnn or dinov2, got "${values.backbone}".`);
    }
    if (values.weights && values.backbone !== 'dinov2')
      throw new UsageError('--weights needs --backbone dinov2.');
    const seed = values.seed === undefined ? undefined : Number(values.seed);
    if (seed !== undefined && !Number.isInteger(seed))
      throw new UsageError(`--seed: Expected an integer, got "${values.seed}".`);
    const inputSize = num('input-size', values['input-size'], true);
    const cnnWidths = widths(values.widths);
    if ((cnnWidths || values.skips) && values.backbone !== 'cnn')
      throw new UsageError('--widths and --skips need --backbone cnn.');
    const stride = 2 ** (cnnWidths ?? [16, 32, 48, 64]).length;
    if (values.backbone === 'cnn' && (inputSize ?? 256) % stride !== 0) {
      throw new UsageError(
        `--input-size: Expected a multiple of ${stride} (the CNN halves the size once per --widths stage), got ${inputSize ?? 256}.`,
      );
    }
    const headChannels = num('head-channels', values['head-channels'], true);
    const upsample = int('upsample', values.upsample, 0, 4);
    const peakWeight = values['peak-weight'] === undefined ? undefined : Number(values['peak-weight']);
    if (peakWeight !== undefined && !(Number.isFinite(peakWeight) && peakWeight >= 0))
      throw new UsageError(`--peak-weight: Expected a number >= 0, got "${values['peak-weight']}".`);
    const backbone =
      values.backbone === 'dinov2'
        ? {
            kind: 'dinov2' as const,
            ...(values.weights ? { weights: path.resolve(ctx.cwd, values.weights) } : {}),
          }
        : {
            kind: 'cnn' as const,
            ...(cnnWidths ? { widths: cnnWidths } : {}),
            ...(values.skips ? { skips: true } : {}),
          };
    const head = {
      ...(headChannels ? { channels: headChannels } : {}),
      ...(upsample !== undefined ? { upsample } : {}),
    };
    const architectureFlags =
      values.widths !== undefined ||
      values.skips ||
      values['head-channels'] !== undefined ||
      values.upsample !== undefined ||
      values['input-size'] !== undefined ||
      values.backbone !== 'cnn';
    if ((values['init-rig'] || values['init-map']) && !values.init)
      throw new UsageError('--init-rig and --init-map need --init DIR.');
    const mapBy = values['init-map'] ?? 'rest';
    if (mapBy !== 'rest' && mapBy !== 'name')
      throw new UsageError(`--init-map: Expected rest or name, got "${mapBy}".`);
    if (values['init-rig'] && mapBy !== 'rest') throw new UsageError('--init-rig needs --init-map rest.');
    const initMap =
      values.init && mapBy === 'rest'
        ? await restMap(
            creaturePaths(creature.dir).rigInfo,
            path.resolve(
              ctx.cwd,
              values['init-rig'] ?? creaturePaths(path.dirname(path.resolve(ctx.cwd, values.init))).rigInfo,
            ),
          )
        : undefined;
    const steps = num('steps', values.steps, true);
    const batchSize = num('batch', values.batch, true);
    const lr = num('lr', values.lr, false);
    const options: TrainOptions = {
      dataset: path.resolve(ctx.cwd, values.dataset ?? creaturePaths(creature.dir).dataset),
      out: path.resolve(ctx.cwd, values.out ?? creaturePaths(creature.dir).reader),
      layout: creature.layout,
      // With --init and no architecture flag the source reader's architecture is used.
      model:
        values.init && !architectureFlags
          ? {}
          : {
              backbone,
              ...(inputSize ? { inputSize } : values.backbone === 'dinov2' ? { inputSize: 448 } : {}),
              ...(Object.keys(head).length ? { head } : {}),
            },
      resume: !values.fresh,
      ...(values.init ? { init: path.resolve(ctx.cwd, values.init) } : {}),
      ...(initMap ? { initMap } : {}),
      ...(steps ? { steps } : {}),
      ...(batchSize ? { batchSize } : {}),
      ...(lr ? { lr } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(peakWeight !== undefined ? { peakWeight } : {}),
    };
    // Which backend trains, and why the faster ones did not load (a GPU box without tfjs-node-gpu).
    const b = await initBackend();
    const why = b.skipped.map((s) => `${s.choice}: ${s.reason}`).join('; ');
    ctx.stderr.write(`train: backend ${b.choice}${why ? ` (not loaded: ${why})` : ''}\n`);
    const result = await trainReader(options, progress(ctx.stderr), ctx.signal);
    ctx.stderr.write(
      `backend ${result.backend}; wrote ${path.join(result.out, 'model.json')} + weights.bin\n`,
    );
    if (values.json) {
      const { losses: _l, stepMs: _s, ...rest } = result;
      ctx.stdout.write(`${JSON.stringify(rest, null, 2)}\n`);
    } else ctx.stdout.write(`${result.out}\n`);
    return 0;
  },
};
