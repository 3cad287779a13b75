import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CreatureJson,
  creaturePaths,
  DatasetMeta,
  parseFileData,
  RigInfo,
  readJsonFile,
  resolveCreature,
  withOutputLock,
} from '@mocap/layout';
import { z } from 'zod';
import { checkReadable } from './check-file.js';
import { cleanTemps } from './clean-temps.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';

/**
 * How random dataset poses are drawn. `gait` (the default) draws one frame of a gait-like motion,
 * as the solver's synthetic exam motion does: per axis two slow sinusoids at random phases plus a
 * little noise, and on the leg flexion (X) axes a gait sinusoid whose phase is shared by the legs
 * (a walk's footfall order: legs are the bones whose feet lie in one creature.json `paint` group),
 * squashed smoothly into `spread` of each limit range. `uniform` draws each axis uniformly within
 * `spread` of its limits (many joints then hide in one view).
 */
export const DatasetPoseOptions = z
  .object({
    /** @default 'gait' */
    mode: z.enum(['gait', 'uniform']).default('gait'),
    /** Fraction of each bone's limit range used. @default 0.9 */
    spread: z.number().min(0).max(1).default(0.9),
    /** Root yaw range, +-degrees. @default 25 */
    yaw_deg: z.number().min(0).max(180).default(25),
    /** Root pitch and roll range, +-degrees. @default 4 */
    tilt_deg: z.number().min(0).max(90).default(4),
    /** Root x and y displacement range, +-metres. @default 0.05 */
    trans_m: z.number().min(0).default(0.05),
  })
  .strict();
export type DatasetPoseOptions = z.input<typeof DatasetPoseOptions>;

/** Options of {@link renderDataset}. */
export interface RenderDatasetOptions extends BlenderRunOptions {
  creature: string;
  /** Number of two-view samples. */
  count: number;
  /** Sample i's pose is drawn from (seed, i). @default 0 */
  seed?: number;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** Output folder. @default `<runs>/dataset` */
  out?: string | undefined;
  /** Workbench anti-aliasing (`OFF` is fastest). @default 'OFF' */
  aa?: string;
  pose?: DatasetPoseOptions;
  /**
   * RGBA images with a transparent background instead of the studio (no compositing: faster, and
   * a reader can lay them on any backdrop). @default false
   */
  transparent?: boolean;
  /** Blender processes rendering in parallel (sample i goes to process i mod n). @default 1 */
  processes?: number;
  /**
   * Render one shard of the dataset: the samples i with `i % shard.of == shard.index`, so runs of
   * shards 0..of-1 (on other machines, into one shared folder) together write exactly the samples
   * and bytes of one run. A shard locks only its own part (`<parent>/.<folder>.shard-<index>-of-<of>.lock`),
   * so shards into one folder run side by side. @default the whole dataset
   */
  shard?: { index: number; of: number } | undefined;
  /** How long to wait for another run holding the folder (or the shard) before refusing, ms. @default 0 */
  waitMs?: number | undefined;
}

const DatasetResult = z.object({
  rendered: z.number().int().min(0),
  skipped: z.number().int().min(0),
  startup_s: z.number().min(0),
  loop_s: z.number().min(0),
  first_sample_render_s: z.number().nullable(),
});

/** What {@link renderDataset} returns. */
export interface RenderDatasetResult {
  dir: string;
  /** Meta files of every sample 0..count-1 (of the shard's samples with `shard`), in order. */
  metas: string[];
  rendered: number;
  /** Samples already present (a resumed run). */
  skipped: number;
  /** Blender start-up plus file load, seconds. */
  startupSeconds: number;
  /** Time spent on the samples, seconds. */
  loopSeconds: number;
  /** Two-view samples per second after the first sample (null with fewer than two rendered). */
  samplesPerSecond: number | null;
}

/**
 * dataset: `count` seeded random poses within the rig's limits, rendered from both cameras in one
 * Blender process (or `processes` in parallel) -> `<i>_front.png`, `<i>_side.png`, `<i>_meta.json` (true joints in metres and
 * layout px, see DatasetMeta). Resumable: samples whose meta exists are skipped. The folder is
 * locked while it renders (lockOutput): a second run into it is refused, naming the first.
 *
 * ```ts
 * await renderDataset({ creature: 'creatures/wolf', count: 1000, seed: 1 });
 * ```
 */
export async function renderDataset(opts: RenderDatasetOptions): Promise<RenderDatasetResult> {
  if (!Number.isInteger(opts.count) || opts.count < 1) {
    throw new TypeError(`renderDataset: expected count to be a positive integer, got ${opts.count}.`);
  }
  const dir = opts.out ?? creaturePaths(opts.creature, opts.runs).dataset;
  const shard = opts.shard ?? { index: 0, of: 1 };
  if (
    !Number.isInteger(shard.of) ||
    shard.of < 1 ||
    !Number.isInteger(shard.index) ||
    shard.index < 0 ||
    shard.index >= shard.of
  ) {
    throw new TypeError(
      `renderDataset: expected shard to be { index, of } with 0 <= index < of, got ${JSON.stringify(opts.shard)}.`,
    );
  }
  const lockDir = opts.shard ? `${dir}.shard-${shard.index}-of-${shard.of}` : dir;
  return withOutputLock(lockDir, { operation: 'dataset', signal: opts.signal, waitMs: opts.waitMs }, () =>
    renderInto(opts, dir, shard),
  );
}

async function renderInto(
  opts: RenderDatasetOptions,
  dir: string,
  shard: { index: number; of: number },
): Promise<RenderDatasetResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const creature = await readJsonFile('dataset', paths.creatureJson, CreatureJson);
  const { layout } = await resolveCreature({ creature: opts.creature });
  const info = await readJsonFile('dataset', paths.rigInfo, RigInfo);
  await checkReadable('dataset', paths.riggedBlend, 'rigged creature (run `mocap rig` first)');
  const pose = DatasetPoseOptions.parse(opts.pose ?? {});
  await mkdir(dir, { recursive: true });
  const n = opts.processes ?? 1;
  if (!Number.isInteger(n) || n < 1) {
    throw new TypeError(`renderDataset: expected processes to be a positive integer, got ${n}.`);
  }
  const done = new Array<number>(n).fill(0);
  const totals = new Array<number>(n).fill(0);
  const runs = await Promise.allSettled(
    Array.from({ length: n }, (_, p) =>
      runBlenderScript(
        'render_dataset.py',
        {
          rigged: paths.riggedBlend,
          layout,
          info,
          out_dir: dir,
          count: opts.count,
          seed: opts.seed ?? 0,
          aa: opts.aa ?? 'OFF',
          feet: creature.feet,
          paint: creature.paint.map((g) => ({ name: g.name, bones: g.bones })),
          transparent: opts.transparent ?? false,
          // Process p of shard k renders i = k + s * (p + n * j): the shard's samples dealt over n processes.
          offset: shard.index + shard.of * p,
          stride: shard.of * n,
          ...pose,
        },
        DatasetResult,
        {
          ...opts,
          // Scales with the work unless given: 2 min of start-up plus 5 s a sample.
          timeoutMs: opts.timeoutMs ?? 120_000 + Math.ceil(opts.count / (n * shard.of)) * 5_000,
          onProgress: (ev) => {
            done[p] = ev.done;
            totals[p] = ev.total;
            const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
            const all = Math.ceil((opts.count - shard.index) / shard.of);
            opts.onProgress?.({ ...ev, done: sum(done), total: Math.max(sum(totals), all) });
          },
        },
      ),
    ),
  );
  await cleanTemps(dir);
  const failed = runs.find((x) => x.status === 'rejected');
  if (failed) throw failed.reason;
  const ok = runs.map((x) => (x as PromiseFulfilledResult<z.output<typeof DatasetResult>>).value);
  const r = {
    rendered: ok.reduce((a, x) => a + x.rendered, 0),
    skipped: ok.reduce((a, x) => a + x.skipped, 0),
    startup_s: Math.max(...ok.map((x) => x.startup_s)),
    loop_s: Math.max(...ok.map((x) => x.loop_s)),
  };
  const timed = ok.reduce((a, x) => a + Math.max(0, x.rendered - 1), 0);
  const after = Math.max(...ok.map((x) => x.loop_s - (x.first_sample_render_s ?? 0)));
  const metas: string[] = [];
  for (let i = shard.index; i < opts.count; i += shard.of) {
    const file = path.join(dir, `${String(i).padStart(5, '0')}_meta.json`);
    parseFileData('dataset', file, JSON.parse(await readFile(file, 'utf8')), DatasetMeta);
    metas.push(file);
  }
  return {
    dir,
    metas,
    rendered: r.rendered,
    skipped: r.skipped,
    startupSeconds: r.startup_s,
    loopSeconds: r.loop_s,
    samplesPerSecond: timed > 0 && after > 0 ? timed / after : null,
  };
}
