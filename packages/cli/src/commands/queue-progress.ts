import type { SubmitEvent } from '@mocap/queue';

/**
 * A submitter's progress on stderr: each job queued, its stage by tenths with the worker running
 * it, each job done with a running count.
 */
export function queueProgress(stderr: NodeJS.WritableStream) {
  const last = new Map<string, string>();
  let queued = 0;
  let done = 0;
  return (e: SubmitEvent) => {
    if (e.kind === 'queued') {
      queued++;
      stderr.write(`queued: ${e.job}\n`);
      return;
    }
    if (e.kind === 'progress') {
      const p = e.progress;
      const key = `${p.worker}:${p.stage}:${p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0}`;
      if (last.get(e.id) === key) return;
      last.set(e.id, key);
      stderr.write(`${e.job} on ${p.worker}: ${p.stage} ${p.done}/${p.total}\n`);
      return;
    }
    done++;
    const r = e.result;
    const what = e.job.startsWith('dataset')
      ? ` (${r.rendered} rendered, ${r.skipped} already there)`
      : r.errorCm !== undefined
        ? ` (mean error ${r.errorCm.toFixed(3)} cm)`
        : '';
    stderr.write(`${e.job}: done on ${r.worker}${what} [${done}/${queued}]\n`);
  };
}
