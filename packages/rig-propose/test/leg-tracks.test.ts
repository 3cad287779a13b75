import { legTracks, voxelizeSurface } from '@mocap/rig-propose/internal';
import { describe, expect, it } from 'vitest';
import { boxesMesh, boxQuadruped } from './synthetic-quadruped.js';

describe('legTracks', () => {
  it('finds the four box legs, their feet and where they meet the torso', () => {
    const g = voxelizeSurface(boxQuadruped(), 0.01);
    const legs = legTracks(g, 0.01);
    expect(legs.map((l) => l.leg)).toEqual(['front.L', 'front.R', 'hind.L', 'hind.R']);
    for (const l of legs) {
      const sx = l.leg.endsWith('.L') ? 1 : -1;
      const sy = l.leg.startsWith('front') ? -1 : 1;
      expect(l.x[0]).toBeCloseTo(0.1 * sx, 1);
      expect(l.y[0]).toBeCloseTo(0.25 * sy, 1);
      // The torso's underside is at 0.3 m: the leg ends within two cells of it.
      expect(Math.abs(l.top - 0.3)).toBeLessThanOrEqual(0.02);
      expect(l.toeY).toBeCloseTo(0.25 * sy - 0.03, 1);
    }
  });

  it('refuses a body with no legs reaching the ground, naming the side', () => {
    const g = voxelizeSurface(boxesMesh([[-0.2, -0.5, 0, 0.2, 0.5, 0.4]]), 0.01);
    expect(() => legTracks(g, 0.01)).toThrow(
      /left \(\+X\) side, expected a front and a hind leg reaching the ground/,
    );
  });
});
