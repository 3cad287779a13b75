import { seededRandom } from '@mocap/anim-loop';
import { createImage, type RgbImage } from '@mocap/media';
import { alignPeaks, alignViews, estimateViewLag, type ViewPeaks } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { small } from './studio-clip.js';

const T = 60;
const K = 6;

/**
 * Keypoint rows that move (a paw lifting, the body bobbing: about 2 px a frame), the side view
 * `lag` frames behind; peaks off by 4 px (sd) as a reader's are, 5% of them 40 px off.
 */
function peaks(lag: number, move = 6, seed = 3): ViewPeaks {
  const rng = seededRandom(seed);
  const row = (t: number, k: number) => 100 + 10 * k + move * Math.sin(0.35 * t + k);
  const jitter = () => 4 * rng.normal() + (rng.next() < 0.05 ? 40 : 0);
  const frontUv = new Float32Array(2 * T * K);
  const sideUv = new Float32Array(2 * T * K);
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < K; k++) {
      const i = t * K + k;
      frontUv[2 * i] = 50 + k;
      frontUv[2 * i + 1] = row(t, k) + jitter();
      sideUv[2 * i] = 200 + k;
      sideUv[2 * i + 1] = row(t - lag, k) + 3 + jitter();
    }
  }
  return {
    frontUv,
    sideUv,
    frontConf: new Float32Array(T * K).fill(0.9),
    sideConf: new Float32Array(T * K).fill(0.9),
  };
}

describe('estimateViewLag', () => {
  for (const lag of [-2, -1, 0, 1, 2]) {
    it(`finds a side view ${lag} frames behind`, () => {
      const r = estimateViewLag(peaks(lag), K, T);
      expect(r.frames).toBe(lag);
      expect(r.gapPx).toHaveLength(7);
      expect(r.window).toEqual([0, T]);
    });
  }

  it('searches no further than an eighth of the frames compared, and takes no lag at the edge of the search', () => {
    const r = estimateViewLag(peaks(2), K, 12);
    expect(r.gapPx).toHaveLength(3);
    // lag 1 disagrees least, but lag 2 could disagree less still
    expect(r.gapPx[2]).toBeLessThan(r.gapPx[1]!);
    expect(r.frames).toBe(0);
    expect(estimateViewLag(peaks(2), K, T, { maxLag: 2 }).frames).toBe(0);
    expect(estimateViewLag(peaks(2), K, 7).gapPx).toHaveLength(1);
  });

  it('keeps the views in step when nothing moves', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8])
      expect(estimateViewLag(peaks(2, 0, seed), K, T).frames).toBe(0);
    expect(estimateViewLag(peaks(2, 0), K, T).frames).toBe(0);
  });

  it('leaves out frames before `first` and peaks under minConf', () => {
    const p = peaks(1);
    // the first 10 frames' side rows are garbage, but unconfident or before `first`
    const bad = { ...p, sideUv: Float32Array.from(p.sideUv, (v, i) => (i < 2 * 10 * K ? 700 - v : v)) };
    expect(estimateViewLag(bad, K, T, { first: 10 }).frames).toBe(1);
    const conf = Float32Array.from(p.sideConf, (c, i) => (i < 10 * K ? 0.05 : c));
    expect(estimateViewLag({ ...bad, sideConf: conf }, K, T).frames).toBe(1);
  });
});

describe('alignPeaks', () => {
  it('reads the view that runs behind ahead, and nothing past the clip', () => {
    const p = peaks(2);
    const a = alignPeaks(p, K, T, 2);
    expect(Array.from(a.frontUv)).toEqual(Array.from(p.frontUv));
    expect(a.sideUv[2 * (5 * K + 3) + 1]).toBe(p.sideUv[2 * (7 * K + 3) + 1]);
    expect(a.sideConf[(T - 2) * K]).toBe(0);
    expect(a.sideUv[2 * (T - 1) * K + 1]).toBeNaN();
    const b = alignPeaks(p, K, T, -1);
    expect(b.frontUv[2 * (5 * K + 3) + 1]).toBe(p.frontUv[2 * (6 * K + 3) + 1]);
    expect(Array.from(b.sideConf)).toEqual(Array.from(p.sideConf));
    expect(estimateViewLag(a, K, T).frames).toBe(0);
  });
});

describe('alignViews', () => {
  /** Frame t: every front pixel 10 + t, every side pixel 100 + t. */
  const frame = (t: number): RgbImage => {
    const img = createImage(small.WIDTH, small.HEIGHT);
    for (let y = 0; y < small.HEIGHT; y++)
      for (let x = 0; x < small.WIDTH; x++)
        img.data.fill(
          x < small.W_FRONT ? 10 + t : 100 + t,
          3 * (y * small.WIDTH + x),
          3 * (y * small.WIDTH + x) + 3,
        );
    return img;
  };
  async function* clip(n: number): AsyncGenerator<RgbImage> {
    for (let t = 0; t < n; t++) yield frame(t);
  }
  const at = (f: RgbImage, x: number) => f.data[3 * (7 * small.WIDTH + x)];

  for (const lag of [2, -1]) {
    it(`composes each frame with the view ${lag} frames behind read ahead`, async () => {
      const out: RgbImage[] = [];
      for await (const f of alignViews(clip(6), lag, small)) out.push(f);
      expect(out).toHaveLength(6);
      const wall = small.colours.wall[0];
      for (const [t, f] of out.entries()) {
        // past the clip's end the view that runs behind shows the empty wall
        const ahead = t + Math.abs(lag);
        const late = (base: number) => (ahead > 5 ? wall : base + ahead);
        expect(at(f, 3)).toBe(lag < 0 ? late(10) : 10 + t);
        expect(at(f, small.W_FRONT + 5)).toBe(lag > 0 ? late(100) : 100 + t);
      }
    });
  }

  it('passes the frames through when in step', async () => {
    const out: RgbImage[] = [];
    for await (const f of alignViews(clip(3), 0, small)) out.push(f);
    expect(out.map((f) => at(f, small.W_FRONT + 5))).toEqual([100, 101, 102]);
  });
});
