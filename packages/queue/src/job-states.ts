import { Queue } from 'bullmq';
import { connectRedis } from './connect-redis.js';
import { QUEUE_NAME } from './queue-job.js';

/** A job's state in the queue and, when it failed, why. */
export interface JobState {
  id: string;
  state: string;
  failedReason: string | null;
}

/** The states of jobs `ids` in the queue at `url` (`unknown` for a job that is gone). */
export async function jobStates(url: string, ids: readonly string[]): Promise<JobState[]> {
  const connection = await connectRedis(url, { operation: 'queue' });
  const queue = new Queue(QUEUE_NAME, { connection });
  try {
    return await Promise.all(
      ids.map(async (id) => {
        const state = await queue.getJobState(id);
        const job = await queue.getJob(id);
        return { id, state, failedReason: job?.failedReason || null };
      }),
    );
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
