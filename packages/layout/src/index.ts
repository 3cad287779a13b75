export { atomicWrite, atomicWriteJson } from './atomic-write.js';
export { type CreaturePaths, creaturePaths } from './creature-paths.js';
export { type Detections, IDENTITY_CALIB, readDetections, writeDetections } from './detections.js';
export { FileError } from './file-error.js';
export { DEFAULT_LAYOUT, Layout, type LayoutInput, Rgb, type StudioColours } from './layout.js';
export type { NpyArray, NpyDtype } from './npy.js';
export { readNpz, type WriteNpzOptions, writeNpz } from './npz.js';
export {
  type LockOutputOptions,
  lockOutput,
  type OutputLock,
  type OutputLockHolder,
  withOutputLock,
} from './output-lock.js';
export { projectPoints, worldToFront, worldToSide } from './projection.js';
export { parseFileData, readJsonFile } from './read-json-file.js';
export {
  creatureDir,
  type ResolveCreatureOptions,
  type ResolvedCreature,
  resolveCreature,
} from './resolve-creature.js';
export { LimitsDeg, type Mat4Rows, Name, QuatWxyz, type Vec2, Vec3 } from './schemas/common.js';
export { CreatureJson, PaintGroup, type Prep, type ShowcaseCamera } from './schemas/creature-json.js';
export { DatasetMeta } from './schemas/dataset-meta.js';
export { ErrorStats, ExamReport } from './schemas/exam-report.js';
export { emptySyncReport, MotionJson, type ReprojReport, SyncReport } from './schemas/motion-json.js';
export { Keypoint, RigInfo, type RigInfoBone } from './schemas/rig-info.js';
export { boneStems, limitsFor, RigBone, RigJson } from './schemas/rig-json.js';
export { TruthJson } from './schemas/truth-json.js';
export { type TriangulateOptions, triangulate } from './triangulate.js';
export { ViewProjection } from './view-projection.js';
export { readZip, writeZip, type ZipEntry } from './zip.js';
