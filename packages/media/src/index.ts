export {
  composeFrame,
  drawDivider,
  floorRow,
  splitFrame,
  studioBackdrop,
  type ViewRect,
  viewRect,
} from './compose-frame.js';
export { crop } from './crop.js';
export { DecodeOptions, decodeVideo } from './decode-video.js';
export { DegradeOptions, type DegradeResult, degradeClip } from './degrade-clip.js';
export {
  DEGRADE_PRESETS,
  DEGRADE_RANGES,
  DegradeColour,
  DegradeParams,
  DegradePreset,
  parseDegradePresets,
} from './degrade-presets.js';
export { drawLine, fillCircle } from './draw.js';
export { type DegradeSource, drawDegrade } from './draw-degrade.js';
export { EncodeOptions, encodeVideo } from './encode-video.js';
export { FfmpegError, type FfmpegErrorDetails } from './ffmpeg-error.js';
export { findFfmpeg, findFfprobe } from './find-ffmpeg.js';
export { gradeColour } from './grade-colour.js';
export {
  assertRgbImage,
  cloneImage,
  createImage,
  fillRect,
  getPixel,
  type RgbaImage,
  type RgbImage,
  rgbaToRgb,
  rgbToRgba,
  setPixel,
} from './image.js';
export {
  drawKeypoints,
  drawMask,
  drawSkeleton,
  jointPalette,
  KeypointStyle,
  MaskStyle,
  SkeletonStyle,
} from './overlays.js';
export { padToSquare, type SquarePad, squarePad } from './pad.js';
export { paste } from './paste.js';
export {
  decodePng,
  decodePngRgba,
  encodePng,
  encodePngRgba,
  readPng,
  readPngRgba,
  writePng,
  writePngRgba,
} from './png.js';
export { ProbeOptions, probeVideo, type VideoInfo } from './probe-video.js';
export { ResizeOptions, resize } from './resize.js';
export { ShowcaseOptions, writeShowcase } from './showcase.js';
export { warpScaleShift } from './warp-scale-shift.js';
