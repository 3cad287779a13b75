export { boneRestMatrix } from './bone-rest.js';
export { type EulerOrder, eulerFromMat3, eulerFromQuat, mat3FromEuler, quatFromEuler } from './euler.js';
export {
  type FindLoopOptions,
  findLoop,
  type LoopWindow,
  makeSeamless,
  type SeamlessLoop,
  type SeamlessOptions,
} from './loop.js';
export { mat3Invert, mat3Multiply, mat3Transpose } from './mat3.js';
export { mat4Invert, mat4ToRows } from './mat4.js';
export { type MirrorMap, type MirrorRestError, mirrorMap, mirrorMotion, sideSwapName } from './mirror.js';
export type { MotionCore, PackedMotion } from './motion-pack.js';
export { quatConjugate, quatMultiply } from './quat.js';
export { quatFromMat3, quatFromWxyz } from './quat-convert.js';
export { quatLog } from './quat-interp.js';
export { resampleMotion } from './resample.js';
export { rigidFit } from './rigid-fit.js';
export { type SeededRandom, type SeededRandomOptions, seededRandom } from './seeded-random.js';
export type { Mat3, Mat4, Out, Quat, Vec3 } from './types.js';
