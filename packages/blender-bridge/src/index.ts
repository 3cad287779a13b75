export {
  type ApplyMotionOptions,
  type ApplyMotionResult,
  type ApplyView,
  applyMotion,
} from './apply-motion.js';
export {
  BlenderError,
  type BlenderErrorDetails,
  type BlenderErrorKind,
  stderrTail,
} from './blender-error.js';
export { type BuildRigOptions, type BuildRigResult, buildRig, FREE_LIMITS } from './build-rig.js';
export {
  type BuildSkinRigOptions,
  type BuildSkinRigResult,
  buildSkinRig,
  SKIN_DEFAULT_LIMITS,
  skinKeypoints,
} from './build-skin-rig.js';
export { checkGlb, checkReadable } from './check-file.js';
export { cleanTemps } from './clean-temps.js';
export { composeFrame } from './compose-frame.js';
export {
  type BlenderInfo,
  type FindBlenderOptions,
  findBlender,
  MIN_BLENDER_VERSION,
  parseBlenderVersion,
} from './find-blender.js';
export { type GltfJoints, readGltfJoints } from './gltf-joints.js';
export { JointsJson } from './joints-json.js';
export { type PrepMeshOptions, PrepResult, prepMesh } from './prep-mesh.js';
export {
  type CreatureKind,
  type CreatureMeshOptions,
  creatureGlb,
  creatureMesh,
} from './procedural/creature-mesh.js';
export { type CoatColours, furTexture } from './procedural/fur-texture.js';
export { addMembrane, addTube, MeshBuilder, type TubePoint } from './procedural/mesh-builder.js';
export {
  DatasetPoseOptions,
  type RenderDatasetOptions,
  type RenderDatasetResult,
  renderDataset,
} from './render-dataset.js';
export { type RenderRefOptions, renderRef } from './render-ref.js';
export { rigKeypoints } from './rig-keypoints.js';
export { type RiggedGlbOptions, riggedGlb, riggedGlbPath } from './rigged-glb.js';
export {
  type BlenderProgress,
  type BlenderRunOptions,
  PYTHON_DIR,
  runBlenderScript,
} from './run-blender-script.js';
export { readSkinSkeleton, type SkinJoint, type SkinSkeleton } from './skin-skeleton.js';
export { type GltfValidation, type GltfValidatorMessage, validateGltf } from './validate-gltf.js';
