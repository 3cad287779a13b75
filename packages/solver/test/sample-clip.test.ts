import type { ClipChannel, SkeletonClip } from '@mocap/solver';
import { sampleChannel, sampleClipWorld } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';

const channel = (c: Omit<ClipChannel, 'node'>): ClipChannel => ({ node: 0, ...c });

describe('sampleChannel', () => {
  it('LINEAR translation: linear between keys, clamped outside them', () => {
    const ch = channel({
      path: 'translation',
      interpolation: 'LINEAR',
      times: Float64Array.of(1, 2),
      values: Float64Array.of(0, 0, 0, 2, 4, 6),
    });
    const out = new Float64Array(3);
    sampleChannel(out, 0, ch, 1.25);
    expect([...out]).toEqual([0.5, 1, 1.5]);
    sampleChannel(out, 0, ch, 0);
    expect([...out]).toEqual([0, 0, 0]);
    sampleChannel(out, 0, ch, 9);
    expect([...out]).toEqual([2, 4, 6]);
  });

  it('LINEAR rotation: slerp along the shorter arc (a key stored with the other sign)', () => {
    const h = Math.PI / 4; // keys: identity and 90 degrees about Z, the second negated
    const ch = channel({
      path: 'rotation',
      interpolation: 'LINEAR',
      times: Float64Array.of(0, 1),
      values: Float64Array.of(0, 0, 0, 1, -0, -0, -Math.sin(h), -Math.cos(h)),
    });
    const out = new Float64Array(4);
    sampleChannel(out, 0, ch, 1 / 3);
    // A third of the way: 30 degrees about +Z.
    const want = [0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)];
    for (let c = 0; c < 4; c++) expect(out[c]).toBeCloseTo(want[c]!, 12);
  });

  it('STEP holds each key until the next', () => {
    const ch = channel({
      path: 'translation',
      interpolation: 'STEP',
      times: Float64Array.of(0, 1, 2),
      values: Float64Array.of(1, 1, 1, 2, 2, 2, 3, 3, 3),
    });
    const out = new Float64Array(3);
    sampleChannel(out, 0, ch, 0.999);
    expect(out[0]).toBe(1);
    sampleChannel(out, 0, ch, 1.5);
    expect(out[0]).toBe(2);
    sampleChannel(out, 0, ch, 2);
    expect(out[0]).toBe(3);
  });

  it('CUBICSPLINE reproduces a cubic from its values and derivatives at the keys', () => {
    // x(t) = t^3 - 2t, keys at 0, 0.5 and 2 (uneven, so the tangents' scaling by the interval shows).
    const p = (t: number) => t ** 3 - 2 * t;
    const d = (t: number) => 3 * t * t - 2;
    const times = Float64Array.of(0, 0.5, 2);
    const values = new Float64Array(times.length * 9);
    times.forEach((t, k) => {
      values.set([d(t), 0, 0], k * 9); // in-tangent
      values.set([p(t), 0, 0], k * 9 + 3); // value
      values.set([d(t), 0, 0], k * 9 + 6); // out-tangent
    });
    const ch = channel({ path: 'translation', interpolation: 'CUBICSPLINE', times, values });
    const out = new Float64Array(3);
    for (const t of [0.1, 0.3, 0.7, 1.2, 1.9]) {
      sampleChannel(out, 0, ch, t);
      expect(out[0]).toBeCloseTo(p(t), 12);
    }
  });
});

describe('sampleClipWorld', () => {
  it('composes the hierarchy: a child turns with its parent', () => {
    const h = Math.PI / 4;
    const clip: SkeletonClip = {
      source: 'two.glb#turn',
      names: ['a', 'b'],
      parent: Int32Array.of(-1, 0),
      restTranslation: Float64Array.of(0, 0, 0, 1, 0, 0),
      restRotation: Float64Array.of(0, 0, 0, 1, 0, 0, 0, 1),
      restScale: Float64Array.of(2, 2, 2, 1, 1, 1),
      bind: new Float64Array(32),
      channels: [
        {
          node: 0,
          path: 'rotation',
          interpolation: 'LINEAR',
          times: Float64Array.of(0, 1),
          values: Float64Array.of(0, 0, 0, 1, 0, 0, Math.sin(h), Math.cos(h)),
        },
      ],
      start: 0,
      end: 1,
    };
    const world = sampleClipWorld(new Float64Array(32), clip, 1);
    // a turned 90 degrees about Z and scaled 2: b's origin (1, 0, 0) lands at (0, 2, 0).
    expect(world[16 + 12]).toBeCloseTo(0, 12);
    expect(world[16 + 13]).toBeCloseTo(2, 12);
    expect(world[16 + 14]).toBeCloseTo(0, 12);
  });
});
