// Internals of the fit and the rig model for this package's tests, benches and sibling tools; not a
// stable API. What a user calls is in the "." entry (src/index.ts).
export { type ClipOnRig, clipOnRig, localRotation, posedRig } from './clip-on-rig.js';
export { boneMirror } from './creature-info.js';
export { creatureRigFile } from './creature-rig-file.js';
export { rigJsonSkeleton } from './creature-skeleton.js';
export { syntheticExam } from './exam.js';
export { createWorkspace, fitGradient, fitHessVec, type Workspace } from './fit-linear.js';
export {
  annealedScale,
  CLIP_PAD,
  CLIP_WINDOW,
  clipLmLoop,
  createLoopScratch,
  FRAME_WINDOW,
  frameLmLoop,
  type LoopOptions,
  type LoopReport,
  type LoopScratch,
  lmLoop,
  type WindowScratch,
} from './fit-loop.js';
export {
  DEFAULT_FIT_WEIGHTS,
  type FitData,
  fitCost,
  frameWindow,
  jacobianForward,
  jacobianTranspose,
  keypointChains,
} from './fit-objective.js';
export { BlockPreconditioner } from './fit-preconditioner.js';
export { FitState, P_MAX, rotationFromVector } from './fit-state.js';
export { fixSwaps } from './fix-swaps.js';
export {
  eulerXyzToMat3,
  keypointsFromPose,
  mul3,
  poseFrame,
  quatWxyzToMat3,
  toRigModel,
} from './forward-kinematics.js';
export { frameBlockLayout } from './frame-block-cholesky.js';
export { frameCosts } from './frame-costs.js';
export {
  detectionsOnSourceGrid,
  estimateFrameTiming,
  FRAME_TIMING_RATES,
  type FrameTimingOptions,
  REPEAT_RATES,
} from './frame-timing.js';
export { readGlbSkeleton } from './glb-skeleton.js';
export { groundedMotion, type MotionChannels } from './grounded-motion.js';
export { initialPose, robustTargets } from './init-pose.js';
export { legGroups } from './leg-groups.js';
export { addDiffGram, bandFactor, bandSolve, DIFF, symmetricEigen } from './linalg.js';
export { type CreatureProposal, type ProposeCreatureOptions, proposeCreature } from './propose-creature.js';
export { parseBvhClip, readBvhClip } from './read-bvh-clip.js';
export { readGltfClip } from './read-gltf-clip.js';
export { readSolverCreature } from './read-solver-creature.js';
export { orthonormalRigModel, rigJsonKeypoints, rigModelFromRigInfo } from './rig-model.js';
export { sampleChannel, sampleClipWorld } from './sample-clip.js';
export { errorStats } from './score.js';
export {
  heightGap,
  pawAgreement,
  type SyncOptions,
  shiftFront,
  syncChecks,
  type ViewData,
} from './sync-checks.js';
