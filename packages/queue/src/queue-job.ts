import path from 'node:path';
import { z } from 'zod';

/** The BullMQ queue every mocap job goes through. */
export const QUEUE_NAME = 'mocap';

// Workers on other machines reach files through a shared file system at the same absolute paths.
const AbsPath = z.string().refine((p) => path.isAbsolute(p), { message: 'Expected an absolute path' });

/** One shard of `mocap dataset` (renderDataset with `shard`). */
export const DatasetShardJob = z
  .object({
    kind: z.literal('dataset-shard'),
    /** The submitter's {@link codeVersion}; a worker running other code refuses the job. */
    version: z.string(),
    creature: AbsPath,
    out: AbsPath,
    count: z.number().int().positive(),
    seed: z.number().int().min(0),
    shard: z.object({ index: z.number().int().min(0), of: z.number().int().positive() }),
    aa: z.string().optional(),
    transparent: z.boolean().optional(),
    spread: z.number().min(0).max(1).optional(),
  })
  .strict();
export type DatasetShardJob = z.infer<typeof DatasetShardJob>;

/** One clip of `mocap capture` (captureClip). */
export const CaptureJob = z
  .object({
    kind: z.literal('capture'),
    /** The submitter's {@link codeVersion}; a worker running other code refuses the job. */
    version: z.string(),
    clip: AbsPath,
    creature: AbsPath,
    out: AbsPath,
    reader: AbsPath.optional(),
    refine: z.enum(['auto', 'on', 'off']).optional(),
    calib: z.enum(['auto', 'identity']).optional(),
    creatureZoom: z.enum(['follow', 'report', 'apply']).optional(),
    showcase: z.object({ width: z.number().int().min(2), height: z.number().int().min(2) }).optional(),
    height: z.number().int().positive().optional(),
    renders: z.boolean().optional(),
    bvh: z.boolean().optional(),
    fbx: z.boolean().optional(),
  })
  .strict();
export type CaptureJob = z.infer<typeof CaptureJob>;

/** One seed of the rendered exam (renderExam): a seeded gait rendered, read, fitted and scored. */
export const ExamJob = z
  .object({
    kind: z.literal('exam'),
    /** The submitter's {@link codeVersion}; a worker running other code refuses the job. */
    version: z.string(),
    creature: AbsPath,
    out: AbsPath,
    frames: z.number().int().min(2),
    seed: z.number().int(),
    fps: z.number().positive().optional(),
    reader: AbsPath.optional(),
    refine: z.enum(['auto', 'on', 'off']).optional(),
  })
  .strict();
export type ExamJob = z.infer<typeof ExamJob>;

/** What a mocap job carries: its kind, the code version that submitted it, its options. */
export const QueueJob = z.discriminatedUnion('kind', [DatasetShardJob, CaptureJob, ExamJob]);
export type QueueJob = z.infer<typeof QueueJob>;

/** What a job reports while it runs (BullMQ progress). */
export interface JobProgress {
  /** The worker running it: `<host>:<pid>`. */
  worker: string;
  stage: string;
  done: number;
  total: number;
}

/** What a finished job returns. */
export interface JobResult {
  /** The worker that ran it: `<host>:<pid>`. */
  worker: string;
  /** The folder it wrote. */
  dir: string;
  /** Dataset: samples rendered by this run; capture, exam: 1. */
  rendered: number;
  /** Dataset: samples already there (a resumed shard); capture, exam: 0. */
  skipped: number;
  /** Exam: the mean error, cm (the whole report is the run folder's report.json). */
  errorCm?: number;
}

/** A short name of a job for messages: `dataset shard 2/3 of /data/wolf/runs/dataset`, `capture of /clips/trot.mp4`, `exam seed 3 of /data/wolf`. */
export function describeJob(job: QueueJob): string {
  if (job.kind === 'dataset-shard')
    return `dataset shard ${job.shard.index + 1}/${job.shard.of} of ${job.out}`;
  if (job.kind === 'capture') return `capture of ${job.clip}`;
  return `exam seed ${job.seed} of ${job.creature}`;
}
