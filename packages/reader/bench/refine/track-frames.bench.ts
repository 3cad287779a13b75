// Tracking speed of stage 2 over the skinned Khronos Fox's Walk cycle (18 two-view frames; CC0
// mesh by PixelMannen, CC-BY 4.0 rig and animation by @tomkranis, glTF conversion by
// @AsoboStudio and @scurest): labels -> observation levels 1/4 + 1/2 -> LM 3 + 2 per frame.
import {
  copyRefinePose,
  restRefinePose,
  sampleSkinAnimation,
  type TrackFrame,
  trackFrames,
} from '@mocap/reader/internal';
import { bench, describe } from 'vitest';
import { FOX_LAYOUT, FOX_PAINT } from '../../test/refine/fox-fixture.js';
import { refineScene, renderLabels, truthPeaks } from '../../test/refine/refine-scene.js';

const scene = await refineScene(7, 2, 0.005, { prior: 100 });
const walk = scene.mesh.animations.find((a) => a.name === 'Walk')!;
const truths = Array.from(walk.channels[0].times, (t) => {
  const p = restRefinePose(scene.mesh);
  sampleSkinAnimation(p.pose, walk, t);
  return p;
});
const frames: TrackFrame[] = truths.map((p, i) => ({
  labels: renderLabels(scene.mesh, scene.vlabels, p),
  peaks: truthPeaks(scene.mesh, p, 3, 50 + i),
}));
const start = copyRefinePose(restRefinePose(scene.mesh), scene.start);

describe('refine: tracking 18 frames', () => {
  bench(
    'trackFrames, Walk cycle (18 two-view frames), levels 1/4 + 1/2, LM 3 + 2 (first frame 8 + 6)',
    () => {
      trackFrames(scene.objective, start, frames, FOX_LAYOUT, FOX_PAINT.length);
    },
    { time: 5000, warmupIterations: 1 },
  );
});
