export { type CaptureOnQueueOptions, captureOnQueue } from './capture-on-queue.js';
export { codeVersion } from './code-version.js';
export { type CheckRedisOptions, checkRedis, QueueConnectionError, redactUrl } from './connect-redis.js';
export type { CaptureJob, DatasetShardJob, ExamJob, JobProgress, JobResult } from './queue-job.js';
export {
  type RenderDatasetOnQueueOptions,
  type RenderDatasetOnQueueResult,
  renderDatasetOnQueue,
} from './render-dataset-on-queue.js';
export { type QueuedExam, type RenderExamOnQueueOptions, renderExamOnQueue } from './render-exam-on-queue.js';
export { type QueueWorker, type StartWorkerOptions, startWorker, type WorkerEvent } from './start-worker.js';
export { QueueJobError, type SubmitEvent, type SubmitOptions } from './submit-jobs.js';
