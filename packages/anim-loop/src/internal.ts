// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { vecRollToMat3 } from './bone-rest.js';
export { EULER_ORDERS } from './euler.js';
export { FindLoopOptions, SeamlessOptions } from './loop.js';
export { mat3Copy, mat3Determinant, mat3Identity, mat3TransformVec3 } from './mat3.js';
export {
  mat4Copy,
  mat4FromRotationTranslation,
  mat4FromRows,
  mat4GetRotation,
  mat4GetTranslation,
  mat4Identity,
  mat4Multiply,
  mat4TransformPoint,
  mat4Transpose,
} from './mat4.js';
export { mirrorRestError } from './mirror.js';
export { packMotion, unpackMotion } from './motion-pack.js';
export {
  quatCopy,
  quatDot,
  quatFromAxisAngle,
  quatIdentity,
  quatInvert,
  quatNormalize,
  quatRotateVec3,
  quatToAxisAngle,
} from './quat.js';
export { mat3FromQuat, quatToWxyz } from './quat-convert.js';
export {
  quatAngle,
  quatAngularVelocity,
  quatExp,
  quatNlerp,
  quatSlerp,
  quatTrackContinuity,
} from './quat-interp.js';
export { samplePacked, sampleQuatTrack, sampleTrack } from './resample.js';
export { SeededRandomOptions } from './seeded-random.js';
export { symEigen4 } from './sym-eigen4.js';
export { timeWarpMotion, timeWarpQuatTrack, timeWarpTrack, warpPathToTimes } from './time-warp.js';
export { EPSILON, mat3, mat4, quat, vec3 } from './types.js';
