// Internals of the reader (training, decoding, calibration, the refinement's kernels) for this
// package's tests, benches and sibling tools; not a stable API. What a user calls is in the "."
// entry (src/index.ts).
export { AdamW } from './adam.js';
export { AugmentOptions, type AugmentOptionsInput, augment, NO_AUGMENT } from './augment.js';
export { BackendChoice, backendReport, InitBackendOptions, wasmBinaryDir } from './backend.js';
export { bicubicWeights, resizeGridBicubic } from './bicubic.js';
export { BLOB_JOINTS } from './blob-dataset.js';
export { type ClipCalib, calibAt } from './calib-at.js';
export { BACKDROP_FIT, type BackdropCalib, calibFromBackdrop } from './calib-from-backdrop.js';
export { type CalibrateClipOptions, CalibrationError, calibrateClip } from './calibrate-clip.js';
export { type CalibMode, type ClipCalibs, clipCalib } from './clip-calib.js';
export {
  type ClipFrames,
  type ClipFramesOptions,
  clipFrames,
  LAG_WINDOW,
  unseenFrames,
  ViewLagFound,
} from './clip-frames.js';
export { type CreatureScalesOptions, creatureScales, type TwoViewPeaks } from './creature-scale.js';
export { CREATURE_ZOOM, type CreatureZoom, creatureZoom, unzoom } from './creature-zoom.js';
export { deghostFrames } from './deghost-frames.js';
export { heatmapsPath, MIN_CLIP_FRAMES, PEAK_WORKER_MIN_FRAMES } from './detect-clip.js';
export { dinov2TensorShapes } from './dinov2-backbone.js';
export { type Calibration, estimateCalib } from './estimate-calib.js';
export { evaluateReader, type ItemPrediction, predictItems } from './evaluate-reader.js';
export { fitRefZoom, type RefZoom } from './fit-ref-zoom.js';
export { type FramePeaksOptions, framePeaks, type PeakLists, toLayout } from './frame-peaks.js';
export { frameToInput } from './frame-to-inputs.js';
export { gaussianHeatmaps } from './gaussian-heatmaps.js';
export { type GhostBlend, ghostBlend } from './ghost-blend.js';
export { heatmapLoss } from './heatmap-loss.js';
export {
  type BackdropFeatures,
  type BackdropLine,
  layoutLines,
  measureBackdrop,
} from './measure-backdrop.js';
export { meshRigidPairs } from './mesh-rigid-pairs.js';
export { type ParamInit, ParamStore } from './param-store.js';
export { parseOptions } from './parse-options.js';
export { randomNormalArray } from './random-normal-array.js';
export { type PeaksBatch, type PeaksCalib, type ReadPeaksOptions, readPeaks } from './read-peaks.js';
export { CnnBackbone, Dinov2Backbone, featureGrid, ReaderConfig } from './reader-config.js';
export { errorStats, ReaderErrors } from './reader-errors.js';
export { ReaderModelJson } from './reader-io.js';
export {
  applyPoseStep,
  backdropColours,
  backdropField,
  backdropGains,
  backdropSilhouette,
  blenderEulerFromJointPose,
  blenderRootMotion,
  boxBlur,
  ChamferObjective,
  ChamferOptions,
  type ClipPeaks,
  type ColourModel,
  ColourModelOptions,
  choleskySolve,
  cleanLabels,
  copyJointPose,
  copyRefinePose,
  createDistanceScratch,
  createRasterTarget,
  cullsBackFaces,
  type DistanceScratch,
  distanceTransform,
  distanceTransform1d,
  dividerWidth,
  faceLabels,
  fitColourModel,
  fitFirstFrame,
  flipLateral,
  frameNoise,
  gatePaint,
  inChannel,
  type JointPose,
  jointPoseFromBlenderEuler,
  jointPositions,
  jointProjectedArea,
  jointVisibility,
  jointWorldMatrices,
  type KeypointTargets,
  keepSideViewSwing,
  LABEL_BACKDROP,
  LABEL_BODY,
  LABEL_GROUP0,
  type LabelledImage,
  LateralFlips,
  linearBlendSkin,
  mat4CopyAt,
  mat4FromTrs,
  mat4IdentityAt,
  mat4MulAt,
  type ObservedViews,
  observeLabels,
  type PaintJoints,
  type PixelRect,
  pixelRects,
  placeRestPose,
  poseRoot,
  predictRefinePose,
  projectKeypoints,
  projectVertices,
  type RasterTarget,
  ReadSkinnedMeshOptions,
  RefineClipOptions,
  RefineOptions,
  type RefinePose,
  rasterizeDepth,
  rasterizeViews,
  readSkinAnimations,
  refinePose,
  restJointPose,
  restLateralAxes,
  restRefinePose,
  rigKeypointPositions,
  type SkinAnimation,
  type SkinChannel,
  type SurfaceSamples,
  sampleSkinAnimation,
  segmentImage,
  sideOnlyJoints,
  silhouetteBoxes,
  skinnedMeshFromDocument,
  skinningMatrices,
  studioColours,
  surfaceSamples,
  type TrackFrame,
  TrackOptions,
  trackFrames,
  type UnmixOptions,
  unmixEdges,
  VertexJacobians,
  vertexPaintLabels,
  viewConfidences,
  visibleGroups,
} from './refine/index.js';
export { type RigidPair, type RigidPairsInput, rigidPairs } from './rigid-pairs.js';
export {
  decodeSafetensors,
  encodeSafetensors,
  readSafetensors,
  type SafeTensor,
  writeSafetensors,
} from './safetensors.js';
export { type ScaleTrend, scaleTrend } from './scale-trend.js';
export { type CalibAt, smoothCalibTrack } from './smooth-calib-track.js';
export { type PeakWorker, startPeakWorker } from './start-peak-worker.js';
export { FADE_MIN_VISIBILITY, FADE_WINDOW, unfadeFrames, visibilityAt } from './unfade-frames.js';
export { unzoomDetections } from './unzoom-detections.js';
export {
  alignPeaks,
  alignViews,
  estimateViewLag,
  type ViewLagOptions,
  type ViewPeaks,
} from './view-lag.js';
export { heatmapToLayout, layoutToHeatmap, layoutToInput, ViewName } from './view-transform.js';
export { registerWasmGradients, WASM_GRADIENT_KERNELS } from './wasm-gradients.js';
