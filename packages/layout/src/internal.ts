// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { decodeDetections, detectionsToArrays, parseDetections } from './detections.js';
export { fileErrorFromZod, formatPath } from './file-error.js';
export { DEFAULT_HEIGHT_M, StudioColours } from './layout.js';
export { decodeNpy, encodeNpy, shapeSize } from './npy.js';
export { decodeNpz, encodeNpz } from './npz.js';
export { OutputLockedError, OutputLockHolder, outputLockFile } from './output-lock.js';
export { frontUToX, sideUToY, viewsToWorld, vToZ } from './projection.js';
export { Finite, Mat4Rows, RangeDeg, Vec2 } from './schemas/common.js';
export { Prep, ShowcaseCamera } from './schemas/creature-json.js';
export { ReprojReport } from './schemas/motion-json.js';
export { RigInfoBone } from './schemas/rig-info.js';
export { crc32 } from './zip.js';
