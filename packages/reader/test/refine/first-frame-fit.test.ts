import {
  ChamferObjective,
  copyRefinePose,
  fitFirstFrame,
  refinePose,
  restRefinePose,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { FOX_LAYOUT } from './fox-fixture.js';
import { refineScene, truthPeaks } from './refine-scene.js';

describe('fitFirstFrame', () => {
  it("keeps whichever fit, plain or after the paint pass, costs less under the clip's objective", async () => {
    const clip = { paint: 0.3, huberPx: 3, prior: 1e4, keypoints: 4 };
    // 12 degrees off per joint, then the truth itself as the start
    for (const [seed, deg] of [
      [2, 12],
      [5, 12],
      [3, 0],
    ]) {
      const scene = await refineScene(seed, deg, deg > 0 ? 0.03 : 0, clip);
      const { mesh, objective, levels } = scene;
      const paintObjective = new ChamferObjective(mesh, scene.vlabels, FOX_LAYOUT, {
        ...clip,
        joints: mesh.jointNames.filter((n) => n !== '_rootJoint'),
        paint: 1,
      });
      const peaks = truthPeaks(mesh, scene.truth, 3, seed);
      const fine = levels.slice(1, 2);
      const start = copyRefinePose(restRefinePose(mesh), scene.start);
      // the two fits by hand
      const plain = copyRefinePose(restRefinePose(mesh), start);
      objective.setPrior(start);
      refinePose(objective, plain, fine, peaks, { iterations: [6] });
      const painted = copyRefinePose(restRefinePose(mesh), start);
      paintObjective.setPrior(start);
      refinePose(paintObjective, painted, fine, peaks, { iterations: [6] });
      refinePose(objective, painted, fine, peaks, { iterations: [6] });
      const cost = (p: typeof start) => objective.evaluate(p, fine[0], peaks, false);
      const state = copyRefinePose(restRefinePose(mesh), start);
      fitFirstFrame(objective, paintObjective, state, fine, peaks, [6], start);
      const kept = cost(state);
      // far from the start the paint pass finds the lower minimum; from the truth it only costs
      if (deg > 0) expect(cost(painted)).toBeLessThan(cost(plain));
      else expect(cost(plain)).toBeLessThan(cost(painted));
      expect(kept).toBe(Math.min(cost(plain), cost(painted)));
      if (deg > 0) expect(kept).toBeLessThan(cost(start));
      // a margin the paint pass's gain does not clear keeps the plain fit
      const held = copyRefinePose(restRefinePose(mesh), start);
      fitFirstFrame(objective, paintObjective, held, fine, peaks, [6], start, 0.9);
      expect(cost(held)).toBe(cost(plain));
    }
  });
});
