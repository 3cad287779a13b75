import path from 'node:path';
import { creaturePaths, ExamReport, readJsonFile } from '@mocap/layout';
import type { ExamJob, JobResult } from './queue-job.js';
import { type SubmitOptions, submitJobs } from './submit-jobs.js';

/** Options of {@link renderExamOnQueue}: renderExam's, for several seeds. */
export interface RenderExamOnQueueOptions extends SubmitOptions {
  creature: string;
  /** One job per seed, each into `<outRoot>/render-seed<seed>`. */
  seeds: readonly number[];
  frames: number;
  /** @default 30 */
  fps?: number | undefined;
  reader?: string | undefined;
  refine?: 'auto' | 'on' | 'off' | undefined;
  /** @default `<creature>/runs/exam` */
  outRoot?: string | undefined;
}

/** One seed's exam: its run folder, the worker that ran it, report.json. */
export interface QueuedExam {
  seed: number;
  dir: string;
  job: JobResult;
  report: ExamReport;
}

/**
 * `mocap exam --render --queue URL --seeds 1,2,3` as a function: the rendered exam (renderExam) of
 * each seed as a job, run by workers that see the same paths; each lands in the run folder a local
 * exam of that seed writes (`runs/exam/render-seed<seed>/`). Resolves with each seed's report.json.
 *
 * ```ts
 * const exams = await renderExamOnQueue({ url: 'redis://queue-host:6379', creature: '/data/wolf', seeds: [1, 2, 3], frames: 60 });
 * ```
 */
export async function renderExamOnQueue(opts: RenderExamOnQueueOptions): Promise<QueuedExam[]> {
  if (opts.seeds.length === 0 || new Set(opts.seeds).size !== opts.seeds.length) {
    throw new TypeError(`renderExamOnQueue: expected distinct seeds, got [${opts.seeds.join(', ')}].`);
  }
  const creature = path.resolve(opts.creature);
  const root = path.resolve(opts.outRoot ?? creaturePaths(creature).exam);
  const jobs: Omit<ExamJob, 'version'>[] = opts.seeds.map((seed) => {
    const job: Omit<ExamJob, 'version'> = {
      kind: 'exam',
      creature,
      out: path.join(root, `render-seed${seed}`),
      frames: opts.frames,
      seed,
    };
    if (opts.fps !== undefined) job.fps = opts.fps;
    if (opts.reader !== undefined) job.reader = path.resolve(opts.reader);
    if (opts.refine !== undefined) job.refine = opts.refine;
    return job;
  });
  const results = await submitJobs('exam', jobs, opts);
  return Promise.all(
    results.map(async (job, i) => ({
      seed: opts.seeds[i] as number,
      dir: jobs[i]?.out as string,
      job,
      report: await readJsonFile('exam', path.join(jobs[i]?.out as string, 'report.json'), ExamReport),
    })),
  );
}
