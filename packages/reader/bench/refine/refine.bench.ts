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
} from '@mocap/reader/internal';
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
// the creature's box in each view, grown by 24 px: what a tracker would pass from the last frame
const boxes = [0, 1].map((view) => {
  const truth = syntheticFrame(DEFAULT_LAYOUT, 6).labels;
  const W = DEFAULT_LAYOUT.WIDTH;
  const box = { x0: W, x1: 0, y0: DEFAULT_LAYOUT.HEIGHT, y1: 0 };
  for (let i = 0; i < truth.length; i++) {
    const x = i % W;
    if (truth[i] === 0 || x < DEFAULT_LAYOUT.W_FRONT !== (view === 0)) continue;
    const y = Math.floor(i / W);
    box.x0 = Math.min(box.x0, x - 24);
    box.x1 = Math.max(box.x1, x + 25);
    box.y0 = Math.min(box.y0, y - 24);
    box.y1 = Math.max(box.y1, y + 25);
  }
  return box;
});
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
    'segmentImage within the creature (its two view boxes + 24 px)',
    () => {
      segmentImage(labels, model, frame, DEFAULT_LAYOUT, null, boxes);
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
