// Stage 2 of the reader: model-based refinement (skinned mesh, raster, segmentation, fit).

export { backdropField } from './backdrop-field.js';
export { backdropColours, backdropGains, studioColours } from './backdrop-gains.js';
export { blenderEulerFromJointPose, blenderRootMotion, jointPoseFromBlenderEuler } from './blender-pose.js';
export { boxBlur } from './box-blur.js';
export { ChamferObjective } from './chamfer-objective.js';
export { ChamferOptions } from './chamfer-options.js';
export { cleanLabels } from './clean-labels.js';
export {
  type ColourModel,
  ColourModelOptions,
  fitColourModel,
  type LabelledImage,
  segmentImage,
} from './colour-model.js';
export { cullsBackFaces } from './culls-back-faces.js';
export {
  createDistanceScratch,
  type DistanceScratch,
  distanceTransform,
  distanceTransform1d,
  type PixelRect,
} from './distance-transform.js';
export { dividerWidth } from './divider-width.js';
export { fitFirstFrame } from './first-frame-fit.js';
export { frameNoise } from './frame-noise.js';
export { copyJointPose, type JointPose } from './joint-pose.js';
export { jointProjectedArea, jointVisibility } from './joint-visibility.js';
export { jointWorldMatrices } from './joint-world-matrices.js';
export { viewConfidences } from './keypoint-confidence.js';
export type { KeypointTargets } from './keypoint-targets.js';
export { flipLateral, LateralFlips } from './lateral-flip.js';
export { linearBlendSkin } from './linear-blend-skin.js';
export { mat4CopyAt, mat4FromTrs, mat4IdentityAt, mat4MulAt } from './mat4-ops.js';
export { inChannel, type ObservedViews, observeLabels } from './observed-views.js';
export { gatePaint, visibleGroups } from './paint-gate.js';
export {
  faceLabels,
  LABEL_BACKDROP,
  LABEL_BODY,
  LABEL_GROUP0,
  type PaintJoints,
  vertexPaintLabels,
} from './paint-labels.js';
export { pixelRects } from './pixel-rects.js';
export { backdropSilhouette, placeRestPose } from './place-rest-pose.js';
export {
  createRasterTarget,
  projectVertices,
  type RasterTarget,
  rasterizeDepth,
  rasterizeViews,
} from './rasterize-views.js';
export { type ClipPeaks, type RefineClipInput, type RefineClipResult, refineClip } from './refine-clip.js';
export { CLIP_OBJECTIVE, RefineClipOptions } from './refine-clip-options.js';
export { choleskySolve, RefineOptions, type RefineReport, refinePose } from './refine-pose.js';
export {
  applyPoseStep,
  copyRefinePose,
  jointPositions,
  poseRoot,
  predictRefinePose,
  type RefinePose,
  restRefinePose,
} from './refine-pose-state.js';
export { restJointPose } from './rest-joint-pose.js';
export {
  projectKeypoints,
  type RigKeypointSpec,
  type RigKeypoints,
  rigKeypointPositions,
  rigKeypoints,
} from './rig-keypoints.js';
export { sideOnlyJoints } from './side-only-joints.js';
export { keepSideViewSwing, restLateralAxes } from './side-view-swing.js';
export { silhouetteBoxes } from './silhouette-boxes.js';
export {
  readSkinAnimations,
  type SkinAnimation,
  type SkinChannel,
  sampleSkinAnimation,
} from './skin-animation.js';
export {
  ReadSkinnedMeshOptions,
  readSkinnedMesh,
  type SkinnedMesh,
  skinnedMeshFromDocument,
} from './skinned-mesh.js';
export { skinningMatrices } from './skinning-matrices.js';
export { type SurfaceSamples, surfaceSamples } from './surface-samples.js';
export { type TrackFrame, TrackOptions, trackFrames } from './track-frames.js';
export { type UnmixOptions, unmixEdges } from './unmix-edges.js';
export { VertexJacobians } from './vertex-jacobians.js';
