import { meshFeatures } from '@mocap/rig-propose/internal';
import { describe, expect, it } from 'vitest';
import { sideMedialPath } from '../src/side-medial-path.js';
import { boxQuadruped } from './synthetic-quadruped.js';

describe('sideMedialPath: the end extremity', () => {
  it("a hanging brush's tip is its lowest back corner, not the middle of its blunt end", () => {
    // The box tail (y 0.35..0.5 at z 0.38..0.42) ends in a brush 8 cm deep hanging to z 0.12.
    const f = meshFeatures(boxQuadruped([[-0.03, 0.46, 0.12, 0.03, 0.54, 0.42]]));
    const m = sideMedialPath(f, 0.3, 0.4, 'back');
    expect(Math.hypot(m.tip[0] - 0.54, m.tip[1] - 0.12)).toBeLessThan(3 * f.grid.size);
    // The end's direction runs down and back.
    expect(m.dir[0]).toBeGreaterThan(0);
    expect(m.dir[1]).toBeLessThan(-0.5);
  });

  it("a straight tail's tip is at its back end and the nose at the head's front", () => {
    const f = meshFeatures(boxQuadruped());
    const tail = sideMedialPath(f, 0, 0.45, 'back');
    expect(Math.abs(tail.tip[0] - 0.5)).toBeLessThan(2 * f.grid.size);
    expect(tail.tip[1]).toBeGreaterThan(0.38 - 2 * f.grid.size);
    expect(tail.tip[1]).toBeLessThan(0.42 + 2 * f.grid.size);
    const head = sideMedialPath(f, -0.3, 0.45, 'front');
    expect(Math.abs(head.tip[0] + 0.5)).toBeLessThan(2 * f.grid.size);
    expect(head.dir[0]).toBeLessThan(0);
  });
});
