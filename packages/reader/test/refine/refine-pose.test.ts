import {
  fitColourModel,
  observeLabels,
  refinePose,
  restRefinePose,
  segmentImage,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { FOX_LAYOUT, FOX_PAINT } from './fox-fixture.js';
import {
  jointOrigins,
  meanJointError,
  paintFrame,
  refineScene,
  renderLabels,
  truthPeaks,
} from './refine-scene.js';
import { drift } from './synthetic-frame.js';

// The truth is the Fox at a Walk pose; the observed masks are its rendered labels (5 paint
// groups + silhouette, both views); the start turns all 23 free joints by 6 degrees per axis
// (seeded normal) and shifts the body by 2 cm per axis: 4 to 12 cm mean joint error.
describe('refinePose', () => {
  it('masks only: the mean joint error drops by more than 4x, coarse to fine', async () => {
    const scene = await refineScene(2, 6, 0.02);
    const truth = jointOrigins(scene.mesh, scene.truth);
    const before = meanJointError(jointOrigins(scene.mesh, scene.start), truth);
    const { state, report } = refinePose(scene.objective, scene.start, scene.levels);
    const after = meanJointError(jointOrigins(scene.mesh, state), truth);
    expect(before).toBeGreaterThan(0.1);
    expect(after).toBeLessThan(before / 4);
    expect(report.levels.map((l) => l.factor)).toEqual([4, 2, 1]);
    expect(report.levels[0].after).toBeLessThan(report.levels[0].before);
  });

  it('masks + heatmap peaks (3 px = 1.2 cm noise): about the peak noise, better than masks alone', async () => {
    const scene = await refineScene(3, 6, 0.02);
    const truth = jointOrigins(scene.mesh, scene.truth);
    const peaks = truthPeaks(scene.mesh, scene.truth, 3, 8);
    const start = jointOrigins(scene.mesh, scene.start);
    const { state } = refinePose(scene.objective, scene.start, scene.levels, peaks);
    const after = meanJointError(jointOrigins(scene.mesh, state), truth);
    expect(after).toBeLessThan(0.013);
    const masksOnly = await refineScene(3, 6, 0.02);
    refinePose(masksOnly.objective, masksOnly.start, masksOnly.levels);
    expect(meanJointError(jointOrigins(masksOnly.mesh, masksOnly.start), truth)).toBeGreaterThan(after);
    expect(meanJointError(start, truth)).toBeGreaterThan(0.04);
  });

  it('a pose prior holds the joint rotations to its reference: strong, they barely turn; moderate, the pose still converges', async () => {
    const strong = await refineScene(2, 6, 0.02, { prior: 1e9 });
    const truth = jointOrigins(strong.mesh, strong.truth);
    const start = jointOrigins(strong.mesh, strong.start);
    const q0 = Float64Array.from(strong.start.pose.rotation);
    strong.objective.setPrior(strong.start);
    refinePose(strong.objective, strong.start, strong.levels.slice(0, 1), null, { iterations: [4] });
    // the translation is not under the prior; every rotation is
    const turned = Math.max(...Array.from(q0, (v, i) => Math.abs(v - strong.start.pose.rotation[i])));
    expect(turned).toBeLessThan(1e-3);
    const moderate = await refineScene(2, 6, 0.02, { prior: 1e4 });
    moderate.objective.setPrior(moderate.start);
    refinePose(moderate.objective, moderate.start, moderate.levels);
    expect(meanJointError(jointOrigins(moderate.mesh, moderate.start), truth)).toBeLessThan(
      meanJointError(start, truth) / 3,
    );
  });

  it('a zoomed view: a free zoom grows toward it, the zoom prior holds it, a fixed one stays', async () => {
    // one frame alone pins the zoom only loosely (a pose can stretch toward a larger outline): a
    // clip's zoom prior (refineClip's followZoom) is what holds it to the camera's
    const free = await refineScene(4, 3, 0.01, { zoom: true }, 1.04);
    refinePose(free.objective, free.start, free.levels);
    expect(free.start.zoom).toBeGreaterThan(1.02);
    expect(free.start.zoom).toBeLessThan(1.1);
    const held = await refineScene(4, 3, 0.01, { zoom: true, zoomPrior: 1e12 }, 1.04);
    held.objective.setPrior(held.start);
    refinePose(held.objective, held.start, held.levels);
    expect(Math.abs(held.start.zoom - 1)).toBeLessThan(1e-3);
    const fixed = await refineScene(4, 3, 0.01, {}, 1.04);
    refinePose(fixed.objective, fixed.start, fixed.levels);
    expect(fixed.start.zoom).toBe(1);
  });

  it('from pixels: a colour model fitted on the rest pose segments a drifted frame, and refinement matches the label-perfect result', async () => {
    const scene = await refineScene(3, 6, 0.02);
    const restLabels = renderLabels(scene.mesh, scene.vlabels, restRefinePose(scene.mesh));
    const model = fitColourModel([{ image: paintFrame(restLabels, 1), labels: restLabels }], FOX_LAYOUT, {
      seed: 2,
      samplesPerClass: 2000,
      augmentations: 3,
    });
    const frame = drift(paintFrame(scene.labels, 2), [1.1, 0.94, 0.88], 1.08, 2, 3);
    const seg = segmentImage(new Uint8Array(scene.labels.length), model, frame, FOX_LAYOUT);
    let right = 0;
    for (let i = 0; i < seg.length; i++) if (seg[i] === scene.labels[i]) right++;
    expect(right / seg.length).toBeGreaterThan(0.99);
    const levels = [4, 2].map((f) => observeLabels(seg, FOX_LAYOUT, FOX_PAINT.length, f));
    const truth = jointOrigins(scene.mesh, scene.truth);
    const peaks = truthPeaks(scene.mesh, scene.truth, 3, 8);
    refinePose(scene.objective, scene.start, levels, peaks, { iterations: [8, 6] });
    expect(meanJointError(jointOrigins(scene.mesh, scene.start), truth)).toBeLessThan(0.013);
  });
});
