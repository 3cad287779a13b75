// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { CANCEL_CHANNEL, type CancelResult, cancelJobs } from './cancel-jobs.js';
export { type JobState, jobStates } from './job-states.js';
export { describeJob, QUEUE_NAME, QueueJob } from './queue-job.js';
export { submitJobs } from './submit-jobs.js';
