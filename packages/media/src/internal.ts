// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { viewRect } from './compose-frame.js';
export { DecodeOptions } from './decode-video.js';
export { DegradeOptions } from './degrade-clip.js';
export { DEGRADE_PRESETS, DEGRADE_RANGES, DegradeColour } from './degrade-presets.js';
export { drawDegrade } from './draw-degrade.js';
export { EncodeOptions } from './encode-video.js';
export { FfmpegError } from './ffmpeg-error.js';
export { findFfprobe } from './find-ffmpeg.js';
export { gradeColour } from './grade-colour.js';
export { assertRgbImage, cloneImage, rgbaToRgb, rgbToRgba, setPixel } from './image.js';
export { drawMask, drawSkeleton, jointPalette, KeypointStyle, MaskStyle, SkeletonStyle } from './overlays.js';
export { squarePad } from './pad.js';
export { paste } from './paste.js';
export { encodePng, encodePngRgba, readPngRgba, writePngRgba } from './png.js';
export { ProbeOptions } from './probe-video.js';
export { ResizeOptions } from './resize.js';
export { ShowcaseOptions } from './showcase.js';
