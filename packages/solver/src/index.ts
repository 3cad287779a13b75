export { type ClipMotion, type ClipMotionOptions, clipMotion } from './clip-motion.js';
export { type ClipOnRig, clipOnRig, localRotation, posedRig } from './clip-on-rig.js';
export { boneMirror, type CreatureInfo, creatureInfo } from './creature-info.js';
export { creatureRigFile } from './creature-rig-file.js';
export {
  type CreatureSkeleton,
  rigJsonSkeleton,
  type SkeletonBone,
  type SkeletonKeypoint,
} from './creature-skeleton.js';
export { type ExamOptions, type ExamResult, syntheticExam } from './exam.js';
export { examCreature } from './exam-creature.js';
export { type FitOptions, type FitResult, fit } from './fit.js';
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
  type FitWeights,
  fitCost,
  frameWindow,
  jacobianForward,
  jacobianTranspose,
  keypointChains,
  type RobustWeights,
} from './fit-objective.js';
export { BlockPreconditioner } from './fit-preconditioner.js';
export { FitState, P_MAX, rotationFromVector } from './fit-state.js';
export { fixSwaps } from './fix-swaps.js';
export type { FlatMotion } from './flat-motion.js';
export {
  eulerXyzToMat3,
  forwardKinematics,
  keypointsFromPose,
  type MotionPose,
  mul3,
  type PosedFrames,
  poseFrame,
  quatWxyzToMat3,
  toRigModel,
} from './forward-kinematics.js';
export { frameCosts } from './frame-costs.js';
export { type GaitMotionOptions, gaitMotion } from './gait-motion.js';
export { readGlbSkeleton } from './glb-skeleton.js';
export { groundedMotion, type MotionChannels } from './grounded-motion.js';
export { type InitCreatureOptions, type InitCreatureResult, initCreature } from './init-creature.js';
export { initialPose, robustTargets } from './init-pose.js';
export { legGroups } from './leg-groups.js';
export { addDiffGram, bandFactor, bandSolve, DIFF, symmetricEigen } from './linalg.js';
export { type CreatureProposal, type ProposeCreatureOptions, proposeCreature } from './propose-creature.js';
export { parseBvhClip, readBvhClip } from './read-bvh-clip.js';
export { readGltfClip } from './read-gltf-clip.js';
export { readMotionClip } from './read-motion-clip.js';
export { readRigModel } from './read-rig-model.js';
export { readSolverCreature, type SolverCreature } from './read-solver-creature.js';
export {
  orthonormalRigModel,
  type RigKeypoint,
  type RigModel,
  rigJsonKeypoints,
  rigModelFromRigInfo,
  rigModelFromRigJson,
} from './rig-model.js';
export { sampleChannel, sampleClipWorld } from './sample-clip.js';
export { errorStats, type JointScore, scoreJoints } from './score.js';
export type { ClipChannel, ClipInterpolation, SkeletonClip } from './skeleton-clip.js';
export { skeletonPairs } from './skeleton-pairs.js';
export { type SolveContext, solveContext } from './solve-context.js';
export { type SolveDetectionsResult, solveDetections } from './solve-detections.js';
export { type SolveFilesOptions, solveFiles } from './solve-files.js';
export {
  heightGap,
  pawAgreement,
  type SyncOptions,
  shiftFront,
  syncChecks,
  type ViewData,
} from './sync-checks.js';
export { type CorruptionOptions, syntheticDetections } from './synthetic-detections.js';
export { type SyntheticMotionOptions, syntheticMotion } from './synthetic-motion.js';
