import { existsSync } from 'node:fs';
import path from 'node:path';
import { creaturePaths, RigInfo, readJsonFile, resolveCreature } from '@mocap/layout';
import { defaultReader, refineSetup } from '@mocap/pipeline';
import {
  calibrationSummary,
  type DetectEvent,
  describeCalibration,
  describeCreatureZoom,
  describeNoise,
  describeViews,
  detectClip,
  viewsSummary,
} from '@mocap/reader';
import { solveContext } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { parseCreatureZoom, parseRefine } from './capture.js';
import { countProgress } from './count-progress.js';

function parseCalib(v: string): 'auto' | 'identity' | [number, number, number, number] {
  if (v === 'auto' || v === 'identity') return v;
  const n = v.split(',').map(Number);
  if (n.length !== 4 || !n.every(Number.isFinite)) {
    throw new UsageError(`--calib: Expected auto, identity or sx,sy,tx,ty, got "${v}".`);
  }
  return n as [number, number, number, number];
}

/**
 * `mocap detect`: a two-view clip -> det.npz with the creature's trained reader (heatmap stage),
 * refined with the creature's skinned mesh and paint when it is rigged (`--refine auto`, the
 * default; the heatmap peaks then go to `det_heatmaps.npz`).
 */
export const detectCommand: Command = {
  name: 'detect',
  summary: 'Read a two-view clip to joints in both views (det.npz) with the trained reader',
  usage:
    'mocap detect <clip> --creature DIR [--reader DIR] [--ref ref.png] [--out det.npz] ' +
    '[--calib auto|identity|sx,sy,tx,ty] [--refine auto|on|off] [--creature-zoom follow|report|apply] [--max-frames N] [--json]',
  async run(ctx) {
    const { values, positionals } = parseCommandArgs(
      ctx.argv,
      {
        creature: { type: 'string' },
        reader: { type: 'string' },
        ref: { type: 'string' },
        out: { type: 'string' },
        calib: { type: 'string', default: 'auto' },
        'max-frames': { type: 'string' },
        refine: { type: 'string', default: 'auto' },
        'creature-zoom': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one clip.');
    const creature = await resolveCreature({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!creature.dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    const clip = path.resolve(ctx.cwd, positionals[0]!);
    const calib = parseCalib(values.calib);
    const refineMode = parseRefine(values.refine);
    const creatureZoom = parseCreatureZoom(values['creature-zoom']);
    const maxFrames = values['max-frames'] === undefined ? undefined : Number(values['max-frames']);
    if (maxFrames !== undefined && !(Number.isInteger(maxFrames) && maxFrames > 0)) {
      throw new UsageError(`--max-frames: Expected a whole number > 0, got "${values['max-frames']}".`);
    }
    const { rigInfo, refPng } = creaturePaths(creature.dir);
    const joints = existsSync(rigInfo)
      ? (await readJsonFile('detect', rigInfo, RigInfo)).keypoints.map((k) => k.name)
      : undefined;
    const refine =
      refineMode === 'off' || (refineMode === 'auto' && !joints)
        ? undefined
        : await refineSetup('detect', await solveContext('detect', creature.dir), creature.dir, refineMode, {
            env: ctx.env,
            signal: ctx.signal,
          });
    const out = path.resolve(ctx.cwd, values.out ?? path.join(path.dirname(clip), 'det.npz'));
    const progress = countProgress(ctx.stderr);
    const onEvent = (e: DetectEvent) => {
      if (e.phase === 'calib' && e.calibration) {
        for (const line of describeCalibration(e.calibration)) ctx.stderr.write(`${line}\n`);
      } else if (e.phase === 'views') {
        for (const line of describeViews(e.fade, e.lag)) ctx.stderr.write(`${line}\n`);
      } else if (e.phase === 'zoom') {
        for (const line of describeCreatureZoom(e.calibration)) ctx.stderr.write(`${line}\n`);
      } else if (e.phase === 'noise') {
        progress.end();
        ctx.stderr.write(`${describeNoise(e.noise, e.frames)}\n`);
      } else if (e.phase === 'frames' || e.phase === 'refine') {
        if (refine && e.phase === 'frames') return;
        progress.update(refine ? 'detect + refine' : 'detect', e.done, e.total);
      }
    };
    const r = await detectClip(
      {
        clip,
        reader: path.resolve(ctx.cwd, values.reader ?? defaultReader(creature.dir)),
        ref: path.resolve(ctx.cwd, values.ref ?? refPng),
        out,
        layout: creature.layout,
        calib,
        creatureZoom,
        ...(joints ? { joints } : {}),
        ...(maxFrames ? { maxFrames } : {}),
        ...(refine ? { refine } : {}),
      },
      onEvent,
      ctx.signal,
    );
    progress.end();
    const fps = r.detections.frames / r.seconds;
    ctx.stderr.write(
      `${r.detections.frames} frames in ${r.seconds.toFixed(1)} s (${fps.toFixed(1)} two-view frames/s on ${r.backend}${refine ? `, refinement ${r.refineSeconds.toFixed(1)} s` : ''})\n`,
    );
    if (values.json) {
      ctx.stdout.write(
        `${JSON.stringify({ out, heatmaps: r.heatmapsFile, frames: r.detections.frames, calib: Array.from(r.detections.calib), calibration: r.calibration && calibrationSummary(r.calibration), views: viewsSummary(r.fade, r.lag), backend: r.backend, refined: refine !== undefined, seconds: r.seconds, refineSeconds: r.refineSeconds, noise: r.noise }, null, 2)}\n`,
      );
    } else ctx.stdout.write(`${out}\n`);
    return 0;
  },
};
