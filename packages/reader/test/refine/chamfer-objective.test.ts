import { applyPoseStep, copyRefinePose, restRefinePose } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { refineScene, truthPeaks } from './refine-scene.js';

type Scene = Awaited<ReturnType<typeof refineScene>>;

/**
 * The worst gap between the analytic gradient `g` (at `scene.start`) and central differences
 * (step 1e-6) over parameters `from`.., relative to the largest gradient entry.
 */
function worstGradientGap(
  scene: Scene,
  obs: Scene['levels'][number],
  peaks: ReturnType<typeof truthPeaks> | null,
  g: Float64Array,
  from = 0,
): number {
  const { objective, start, mesh } = scene;
  const P = objective.params;
  const trial = restRefinePose(mesh);
  const e = new Float64Array(P);
  const gmax = Math.max(...Array.from(g, Math.abs));
  const at = (k: number, d: number) => {
    e.fill(0);
    e[k] = d;
    return objective.evaluate(
      applyPoseStep(trial, copyRefinePose(trial, start), objective.joints, e),
      obs,
      peaks,
      true,
    );
  };
  let worst = 0;
  for (let k = from; k < P; k++)
    worst = Math.max(worst, Math.abs((at(k, 1e-6) - at(k, -1e-6)) / 2e-6 - g[k]) / gmax);
  return worst;
}

describe('ChamferObjective', () => {
  it('has analytic gradients (masks + keypoints) within 1e-3 of central finite differences, every parameter', async () => {
    const scene = await refineScene(1, 6, 0.02);
    const { objective, start, levels, mesh } = scene;
    const P = objective.params;
    const h = new Float64Array(P * P);
    const g = new Float64Array(P);
    const obs = levels[1];
    const peaks = truthPeaks(mesh, scene.truth, 3, 5);
    // half the keypoints sit off their joint's origin (like bone tails), so both Jacobian paths run
    peaks.offsets = Float64Array.from({ length: peaks.joints.length * 3 }, (_, i) =>
      Math.floor(i / 3) % 2 ? 0 : 5 + (i % 3),
    );
    const c0 = objective.evaluate(start, obs, peaks, false, h, g);
    expect(c0).toBeGreaterThan(0);
    const worst = worstGradientGap(scene, obs, peaks, g);
    expect(worst).toBeLessThan(1e-3);
  });

  it('with the zoom free: analytic gradients within 1e-3 of central differences, the zoom and its prior included', async () => {
    const scene = await refineScene(2, 6, 0.02, { zoom: true, zoomPrior: 1e4 }, 1.04);
    const { objective, start, levels, mesh } = scene;
    const P = objective.params;
    expect(objective.zoomParam).toBe(P - 1);
    expect(P).toBe(4 + 3 * objective.joints.length);
    objective.setPrior({ ...copyRefinePose(restRefinePose(mesh), start), zoom: 0.98 });
    const h = new Float64Array(P * P);
    const g = new Float64Array(P);
    const peaks = truthPeaks(mesh, scene.truth, 3, 5);
    const c0 = objective.evaluate(start, levels[1], peaks, false, h, g);
    expect(c0).toBeGreaterThan(0);
    // the drawn rig is 4% smaller than the truth and the prior wants it smaller still: a clear pull
    expect(Math.abs(g[P - 1])).toBeGreaterThan(0);
    const worst = worstGradientGap(scene, levels[1], peaks, g);
    expect(worst).toBeLessThan(1e-3);
    objective.setPrior(null);
  });

  it('prior term: gradient within 1e-2 of central differences (first-order log Jacobian)', async () => {
    const scene = await refineScene(1, 6, 0.02, { inside: 0, cover: 0, prior: 1 });
    const { objective, start, levels, truth } = scene;
    objective.setPrior(truth);
    const P = objective.params;
    const h = new Float64Array(P * P);
    const g = new Float64Array(P);
    const c0 = objective.evaluate(start, levels[0], null, false, h, g);
    expect(c0).toBeGreaterThan(0);
    const worst = worstGradientGap(scene, levels[0], null, g, 3);
    expect(worst).toBeLessThan(1e-2);
    objective.setPrior(null);
    expect(objective.evaluate(start, levels[0], null, true)).toBe(0);
  });

  it('rasterMovePx: visibility is rasterised again only once a vertex moved that far since the last time', async () => {
    const cost = async (rasterMovePx: number, shiftPx: number) => {
      const scene = await refineScene(1, 6, 0.02, { rasterMovePx });
      const { objective, start, levels, mesh } = scene;
      objective.evaluate(start, levels[1], null, false);
      const moved = copyRefinePose(restRefinePose(mesh), start);
      moved.translation[0] += shiftPx * objective.layout.M_PER_PX;
      return objective.evaluate(moved, levels[1], null, false);
    };
    // the model moved 30 layout px (15 px of the level): rasterised again at a threshold of 0 or 10
    // px of the level, the visible samples differ from the stale ones kept at 50
    const fresh = await cost(0, 30);
    expect(await cost(10, 30)).toBe(fresh);
    expect(await cost(50, 30)).not.toBe(fresh);
  });
});
