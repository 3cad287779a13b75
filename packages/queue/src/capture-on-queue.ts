import path from 'node:path';
import { creaturePaths } from '@mocap/layout';
import type { CaptureJob, JobResult } from './queue-job.js';
import { type SubmitOptions, submitJobs } from './submit-jobs.js';

/** Options of {@link captureOnQueue}: captureClip's, for many clips. */
export interface CaptureOnQueueOptions extends SubmitOptions {
  clips: readonly string[];
  creature: string;
  /** Folder holding one output folder per clip (named after the clip). @default `<creature>/runs/capture` */
  outRoot?: string | undefined;
  /** The output folder of the one clip (as captureClip's `out`); only with a single clip. */
  out?: string | undefined;
  reader?: string | undefined;
  refine?: 'auto' | 'on' | 'off' | undefined;
  calib?: 'auto' | 'identity' | undefined;
  creatureZoom?: 'follow' | 'report' | 'apply' | undefined;
  showcase?: { width: number; height: number } | undefined;
  height?: number | undefined;
  renders?: boolean | undefined;
  bvh?: boolean | undefined;
  fbx?: boolean | undefined;
}

/**
 * `mocap capture <clips...> --queue URL` as a function: one captureClip job per clip, run by
 * workers that see the same paths; each lands in `<outRoot>/<clip name>/` as a local capture
 * does. Resolves with each clip's result once all are done; the first failure cancels the rest.
 *
 * ```ts
 * await captureOnQueue({ url: 'redis://queue-host:6379', creature: '/data/wolf', clips: ['/data/clips/trot.mp4'] });
 * ```
 */
export async function captureOnQueue(opts: CaptureOnQueueOptions): Promise<JobResult[]> {
  if (opts.clips.length === 0) throw new TypeError('captureOnQueue: expected at least one clip, got none.');
  if (opts.out !== undefined && opts.clips.length !== 1) {
    throw new TypeError(`captureOnQueue: expected one clip with out, got ${opts.clips.length}.`);
  }
  const creature = path.resolve(opts.creature);
  const root = path.resolve(opts.outRoot ?? creaturePaths(creature).capture);
  const seen = new Map<string, string>();
  const jobs: Omit<CaptureJob, 'version'>[] = opts.clips.map((c) => {
    const clip = path.resolve(c);
    const name = path.basename(clip, path.extname(clip));
    const other = seen.get(name);
    if (other) {
      throw new TypeError(
        `captureOnQueue: clips ${other} and ${clip} would both write ${path.join(root, name)}.`,
      );
    }
    seen.set(name, clip);
    const out = opts.out === undefined ? path.join(root, name) : path.resolve(opts.out);
    const job: Omit<CaptureJob, 'version'> = { kind: 'capture', clip, creature, out };
    if (opts.reader !== undefined) job.reader = path.resolve(opts.reader);
    for (const k of [
      'refine',
      'calib',
      'creatureZoom',
      'showcase',
      'height',
      'renders',
      'bvh',
      'fbx',
    ] as const) {
      if (opts[k] !== undefined) Object.assign(job, { [k]: opts[k] });
    }
    return job;
  });
  return submitJobs('capture', jobs, opts);
}
