// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { createFal } from './create-fal.js';
export { checkMp4, downloadFile } from './download-file.js';
export { explainStatus, FalError, formatFalDetail } from './fal-error.js';
export { createFalFetch, FalRetryOptions, falOperation } from './fal-fetch.js';
export { DEFAULT_VIDEO_MODEL, GenerateOptions, modelSlug, videoPath, videoUrlOf } from './generate-video.js';
export { JobState, readJobState, writeJobState } from './job-state.js';
export { mirrorCaption } from './lora-set.js';
export { MoveName, makePrompt, promptPath } from './prompt.js';
export { runQueueJob } from './queue-job.js';
export { DEFAULT_LORA_INFERENCE_MODEL, DEFAULT_LORA_TRAINER } from './train-lora.js';
export { uploadFile } from './upload-file.js';
