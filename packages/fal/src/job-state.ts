import { existsSync } from 'node:fs';
import { atomicWriteJson, readJsonFile } from '@mocap/layout';
import { z } from 'zod';

/**
 * A fal job on disk, written the moment fal accepts it (`request_id`), so a killed process
 * resumes the same paid job. It also remembers uploads (by SHA-256) so a resume does not
 * upload again, and the result once fetched. It never holds the API key.
 */
export const JobState = z
  .object({
    /** The endpoint (model id) the job was submitted to. */
    endpoint: z.string().min(1),
    /** fal's queue request id; null before submission. */
    request_id: z.string().min(1).nullable(),
    /** The exact input submitted (or about to be). */
    input: z.record(z.string(), z.unknown()),
    /** Uploaded local files: SHA-256 hex -> fal storage URL. @default {} */
    uploads: z.record(z.string(), z.string()).default({}),
    phase: z.enum(['prepared', 'submitted', 'cancel_requested', 'completed']),
    submitted_at: z.string().nullable(),
    updated_at: z.string(),
    /** The job's result payload once COMPLETED and fetched. */
    result: z.unknown().optional(),
  })
  .strict();
/** A validated job state. */
export type JobState = z.output<typeof JobState>;

/** Reads a job state file; undefined when it does not exist. Bad content throws a FileError. */
export async function readJobState(op: string, file: string): Promise<JobState | undefined> {
  if (!existsSync(file)) return undefined;
  return readJsonFile(op, file, JobState);
}

/** Writes a job state file atomically, stamping `updated_at`. */
export async function writeJobState(file: string, state: JobState): Promise<JobState> {
  const next = { ...state, updated_at: new Date().toISOString() };
  await atomicWriteJson(file, next);
  return next;
}
