export { type CreateFalOptions, createFal, type FalClient } from './create-fal.js';
export { creatureMirror } from './creature-mirror.js';
export { checkMp4, type DownloadFileOptions, downloadFile } from './download-file.js';
export { explainStatus, FalError, formatFalDetail } from './fal-error.js';
export {
  createFalFetch,
  type FalFetchOptions,
  type FalRetryInfo,
  FalRetryOptions,
  falOperation,
} from './fal-fetch.js';
export { falKeyFromEnv, redactKey } from './fal-key.js';
export {
  DEFAULT_VIDEO_MODEL,
  GenerateOptions,
  type GenerateResult,
  type GenerateRuntime,
  generateVideo,
  modelSlug,
  type VideoRequest,
  videoPath,
  videoUrlOf,
} from './generate-video.js';
export { JobState, readJobState, writeJobState } from './job-state.js';
export { LoraJson } from './lora-json.js';
export {
  buildLoraSet,
  type ClipRenderer,
  type LoraClip,
  type LoraMove,
  type LoraSet,
  type LoraSetOptions,
  type MotionMirror,
  mirrorCaption,
} from './lora-set.js';
export { MoveName, makePrompt, promptPath, writePrompt } from './prompt.js';
export { type JobUpdate, type QueueJobOptions, type QueueJobResult, runQueueJob } from './queue-job.js';
export {
  DEFAULT_LORA_INFERENCE_MODEL,
  DEFAULT_LORA_TRAINER,
  findCapturedMotions,
  loraTrainerInput,
  loraTrigger,
  TrainLoraOptions,
  type TrainLoraResult,
  type TrainLoraRuntime,
  trainLora,
} from './train-lora.js';
export { type UploadFileOptions, uploadFile } from './upload-file.js';
