import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** The Redis channel submitters publish a job id on to stop it on whichever worker runs it. */
export const CANCEL_CHANNEL = 'mocap:cancel';

/** What {@link cancelJobs} did. */
export interface CancelResult {
  /** Jobs removed before any worker took them. */
  removed: number;
  /** Running jobs told to stop (their workers abort them). */
  stopped: number;
}

/**
 * Cancels jobs of `queue` by id (`client`: a connection to its Redis to publish on): a job still waiting is removed; a running one is told to stop on
 * {@link CANCEL_CHANNEL}, and its worker aborts it (Blender killed, temporaries cleaned, nothing
 * half-written); finished jobs are left as they are.
 */
export async function cancelJobs(queue: Queue, client: Redis, ids: readonly string[]): Promise<CancelResult> {
  let removed = 0;
  let stopped = 0;
  for (const id of ids) {
    const job = await queue.getJob(id);
    if (!job) continue;
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') continue;
    if (state === 'active') {
      await client.publish(CANCEL_CHANNEL, id);
      stopped++;
      continue;
    }
    try {
      await job.remove();
      removed++;
    } catch {
      // Taken by a worker meanwhile: stop it there.
      await client.publish(CANCEL_CHANNEL, id);
      stopped++;
    }
  }
  return { removed, stopped };
}
