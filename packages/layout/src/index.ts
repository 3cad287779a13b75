export { atomicWrite, atomicWriteJson } from './atomic-write.js';
export { type CreaturePaths, creaturePaths } from './creature-paths.js';
export {
  type Detections,
  decodeDetections,
  detectionsToArrays,
  IDENTITY_CALIB,
  parseDetections,
  readDetections,
  writeDetections,
} from './detections.js';
export { FileError, fileErrorFromZod, formatPath } from './file-error.js';
export { DEFAULT_HEIGHT_M, DEFAULT_LAYOUT, Layout, type LayoutInput, Rgb, StudioColours } from './layout.js';
export { decodeNpy, encodeNpy, type NpyArray, type NpyDtype, shapeSize } from './npy.js';
export { decodeNpz, encodeNpz, readNpz, type WriteNpzOptions, writeNpz } from './npz.js';
export {
  type LockOutputOptions,
  lockOutput,
  type OutputLock,
  OutputLockedError,
  OutputLockHolder,
  outputLockFile,
  withOutputLock,
} from './output-lock.js';
export {
  frontUToX,
  projectPoints,
  sideUToY,
  viewsToWorld,
  vToZ,
  worldToFront,
  worldToSide,
} from './projection.js';
export { parseFileData, readJsonFile } from './read-json-file.js';
export {
  creatureDir,
  type ResolveCreatureOptions,
  type ResolvedCreature,
  resolveCreature,
} from './resolve-creature.js';
export { Finite, LimitsDeg, Mat4Rows, Name, QuatWxyz, RangeDeg, Vec2, Vec3 } from './schemas/common.js';
export { CreatureJson, PaintGroup, Prep, ShowcaseCamera } from './schemas/creature-json.js';
export { DatasetMeta } from './schemas/dataset-meta.js';
export { ErrorStats, ExamReport } from './schemas/exam-report.js';
export { emptySyncReport, MotionJson, ReprojReport, SyncReport } from './schemas/motion-json.js';
export { Keypoint, RigInfo, RigInfoBone } from './schemas/rig-info.js';
export { boneStems, limitsFor, RigBone, RigJson } from './schemas/rig-json.js';
export { TruthJson } from './schemas/truth-json.js';
export { type TriangulateOptions, triangulate } from './triangulate.js';
export { ViewProjection } from './view-projection.js';
export { crc32, readZip, writeZip, type ZipEntry } from './zip.js';
