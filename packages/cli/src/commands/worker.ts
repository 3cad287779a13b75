import type { WorkerEvent } from '@mocap/queue';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

function positive(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0)) throw new UsageError(`--${name}: Expected a number > 0, got "${v}".`);
  return n;
}

/** One line per job event: taken, each stage's progress by tenths, done or failed. */
function workerLog(stderr: NodeJS.WritableStream) {
  const last = new Map<string, string>();
  return (e: WorkerEvent) => {
    if (e.kind === 'progress') {
      const p = e.progress;
      const key = `${p.stage}:${p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0}`;
      if (last.get(e.id) === key) return;
      last.set(e.id, key);
      stderr.write(`job ${e.id} (${e.job}): ${p.stage} ${p.done}/${p.total}\n`);
    } else if (e.kind === 'error') stderr.write(`${e.error}\n`);
    else if (e.kind === 'active') stderr.write(`job ${e.id} (${e.job}): started\n`);
    else if (e.kind === 'completed') {
      last.delete(e.id);
      stderr.write(`job ${e.id} (${e.job}): done, ${e.result.dir}\n`);
    } else {
      last.delete(e.id);
      stderr.write(`job ${e.id} (${e.job}): failed: ${e.error}\n`);
    }
  };
}

/** `mocap worker --queue URL`: runs queued dataset shards and captures on this machine until stopped. */
export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run queued jobs (dataset shards, captures) from a Redis job queue on this machine',
  usage: 'mocap worker --queue URL [--concurrency N] [--lock-duration SEC] [--lock-wait SEC]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      queue: { type: 'string' },
      concurrency: { type: 'string', default: '1' },
      'lock-duration': { type: 'string' },
      'lock-wait': { type: 'string' },
    });
    if (!values.queue) throw new UsageError('--queue URL is required (redis://host:port).');
    const concurrency = Number(values.concurrency);
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
      throw new UsageError(`--concurrency: Expected a whole number >= 1, got "${values.concurrency}".`);
    }
    const lockS = positive('lock-duration', values['lock-duration']);
    const waitS = positive('lock-wait', values['lock-wait']);
    const { redactUrl, startWorker } = await import('@mocap/queue');
    const worker = await startWorker({
      url: values.queue,
      concurrency,
      lockDurationMs: lockS === undefined ? undefined : lockS * 1000,
      lockWaitMs: waitS === undefined ? undefined : waitS * 1000,
      env: ctx.env,
      onEvent: workerLog(ctx.stderr),
    });
    ctx.stderr.write(
      `worker ${worker.name} (${worker.version}) waiting for jobs on ${redactUrl(values.queue)}\n`,
    );
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      process.once('SIGTERM', () => resolve());
    });
    ctx.stderr.write(`worker ${worker.name}: stopping after the running jobs\n`);
    await worker.close();
    return 0;
  },
};
