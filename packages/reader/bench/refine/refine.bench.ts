// Speed of stage 2 (model-based refinement) on the skinned Khronos Fox (1,728 vertices, 576
// triangles, 24 joints; CC0 mesh by PixelMannen, CC-BY 4.0 rig and animation by @tomkranis,
// glTF conversion by @AsoboStudio and @scurest), 1280 x 720 two-view frames.
import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  copyRefinePose,
  fitColourModel,
  observeLabels,
  refinePose,
  restRefinePose,
  segmentImage,
} from '@mocap/reader';
import { bench, describe } from 'vitest';
import { FOX_LAYOUT, FOX_PAINT } from '../../test/refine/fox-fixture.js';
import { refineScene, truthPeaks } from '../../test/refine/refine-scene.js';
import { drift, syntheticFrame } from '../../test/refine/synthetic-frame.js';

const scene = await refineScene(2, 6, 0.02);
const near = await refineScene(4, 2, 0.005);
const peaks = truthPeaks(scene.mesh, scene.truth, 3, 8);
const state = restRefinePose(scene.mesh);
const model = fitColourModel([syntheticFrame(DEFAULT_LAYOUT, 1)], DEFAULT_LAYOUT, { seed: 3 });
const frame = drift(syntheticFrame(DEFAULT_LAYOUT, 6).image, [1.1, 0.95, 0.9], 1.05, 2, 1);
const labels = new Uint8Array(DEFAULT_LAYOUT.WIDTH * DEFAULT_LAYOUT.HEIGHT);
const opts = { time: 3000, warmupIterations: 2 };

describe('refine: per two-view frame', () => {
  bench(
    'segmentImage 1280 x 720 (backdrop gains + LUT)',
    () => {
      segmentImage(labels, model, frame, DEFAULT_LAYOUT);
    },
    opts,
  );
  bench(
    'observeLabels, levels 4 + 2',
    () => {
      for (const f of [4, 2]) observeLabels(scene.labels, FOX_LAYOUT, FOX_PAINT.length, f);
    },
    opts,
  );
  bench(
    'observeLabels, levels 4 + 2 + 1',
    () => {
      for (const f of [4, 2, 1]) observeLabels(scene.labels, FOX_LAYOUT, FOX_PAINT.length, f);
    },
    opts,
  );
  bench(
    'refinePose from 6 deg, levels 4/2/1, LM 8/6/4, + peaks',
    () => {
      refinePose(scene.objective, copyRefinePose(state, scene.start), scene.levels, peaks);
    },
    opts,
  );
  bench(
    'refinePose tracking (from 2 deg), levels 4/2, LM 3/2, + peaks',
    () => {
      refinePose(near.objective, copyRefinePose(state, near.start), near.levels.slice(0, 2), peaks, {
        iterations: [3, 2],
      });
    },
    opts,
  );
  bench(
    'one tracked frame: segmentImage + observeLabels 4/2 + refinePose 3/2',
    () => {
      segmentImage(labels, model, frame, DEFAULT_LAYOUT);
      const levels = [4, 2].map((f, i) =>
        observeLabels(near.labels, FOX_LAYOUT, FOX_PAINT.length, f, 150, near.levels[i]),
      );
      refinePose(near.objective, copyRefinePose(state, near.start), levels, peaks, { iterations: [3, 2] });
    },
    opts,
  );
});
