import { Layout, ViewProjection } from '@mocap/layout';
import { getPixel } from '@mocap/media';
import { drawProposal } from '@mocap/rig-propose/internal';
import { describe, expect, it } from 'vitest';
import { boxQuadruped } from './synthetic-quadruped.js';

const layout = Layout.parse({ M_PER_PX: 0.002 });
const proj = new ViewProjection(layout);

describe('drawProposal', () => {
  const joints = { a: [0.1, -0.25, 0.2], b: [0.1, 0.25, 0.2], c: [0, 0, 0.45] };
  const img = drawProposal(layout, {
    mesh: boxQuadruped(),
    joints,
    confidence: { a: 1, b: 0, c: 0.5 },
    bones: [['ab', 'a', 'b', null]],
    regions: [
      {
        name: 'wing.L',
        centroid: [0.5, 0, 0.5],
        min: [0.3, -0.1, 0.45],
        max: [0.6, 0.1, 0.55],
        share: 0.1,
        attach: 'ab',
      },
    ],
  });

  it('is the layout frame: the studio wall where the mesh is not, the mesh shaded grey where it is', () => {
    expect([img.width, img.height]).toEqual([1280, 720]);
    expect(getPixel(img, 5, 5)).toEqual([128, 130, 134]);
    const torso = getPixel(img, Math.floor(proj.frontU(0.12)), Math.floor(proj.row(0.4)));
    expect(torso[0]).toBeGreaterThanOrEqual(95);
    expect(torso).not.toEqual([128, 130, 134]);
  });

  it('colours each joint by its confidence, in both views (green 1, yellow 0.5, red 0)', () => {
    const at = (u: number, z: number) => getPixel(img, Math.floor(u), Math.floor(proj.row(z)));
    expect(at(proj.sideU(-0.25), 0.2)).toEqual([0, 200, 40]);
    expect(at(proj.sideU(0.25), 0.2)).toEqual([230, 0, 40]);
    expect(at(proj.frontU(0), 0.45)).toEqual([255, 200, 40]);
    expect(at(proj.sideU(0), 0.45)).toEqual([255, 200, 40]);
  });

  it('boxes the unassigned regions in magenta', () => {
    expect(getPixel(img, Math.floor(proj.frontU(0.45)), Math.floor(proj.row(0.55)))).toEqual([220, 60, 220]);
  });
});
