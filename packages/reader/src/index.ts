export { type BackendChoice, type BackendReport, type InitBackendOptions, initBackend } from './backend.js';
export { type BlobDatasetOptions, writeBlobDataset } from './blob-dataset.js';
export type { CalibSample, ClipCalibration } from './calibrate-clip.js';
export { createReader, type Reader } from './create-reader.js';
export { type Dataset, type DatasetItem, type LoadDatasetOptions, loadDataset } from './dataset.js';
export { calibrationSummary, describeCalibration, describeCreatureZoom } from './describe-calibration.js';
export { type ClipNoise, describeNoise } from './describe-noise.js';
export { describeViews, viewsSummary } from './describe-views.js';
export { type DetectResult, detectClip } from './detect-clip.js';
export type { DetectEvent } from './detect-event.js';
export { DetectOptions } from './detect-options.js';
export { decodeHeatmaps, type HeatmapPeaks, peaksToLayout } from './heatmap-decode.js';
export type { InitReport } from './init-from-reader.js';
export { heatmapSize, type ReaderConfig, type ReaderConfigInput } from './reader-config.js';
export {
  type LoadedReader,
  type LoadReaderOptions,
  loadReader,
  type ReaderModelJson,
  type SaveReaderExtra,
  saveReader,
} from './reader-io.js';
export {
  CLIP_OBJECTIVE,
  type ReadSkinnedMeshOptions,
  type RefineClipInput,
  type RefineClipOptions,
  type RefineClipResult,
  type RefineReport,
  type RigKeypointSpec,
  type RigKeypoints,
  readSkinnedMesh,
  refineClip,
  rigKeypoints,
  type SkinnedMesh,
} from './refine/index.js';
export { type RestJoints, restJointMap, restJoints } from './rest-joint-map.js';
export { type TrainEvent, TrainOptions, type TrainResult, trainReader } from './train-reader.js';
export type { ClipFade } from './unfade-frames.js';
export { imagesToTensor, viewToInput } from './view-input.js';
export type { ViewLag } from './view-lag.js';
export { type ViewName, type ViewTransform, viewTransform } from './view-transform.js';
