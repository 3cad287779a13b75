// A local stand-in for fal's servers on 127.0.0.1, speaking the protocol @fal-ai/client speaks:
// queue submit / status / result / cancel on queue.fal.run, storage upload initiate on
// rest.fal.ai + the PUT, and files on v3.fal.media. Requests arrive as <base>/<fal host><path>
// (createFalFetch's baseUrl). Faults are scripted per operation.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Op = 'initiate' | 'upload' | 'file' | 'submit' | 'status' | 'result' | 'cancel';

interface Fault {
  op: Op;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests get this answer. @default 1 */
  times?: number;
}

interface Job {
  id: string;
  endpoint: string;
  input: Record<string, unknown>;
  polls: number;
  /** Polls until COMPLETED (Infinity: never). */
  pollsToComplete: number;
  cancelled: boolean;
  result?: unknown;
  resultError?: { status: number; body: unknown };
}

interface Logged {
  method: string;
  op: Op | 'unknown';
  path: string;
  auth: string;
  status: number;
}

export interface FalServerOptions {
  key: string;
  /** @default 3 */
  pollsToComplete?: number;
  /** The result payload of a completed job. @default a video on v3.fal.media */
  result?: (job: Job, server: FalServer) => unknown;
  /** A completed job's result fails with this instead. */
  resultError?: { status: number; body: unknown };
  /** Called on every status poll (after counting it). */
  onPoll?: ((job: Job) => void) | undefined;
}

export interface FalServer {
  url: string;
  faults: Fault[];
  log: Logged[];
  jobs: Map<string, Job>;
  files: Map<string, { bytes: Uint8Array; type: string }>;
  /** Accepted submissions (jobs created). */
  submissions(): number;
  /** Requests seen for one operation (including faulted ones). */
  count(op: Op): number;
  /** Adds a file served on v3.fal.media; returns its https URL. */
  addFile(name: string, bytes: Uint8Array, type: string): string;
  close(): Promise<void>;
  options: FalServerOptions;
}

let mp4: Uint8Array | undefined;
/** A real, tiny H.264 MP4 made by ffmpeg (once per process). */
export function tinyMp4(): Uint8Array {
  if (!mp4) {
    const dir = mkdtempSync(path.join(tmpdir(), 'fal-mp4-'));
    const out = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:s=64x36:d=0.2:r=10',
      '-pix_fmt',
      'yuv420p',
      '-y',
      out,
    ]);
    mp4 = new Uint8Array(readFileSync(out));
  }
  return mp4;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (body instanceof Uint8Array) {
    res.writeHead(status, { 'content-type': 'application/octet-stream', ...headers });
    res.end(body);
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body ?? {}));
}

function classify(method: string, host: string, rest: string): Op | 'unknown' {
  if (host === 'rest.fal.ai' && rest.startsWith('/storage/upload/initiate')) return 'initiate';
  if (host === 'upload') return 'upload';
  if (host === 'v3.fal.media') return 'file';
  if (host === 'queue.fal.run') {
    if (method === 'POST') return 'submit';
    if (method === 'PUT' && rest.endsWith('/cancel')) return 'cancel';
    if (rest.endsWith('/status')) return 'status';
    if (rest.includes('/requests/')) return 'result';
  }
  return 'unknown';
}

/** Starts the server on 127.0.0.1 (a free port). */
export async function startFalServer(options: FalServerOptions): Promise<FalServer> {
  const faults: Fault[] = [];
  const log: Logged[] = [];
  const jobs = new Map<string, Job>();
  const files = new Map<string, { bytes: Uint8Array; type: string }>();
  let base = '';
  const server: FalServer = {
    url: '',
    faults,
    log,
    jobs,
    files,
    options,
    submissions: () => jobs.size,
    count: (op) => log.filter((l) => l.op === op).length,
    addFile(name, bytes, type) {
      const key = `${randomUUID()}/${name}`;
      files.set(key, { bytes, type });
      return `https://v3.fal.media/files/${key}`;
    },
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
  const statusOf = (job: Job, host: string) => {
    const root = `https://${host}/${job.endpoint.split('/').slice(0, 2).join('/')}/requests/${job.id}`;
    const urls = {
      request_id: job.id,
      response_url: root,
      status_url: `${root}/status`,
      cancel_url: `${root}/cancel`,
    };
    // logs=1 returns every log line so far, as fal does
    const steps = Array.from({ length: Math.max(0, job.polls - 1) }, (_, i) => ({
      message: `step ${i + 1}`,
      level: 'INFO',
    }));
    if (job.cancelled || job.polls >= job.pollsToComplete)
      return {
        status: 'COMPLETED',
        ...urls,
        logs: [...steps.slice(0, -1), { message: 'done', level: 'INFO' }],
      };
    if (job.polls <= 1) return { status: 'IN_QUEUE', queue_position: 2 - job.polls, ...urls };
    return { status: 'IN_PROGRESS', ...urls, logs: steps };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const u = new URL(req.url ?? '/', base);
    const [, host = '', ...restParts] = u.pathname.split('/');
    const rest = `/${restParts.join('/')}`;
    const method = req.method ?? 'GET';
    const op = classify(method, host, rest);
    const auth = String(req.headers.authorization ?? '');
    const entry: Logged = { method, op, path: `/${host}${rest}`, auth, status: 0 };
    log.push(entry);
    const body = await readAll(req);
    const reply = (status: number, b: unknown, h?: Record<string, string>) => {
      entry.status = status;
      send(res, status, b, h);
      return status;
    };
    const fault = faults.find((f) => f.op === op && (f.times ?? 1) > 0);
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      return reply(fault.status, fault.body ?? { detail: `scripted ${fault.status}` }, fault.headers);
    }
    const needsKey =
      op === 'initiate' || op === 'submit' || op === 'status' || op === 'result' || op === 'cancel';
    if (needsKey && auth !== `Key ${options.key}`)
      return reply(401, { detail: 'Authentication is required to access this application.' });
    if (op === 'initiate') {
      const { content_type, file_name } = JSON.parse(body.toString()) as Record<string, string>;
      const id = `${randomUUID()}/${file_name}`;
      files.set(`pending:${id}`, { bytes: new Uint8Array(), type: content_type ?? '' });
      return reply(200, { upload_url: `${base}/upload/${id}`, file_url: `https://v3.fal.media/files/${id}` });
    }
    if (op === 'upload') {
      const id = decodeURIComponent(rest.slice(1));
      const pending = files.get(`pending:${id}`);
      if (!pending) return reply(404, { detail: 'unknown upload' });
      files.delete(`pending:${id}`);
      files.set(id, { bytes: new Uint8Array(body), type: String(req.headers['content-type'] ?? '') });
      return reply(200, {});
    }
    if (op === 'file') {
      const f = files.get(decodeURIComponent(rest.replace(/^\/files\//, '')));
      return f ? reply(200, f.bytes) : reply(404, { detail: 'no such file' });
    }
    if (op === 'submit') {
      const input = JSON.parse(body.toString() || '{}') as Record<string, unknown>;
      const job: Job = {
        id: randomUUID(),
        endpoint: rest.slice(1),
        input,
        polls: 0,
        pollsToComplete: options.pollsToComplete ?? 3,
        cancelled: false,
        ...(options.resultError ? { resultError: options.resultError } : {}),
      };
      jobs.set(job.id, job);
      return reply(200, statusOf(job, host));
    }
    const m = /\/requests\/([^/]+)/.exec(rest);
    const job = m ? jobs.get(m[1] as string) : undefined;
    if (!job) return reply(404, { detail: 'Request not found' });
    if (op === 'status') {
      job.polls++;
      options.onPoll?.(job);
      return reply(200, statusOf(job, host));
    }
    if (op === 'cancel') {
      if (job.polls >= job.pollsToComplete) return reply(400, { status: 'ALREADY_COMPLETED' });
      job.cancelled = true;
      return reply(202, { status: 'CANCELLATION_REQUESTED' });
    }
    if (op === 'result') {
      if (job.cancelled) return reply(400, { detail: 'Request was cancelled' });
      if (job.polls < job.pollsToComplete) return reply(400, { detail: 'Request is still in progress' });
      if (job.resultError) return reply(job.resultError.status, job.resultError.body);
      const data = options.result
        ? options.result(job, server)
        : { video: { url: server.addFile('out.mp4', tinyMp4(), 'video/mp4') }, seed: job.input.seed };
      return reply(200, data, { 'x-fal-request-id': job.id });
    }
    return reply(404, { detail: `no route for ${method} ${u.pathname}` });
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { detail: err.message }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.url = base;
  return server;
}
