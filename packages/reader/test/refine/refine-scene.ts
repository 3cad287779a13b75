import { seededRandom } from '@mocap/anim-loop';
import { projectPoints } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { SkinnedMesh } from '@mocap/reader';
import {
  applyPoseStep,
  ChamferObjective,
  type ChamferOptions,
  copyRefinePose,
  createRasterTarget,
  faceLabels,
  jointPositions,
  jointWorldMatrices,
  type KeypointTargets,
  linearBlendSkin,
  observeLabels,
  poseRoot,
  projectVertices,
  type RefinePose,
  rasterizeViews,
  restRefinePose,
  sampleSkinAnimation,
  skinningMatrices,
  vertexPaintLabels,
} from '@mocap/reader/internal';
import { FOX_LAYOUT, FOX_PAINT, readFox } from './fox-fixture.js';

/** Joints a test perturbs and frees: every joint below the two root joints. */
function freeJoints(mesh: SkinnedMesh): string[] {
  return mesh.jointNames.filter((n) => n !== '_rootJoint');
}

/** Joint origins (J x 3, metres) of a pose: the library's {@link jointPositions}. */
export function jointOrigins(mesh: SkinnedMesh, state: RefinePose): Float64Array {
  return jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
}

/** Mean distance between two joint sets, metres. */
export function meanJointError(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let j = 0; j < a.length / 3; j++)
    s += Math.hypot(a[3 * j] - b[3 * j], a[3 * j + 1] - b[3 * j + 1], a[3 * j + 2] - b[3 * j + 2]);
  return s / (a.length / 3);
}

/** Full-frame labels of the Fox rendered at `state` (the "observed" masks of a synthetic test). */
export function renderLabels(mesh: SkinnedMesh, vlabels: Uint8Array, state: RefinePose): Uint8Array {
  const world = new Float64Array(mesh.jointNames.length * 16);
  const skin = new Float64Array(mesh.jointNames.length * 16);
  const root = poseRoot(new Float64Array(16), mesh.toWorld, state);
  jointWorldMatrices(world, mesh, state.pose, root);
  skinningMatrices(skin, mesh, world);
  const verts = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
  const proj = projectVertices(new Float64Array(mesh.vertexCount * 3), verts, mesh.vertexCount, FOX_LAYOUT);
  const t = createRasterTarget(FOX_LAYOUT);
  rasterizeViews(t, verts, proj, mesh.indices, faceLabels(mesh.indices, vlabels));
  return t.label;
}

/** Colours of the Fox's five paint groups in {@link paintFrame}: four legs, then the tail. */
const FOX_PAINT_RGB = [
  [220, 40, 40],
  [40, 90, 230],
  [40, 190, 70],
  [230, 200, 40],
  [150, 60, 200],
];

/**
 * An RGB layout frame from a label image, as a render would look: studio wall and floor, a shaded
 * noisy orange body, shaded paint colours (seeded).
 */
export function paintFrame(labels: Uint8Array, seed: number): RgbImage {
  const rng = seededRandom(seed);
  const L = FOX_LAYOUT;
  const data = new Uint8Array(labels.length * 3);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    const y = Math.floor(i / L.WIDTH);
    const base =
      l === 0
        ? y < L.GROUND_V
          ? L.colours.wall
          : L.colours.floor
        : l === 1
          ? [205, 112, 48]
          : FOX_PAINT_RGB[l - 2];
    const shade = l === 0 ? 1 : 0.7 + 0.3 * rng.next();
    for (let c = 0; c < 3; c++) {
      const n = 8 * (rng.next() + rng.next() + rng.next() - 1.5);
      data[3 * i + c] = Math.max(0, Math.min(255, Math.round(base[c] * shade + n)));
    }
  }
  return { width: L.WIDTH, height: L.HEIGHT, data };
}

/** Heatmap-like peaks: the true joint origins projected to both views plus seeded noise of `noisePx`. */
export function truthPeaks(
  mesh: SkinnedMesh,
  truth: RefinePose,
  noisePx: number,
  seed: number,
): KeypointTargets {
  const rng = seededRandom(seed);
  const o = jointOrigins(mesh, truth);
  const n = mesh.jointNames.length;
  const front = new Float64Array(2 * n);
  const side = new Float64Array(2 * n);
  projectPoints(front, side, o, FOX_LAYOUT);
  const uv = new Float64Array(4 * n);
  for (let j = 0; j < n; j++) {
    uv[4 * j] = front[2 * j] + noisePx * rng.normal();
    uv[4 * j + 1] = front[2 * j + 1] + noisePx * rng.normal();
    uv[4 * j + 2] = side[2 * j] + noisePx * rng.normal();
    uv[4 * j + 3] = side[2 * j + 1] + noisePx * rng.normal();
  }
  return { joints: Int32Array.from({ length: n }, (_, j) => j), uv, conf: new Float64Array(2 * n).fill(1) };
}

/**
 * The synthetic refinement scene: the Fox at its Walk pose (key 5), drawn at `zoom`, is the truth
 * whose rendered labels are "observed"; the start is that pose at zoom 1 with every free joint
 * turned by a seeded random rotation of `deg` degrees (per axis, normal) and the body shifted by
 * `shiftM` metres.
 */
export async function refineScene(
  seed: number,
  deg: number,
  shiftM: number,
  options: ChamferOptions = {},
  zoom = 1,
) {
  const mesh = await readFox();
  const vlabels = vertexPaintLabels(mesh, FOX_PAINT);
  const truth = restRefinePose(mesh);
  truth.zoom = zoom;
  const walk = mesh.animations.find((a) => a.name === 'Walk')!;
  sampleSkinAnimation(truth.pose, walk, walk.channels[0].times[5]);
  const labels = renderLabels(mesh, vlabels, truth);
  const objective = new ChamferObjective(mesh, vlabels, FOX_LAYOUT, { joints: freeJoints(mesh), ...options });
  const rng = seededRandom(seed);
  const delta = new Float64Array(objective.params);
  for (let k = 0; k < 3; k++) delta[k] = shiftM * rng.normal();
  for (let k = 3; k < 3 + 3 * objective.joints.length; k++) delta[k] = ((deg * Math.PI) / 180) * rng.normal();
  const start = copyRefinePose(restRefinePose(mesh), truth);
  start.zoom = 1;
  applyPoseStep(start, start, objective.joints, delta);
  const levels = [4, 2, 1].map((f) => observeLabels(labels, FOX_LAYOUT, FOX_PAINT.length, f));
  return { mesh, vlabels, truth, start, objective, levels, labels };
}
