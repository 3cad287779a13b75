export { boneRestMatrix, vecRollToMat3 } from './bone-rest.js';
export {
  EULER_ORDERS,
  type EulerOrder,
  eulerFromMat3,
  eulerFromQuat,
  mat3FromEuler,
  quatFromEuler,
} from './euler.js';
export {
  FindLoopOptions,
  findLoop,
  type LoopWindow,
  makeSeamless,
  type SeamlessLoop,
  SeamlessOptions,
} from './loop.js';
export {
  mat3Copy,
  mat3Determinant,
  mat3Identity,
  mat3Invert,
  mat3Multiply,
  mat3TransformVec3,
  mat3Transpose,
} from './mat3.js';
export {
  mat4Copy,
  mat4FromRotationTranslation,
  mat4FromRows,
  mat4GetRotation,
  mat4GetTranslation,
  mat4Identity,
  mat4Invert,
  mat4Multiply,
  mat4ToRows,
  mat4TransformPoint,
  mat4Transpose,
} from './mat4.js';
export {
  type MirrorMap,
  type MirrorRestError,
  mirrorMap,
  mirrorMotion,
  mirrorRestError,
  sideSwapName,
} from './mirror.js';
export { type MotionCore, type PackedMotion, packMotion, unpackMotion } from './motion-pack.js';
export {
  quatConjugate,
  quatCopy,
  quatDot,
  quatFromAxisAngle,
  quatIdentity,
  quatInvert,
  quatMultiply,
  quatNormalize,
  quatRotateVec3,
  quatToAxisAngle,
} from './quat.js';
export { mat3FromQuat, quatFromMat3, quatFromWxyz, quatToWxyz } from './quat-convert.js';
export {
  quatAngle,
  quatAngularVelocity,
  quatExp,
  quatLog,
  quatNlerp,
  quatSlerp,
  quatTrackContinuity,
} from './quat-interp.js';
export { resampleMotion, samplePacked, sampleQuatTrack, sampleTrack } from './resample.js';
export { rigidFit } from './rigid-fit.js';
export { type SeededRandom, SeededRandomOptions, seededRandom } from './seeded-random.js';
export { symEigen4 } from './sym-eigen4.js';
export { timeWarpMotion, timeWarpQuatTrack, timeWarpTrack, warpPathToTimes } from './time-warp.js';
export {
  EPSILON,
  type Mat3,
  type Mat4,
  mat3,
  mat4,
  type Out,
  type Quat,
  quat,
  type Vec3,
  vec3,
} from './types.js';
