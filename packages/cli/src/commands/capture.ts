import path from 'node:path';
import { type CaptureEvent, captureClip, type RefineMode } from '@mocap/pipeline';
import { describeCalibration, describeCreatureZoom, describeNoise, describeViews } from '@mocap/reader';
import { describeFrameTiming } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderProgress, requireCreature } from './blender-progress.js';
import { countProgress } from './count-progress.js';
import { queueProgress } from './queue-progress.js';

function size(v: string | undefined): { width: number; height: number } | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)x(\d+)$/.exec(v);
  if (!m || Number(m[1]) < 2 || Number(m[2]) < 2) {
    throw new UsageError(`--showcase: Expected WIDTHxHEIGHT like 960x720, got "${v}".`);
  }
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** `--refine auto|on|off`: stage-2 refinement (auto: when the creature is rigged). */
export function parseRefine(v: string | undefined): RefineMode {
  if (v === undefined) return 'auto';
  if (v !== 'auto' && v !== 'on' && v !== 'off') {
    throw new UsageError(`--refine: Expected auto, on or off, got "${v}".`);
  }
  return v;
}

/**
 * `--creature-zoom follow|report|apply`: a zoom the studio does not show, followed by the
 * refinement's silhouette (the default), or the creature's size in the peaks reported or applied.
 */
export function parseCreatureZoom(v: string | undefined): 'follow' | 'report' | 'apply' {
  if (v === undefined) return 'follow';
  if (v !== 'follow' && v !== 'report' && v !== 'apply') {
    throw new UsageError(`--creature-zoom: Expected follow, report or apply, got "${v}".`);
  }
  return v;
}

/**
 * Progress on stderr: a line per stage, the clip's calibration and drift, detect's frames with
 * their rate and ETA ({@link countProgress}) and Blender's bar (with its own).
 */
export function captureProgress(stderr: NodeJS.WritableStream) {
  const bar = blenderProgress(stderr);
  const frames = countProgress(stderr);
  let last = '';
  let refining = false;
  return {
    onEvent(e: CaptureEvent) {
      if (e.stage !== last) {
        bar.end();
        frames.end();
        stderr.write(`${e.stage}...\n`);
        last = e.stage;
      }
      if (e.stage === 'detect') {
        const d = e.detect;
        if (d.phase === 'calib') {
          if (d.calibration) for (const line of describeCalibration(d.calibration)) stderr.write(`${line}\n`);
          return;
        }
        if (d.phase === 'views') {
          for (const line of describeViews(d.fade, d.lag)) stderr.write(`${line}\n`);
          return;
        }
        if (d.phase === 'noise') {
          frames.end();
          stderr.write(`${describeNoise(d.noise, d.frames)}\n`);
          return;
        }
        if (d.phase === 'zoom') {
          frames.end();
          for (const line of describeCreatureZoom(d.calibration)) stderr.write(`${line}\n`);
          return;
        }
        // Stage 1 runs ahead of the refinement in a worker: once refining, its counts are the clip's.
        refining ||= d.phase === 'refine';
        if (d.phase === 'frames' && refining) return;
        frames.update(refining ? 'detect + refine' : 'detect', d.done, d.total);
      } else if (e.stage === 'apply' && e.blender) bar.onProgress(e.blender);
    },
    end: () => {
      bar.end();
      frames.end();
    },
  };
}

/**
 * `mocap capture`: clip -> det.npz -> motion.json -> animation.glb/.bvh/.fbx + renders ->
 * showcase.mp4; `--no-renders` stops at the animation, `--json` prints the result with each
 * stage's seconds.
 */
export const captureCommand: Command = {
  name: 'capture',
  summary: 'Capture a two-view clip onto the rig: detect, solve, apply, showcase.mp4',
  usage:
    'mocap capture <clip> [<clip>... --queue URL] --creature DIR [--reader DIR] [--out DIR] [--calib auto|identity] [--creature-zoom follow|report|apply] [--refine auto|on|off] [--showcase WxH] [--height H] [--no-renders] [--no-bvh] [--no-fbx] [--json] [--queue URL]',
  async run(ctx) {
    const { values, positionals } = parseCommandArgs(
      ctx.argv,
      {
        creature: { type: 'string' },
        reader: { type: 'string' },
        out: { type: 'string' },
        showcase: { type: 'string' },
        height: { type: 'string' },
        calib: { type: 'string', default: 'auto' },
        'creature-zoom': { type: 'string' },
        refine: { type: 'string', default: 'auto' },
        json: { type: 'boolean', default: false },
        'no-renders': { type: 'boolean', default: false },
        'no-bvh': { type: 'boolean', default: false },
        'no-fbx': { type: 'boolean', default: false },
        queue: { type: 'string' },
      },
      true,
    );
    if (positionals.length === 0) throw new UsageError('give a clip.');
    if (positionals.length > 1 && !values.queue)
      throw new UsageError('give exactly one clip (several need --queue URL).');
    const refine = parseRefine(values.refine);
    const creature = requireCreature(values.creature, ctx);
    const height = values.height === undefined ? undefined : Number(values.height);
    if (height !== undefined && !(Number.isInteger(height) && height > 0 && height % 2 === 0)) {
      throw new UsageError(`--height: Expected an even whole number > 0, got "${values.height}".`);
    }
    const calib = values.calib;
    if (calib !== 'auto' && calib !== 'identity') {
      throw new UsageError(`--calib: Expected auto or identity, got "${calib}".`);
    }
    const creatureZoom = parseCreatureZoom(values['creature-zoom']);
    if (values.queue) {
      if (values.out && positionals.length > 1) {
        throw new UsageError(
          "--out names one clip's folder: with several clips, leave it out (each goes to runs/capture/<clip>).",
        );
      }
      const { captureOnQueue } = await import('@mocap/queue');
      const clips = positionals.map((c) => path.resolve(ctx.cwd, c));
      const results = await captureOnQueue({
        url: values.queue,
        clips,
        creature,
        out: values.out ? path.resolve(ctx.cwd, values.out) : undefined,
        reader: values.reader ? path.resolve(ctx.cwd, values.reader) : undefined,
        showcase: size(values.showcase),
        height,
        calib,
        creatureZoom,
        refine,
        renders: !values['no-renders'],
        bvh: !values['no-bvh'],
        fbx: !values['no-fbx'],
        signal: ctx.signal,
        onEvent: queueProgress(ctx.stderr),
      });
      if (values.json) ctx.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      else for (const r of results) ctx.stdout.write(`${r.dir}\n`);
      return 0;
    }
    const progress = captureProgress(ctx.stderr);
    try {
      const r = await captureClip(
        {
          clip: path.resolve(ctx.cwd, positionals[0] as string),
          creature,
          reader: values.reader ? path.resolve(ctx.cwd, values.reader) : undefined,
          out: values.out ? path.resolve(ctx.cwd, values.out) : undefined,
          showcase: size(values.showcase),
          height,
          calib,
          creatureZoom,
          refine,
          renders: !values['no-renders'],
          bvh: !values['no-bvh'],
          fbx: !values['no-fbx'],
          env: ctx.env,
          signal: ctx.signal,
        },
        progress.onEvent,
      );
      progress.end();
      if (values.json) {
        ctx.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        return 0;
      }
      const t = Object.entries(r.seconds)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ');
      ctx.stderr.write(
        `${r.frames} frames captured (reader on ${r.backend}${r.refined ? ' + refinement' : ''}, reprojection ${r.reprojPx.toFixed(2)} px; ${t})\n`,
      );
      if (r.frameTiming) ctx.stderr.write(`${describeFrameTiming(r.frameTiming)}\n`);
      for (const f of [r.det, r.motion, r.joints, r.glb, r.bvh, r.fbx, r.showcase]) {
        if (f) ctx.stdout.write(`${f}\n`);
      }
      return 0;
    } finally {
      progress.end();
    }
  },
};
