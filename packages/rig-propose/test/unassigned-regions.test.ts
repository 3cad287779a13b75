import { fitTemplate, meshFeatures, quadrupedTemplate, unassignedRegions } from '@mocap/rig-propose/internal';
import { describe, expect, it } from 'vitest';
import { boxQuadruped } from './synthetic-quadruped.js';

describe('unassignedRegions', () => {
  it('names two plates spread from the back as wings and nothing on the plain box creature', async () => {
    const template = await quadrupedTemplate();
    const plain = meshFeatures(boxQuadruped());
    const fit = fitTemplate(template, plain);
    expect(unassignedRegions(plain, fit.joints, template.rig.bones)).toEqual([]);

    const winged = meshFeatures(
      boxQuadruped([
        [0.14, -0.2, 0.48, 0.8, 0.1, 0.5],
        [-0.8, -0.2, 0.48, -0.14, 0.1, 0.5],
      ]),
    );
    const regions = unassignedRegions(winged, fitTemplate(template, winged).joints, template.rig.bones);
    expect(regions.map((r) => r.name).sort()).toEqual(['wing.L', 'wing.R']);
    for (const r of regions) {
      expect(Math.max(Math.abs(r.min[0]), Math.abs(r.max[0]))).toBeGreaterThan(0.75);
      expect(r.share).toBeGreaterThan(0.03);
    }
  });
});
