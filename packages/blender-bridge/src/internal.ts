// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { BlenderError, stderrTail } from './blender-error.js';
export { FREE_LIMITS } from './build-rig.js';
export { buildSkinRig, SKIN_DEFAULT_LIMITS, skinKeypoints } from './build-skin-rig.js';
export { checkGlb, checkReadable } from './check-file.js';
export { cleanTemps } from './clean-temps.js';
export { findBlender, MIN_BLENDER_VERSION, parseBlenderVersion } from './find-blender.js';
export { readGltfJoints } from './gltf-joints.js';
export { PrepResult } from './prep-mesh.js';
export { creatureGlb, creatureMesh } from './procedural/creature-mesh.js';
export { furTexture } from './procedural/fur-texture.js';
export { addMembrane, addTube, MeshBuilder } from './procedural/mesh-builder.js';
export { DatasetPoseOptions } from './render-dataset.js';
export { riggedGlbPath } from './rigged-glb.js';
export { PYTHON_DIR } from './run-blender-script.js';
export { readSkinSkeleton } from './skin-skeleton.js';
