import type { FalRetryInfo, JobUpdate } from '@mocap/fal';
import { redactKey } from '@mocap/fal';

/** Progress lines for a fal job (stderr), with the key redacted as a last guard. */
export function falProgress(stderr: NodeJS.WritableStream, key: string | undefined) {
  const say = (s: string) => stderr.write(`${redactKey(s, key)}\n`);
  return {
    say,
    onUpdate(u: JobUpdate) {
      const t = `${(u.elapsedMs / 1000).toFixed(0)} s`;
      if (u.kind === 'submitted') say(`submitted: request ${u.requestId} (recorded in ${u.stateFile})`);
      else if (u.kind === 'resumed') say(`resuming request ${u.requestId} recorded in ${u.stateFile}`);
      else if (u.kind === 'cancelling') say(`asking fal to cancel request ${u.requestId}...`);
      else if (u.status === 'IN_QUEUE') say(`[${t}] queued, position ${u.queuePosition ?? '?'}`);
      else if (u.status === 'IN_PROGRESS') {
        if (u.logs?.length) for (const l of u.logs) say(`[${t}] ${l}`);
        else say(`[${t}] in progress`);
      } else if (u.status === 'COMPLETED') say(`[${t}] completed`);
    },
    onRetry(r: FalRetryInfo) {
      const why = r.status ? `HTTP ${r.status}` : 'a network error';
      say(`fal ${r.op}: ${why}; retry ${r.attempt} in ${(r.delayMs / 1000).toFixed(1)} s`);
    },
  };
}
