import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FalClient } from '@fal-ai/client';
import { type JobState, readJobState, writeJobState } from './job-state.js';

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.mp4': 'video/mp4',
  '.zip': 'application/zip',
};

/** What {@link uploadFile} needs. */
export interface UploadFileOptions {
  client: FalClient;
  /** The local file to upload. */
  file: string;
  /** The job state file that remembers the upload (created in phase `prepared` if missing). */
  stateFile: string;
  /** The endpoint the upload is for (recorded in a new state file). */
  endpoint: string;
  /** Operation name for messages. @default 'upload' */
  op?: string;
}

/**
 * Uploads a local file to fal storage (the client's initiate + PUT) once: its URL is stored
 * under the file's SHA-256 in the job state, so a resumed run reuses it.
 *
 * ```ts
 * const url = await uploadFile({ client, file: 'runs/ref/ref.png', stateFile, endpoint });
 * ```
 */
export async function uploadFile(opts: UploadFileOptions): Promise<string> {
  const op = opts.op ?? 'upload';
  let bytes: Buffer;
  try {
    bytes = await readFile(opts.file);
  } catch (err) {
    throw new Error(`${op}: ${opts.file}: cannot read (${(err as NodeJS.ErrnoException).code}).`, {
      cause: err,
    });
  }
  const sha = createHash('sha256').update(bytes).digest('hex');
  const state: JobState = (await readJobState(op, opts.stateFile)) ?? {
    endpoint: opts.endpoint,
    request_id: null,
    input: {},
    uploads: {},
    phase: 'prepared',
    submitted_at: null,
    updated_at: new Date().toISOString(),
  };
  const known = state.uploads[sha];
  if (known) return known;
  const type = TYPES[path.extname(opts.file).toLowerCase()] ?? 'application/octet-stream';
  const url = await opts.client.storage.upload(new File([bytes], path.basename(opts.file), { type }));
  await writeJobState(opts.stateFile, { ...state, uploads: { ...state.uploads, [sha]: url } });
  return url;
}
