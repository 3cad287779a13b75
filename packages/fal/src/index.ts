export type { CreateFalOptions, FalClient } from './create-fal.js';
export { creatureMirror } from './creature-mirror.js';
export type { DownloadFileOptions } from './download-file.js';
export type { FalFetchOptions, FalRetryInfo, FalRetryOptions } from './fal-fetch.js';
export { falKeyFromEnv, redactKey } from './fal-key.js';
export {
  type GenerateOptions,
  type GenerateResult,
  type GenerateRuntime,
  generateVideo,
  type VideoRequest,
} from './generate-video.js';
export type { JobState } from './job-state.js';
export { LoraJson } from './lora-json.js';
export {
  buildLoraSet,
  type ClipRenderer,
  type LoraClip,
  type LoraMove,
  type LoraSet,
  type LoraSetOptions,
  type MotionMirror,
} from './lora-set.js';
export { writePrompt } from './prompt.js';
export type { JobUpdate, QueueJobOptions, QueueJobResult } from './queue-job.js';
export {
  findCapturedMotions,
  loraTrainerInput,
  loraTrigger,
  TrainLoraOptions,
  type TrainLoraResult,
  type TrainLoraRuntime,
  trainLora,
} from './train-lora.js';
export type { UploadFileOptions } from './upload-file.js';
