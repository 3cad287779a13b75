export {
  type ApplyMotionOptions,
  type ApplyMotionResult,
  type ApplyView,
  applyMotion,
} from './apply-motion.js';
export type { BlenderErrorDetails, BlenderErrorKind } from './blender-error.js';
export { type BuildRigOptions, type BuildRigResult, buildRig } from './build-rig.js';
export type { BuildSkinRigOptions, BuildSkinRigResult } from './build-skin-rig.js';
export { composeFrame } from './compose-frame.js';
export type { BlenderInfo, FindBlenderOptions } from './find-blender.js';
export type { GltfJoints } from './gltf-joints.js';
export { JointsJson } from './joints-json.js';
export { type PrepMeshOptions, type PrepResult, prepMesh } from './prep-mesh.js';
export type { CreatureKind, CreatureMeshOptions } from './procedural/creature-mesh.js';
export type { CoatColours } from './procedural/fur-texture.js';
export type { TubePoint } from './procedural/mesh-builder.js';
export {
  type DatasetPoseOptions,
  type RenderDatasetOptions,
  type RenderDatasetResult,
  renderDataset,
} from './render-dataset.js';
export { type RenderRefOptions, renderRef } from './render-ref.js';
export { rigKeypoints } from './rig-keypoints.js';
export { type RiggedGlbOptions, riggedGlb } from './rigged-glb.js';
export { type BlenderProgress, type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';
export type { SkinJoint, SkinSkeleton } from './skin-skeleton.js';
export { type GltfValidation, type GltfValidatorMessage, validateGltf } from './validate-gltf.js';
