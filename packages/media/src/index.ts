export {
  composeFrame,
  drawDivider,
  floorRow,
  splitFrame,
  studioBackdrop,
  type ViewRect,
} from './compose-frame.js';
export { crop } from './crop.js';
export { type DecodeOptions, decodeVideo } from './decode-video.js';
export { type DegradeOptions, type DegradeResult, degradeClip } from './degrade-clip.js';
export { type DegradeColour, DegradeParams, DegradePreset, parseDegradePresets } from './degrade-presets.js';
export { drawLine, fillCircle } from './draw.js';
export type { DegradeSource } from './draw-degrade.js';
export { type EncodeOptions, encodeVideo } from './encode-video.js';
export type { FfmpegErrorDetails } from './ffmpeg-error.js';
export { findFfmpeg } from './find-ffmpeg.js';
export { createImage, fillRect, getPixel, type RgbaImage, type RgbImage } from './image.js';
export { drawKeypoints, type KeypointStyle, type MaskStyle, type SkeletonStyle } from './overlays.js';
export { padToSquare, type SquarePad } from './pad.js';
export { decodePng, decodePngRgba, readPng, writePng } from './png.js';
export { type ProbeOptions, probeVideo, type VideoInfo } from './probe-video.js';
export { type ResizeOptions, resize } from './resize.js';
export { type ShowcaseOptions, writeShowcase } from './showcase.js';
export { warpScaleShift } from './warp-scale-shift.js';
