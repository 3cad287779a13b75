import { seededRandom } from '@mocap/anim-loop';
import { type RgbImage, studioBackdrop } from '@mocap/media';
import { clipFrames, unseenFrames, ViewLagFound, type ViewPeaks } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { small, studioFrame } from './studio-clip.js';

const T = 40;
const K = 5;
const F = 6;

/** The clip as it comes: the side view 1 frame behind (its first frame held), fading in from the studio over F frames. */
function degraded(clean: RgbImage[]): RgbImage[] {
  const studio = studioBackdrop(small);
  return clean.map((f, t) => {
    const late = clean[Math.max(0, t - 1)]!;
    const data = f.data.slice();
    for (let y = 0; y < small.HEIGHT; y++) {
      const row = 3 * y * small.WIDTH;
      data.set(late.data.subarray(row + 3 * small.W_FRONT, row + 3 * small.WIDTH), row + 3 * small.W_FRONT);
    }
    const a = t < F ? t / F : 1;
    for (let i = 0; i < data.length; i++)
      data[i] = Math.round(studio.data[i]! + (data[i]! - studio.data[i]!) * a);
    return { width: f.width, height: f.height, data };
  });
}

/** Stage 1's peaks of that clip: rows that move, the side's a frame late (`late`); faint frames' peaks unconfident. */
function peaks(late = 1): ViewPeaks {
  const rng = seededRandom(4);
  const row = (t: number, k: number) => 60 + 10 * k + 6 * Math.sin(0.35 * t + k);
  const frontUv = new Float32Array(2 * T * K);
  const sideUv = new Float32Array(2 * T * K);
  const frontConf = new Float32Array(T * K);
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < K; k++) {
      const i = t * K + k;
      frontUv[2 * i + 1] = row(t, k) + 2 * rng.normal();
      sideUv[2 * i + 1] = row(Math.max(0, t - late), k) + 2 * rng.normal();
      frontConf[i] = t < 2 ? 0.05 : 0.9;
    }
  }
  return { frontUv, sideUv, frontConf, sideConf: frontConf };
}

async function* stream(frames: RgbImage[]): AsyncGenerator<RgbImage> {
  yield* frames;
}

describe('clipFrames', () => {
  it('restores a fade-in and reads the view that runs behind ahead, once stage 1 has the frames it needs', async () => {
    const clean = Array.from({ length: T }, (_, k) => studioFrame(k));
    const track = new Float64Array(4 * T);
    for (let t = 0; t < T; t++) track.set([1, 1, 0, 0], 4 * t);
    const asked: number[] = [];
    const c = await clipFrames(stream(degraded(clean)), small, track, peaks(), K, T, async (t) => {
      asked.push(t);
      return true;
    });
    // the lag is measured on the first 40 frames' peaks (all of this clip), before any frame is read
    expect(asked).toEqual([T - 1]);
    expect(c.lag.frames).toBe(1);
    expect(c.fade.visibility).toHaveLength(F);
    expect(unseenFrames(c.fade)).toBe(2);
    const out: RgbImage[] = [];
    for await (const f of c.frames) out.push(f);
    expect(out).toHaveLength(T);
    const worst = (a: RgbImage, b: RgbImage) => {
      let w = 0;
      for (let i = 0; i < a.data.length; i++) w = Math.max(w, Math.abs(a.data[i]! - b.data[i]!));
      return w;
    };
    // in step and clear from the first restored frame on (the last frame's side view held)
    for (let t = 3; t < T - 1; t++) expect(worst(out[t]!, clean[t]!)).toBeLessThanOrEqual(4);
    expect(worst(out[F + 2]!, clean[F + 2]!)).toBe(0);
  });

  const identity = () => {
    const track = new Float64Array(4 * T);
    for (let t = 0; t < T; t++) track.set([1, 1, 0, 0], 4 * t);
    return track;
  };

  /** Stage 1 as the read meets it: frame t's peaks (and `lead` frames more) in once the read asks for t. */
  function growing(full: ViewPeaks, lead: number) {
    const p = {
      frontUv: [] as number[],
      sideUv: [] as number[],
      frontConf: [] as number[],
      sideConf: [] as number[],
    };
    const asked: number[] = [];
    const ready = async (t: number) => {
      asked.push(t);
      const n = Math.min(T, t + 1 + lead);
      for (const key of ['frontUv', 'sideUv'] as const) p[key] = Array.from(full[key]).slice(0, 2 * n * K);
      for (const key of ['frontConf', 'sideConf'] as const) p[key] = Array.from(full[key]).slice(0, n * K);
      return true;
    };
    return { peaks: p, ready, asked };
  }

  for (const [lead, stops] of [
    [0, T - 1],
    [10, T - 11],
  ] as const) {
    it(`inStep: reads at once and, when the views turn out not in step, stops with the lag as soon as stage 1 has the window (${lead} frames ahead)`, async () => {
      const clean = Array.from({ length: T }, (_, k) => studioFrame(k));
      const stage1 = growing(peaks(), lead);
      const lags: number[] = [];
      const c = await clipFrames(
        stream(degraded(clean)),
        small,
        identity(),
        stage1.peaks,
        K,
        T,
        stage1.ready,
        {
          inStep: true,
          onLag: (lag) => lags.push(lag.frames),
        },
      );
      expect(stage1.asked).toEqual([]);
      expect(c.lag.frames).toBe(0);
      let got = 0;
      const read = async () => {
        for await (const _ of c.frames) got++;
      };
      const err = await read().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ViewLagFound);
      expect((err as ViewLagFound).lag.frames).toBe(1);
      expect(lags).toEqual([1]);
      // frame by frame as stage 1 has them, up to the first whose peaks complete the window (40 frames here)
      expect(stage1.asked).toEqual(Array.from({ length: stops + 1 }, (_, t) => t));
      expect(got).toBe(stops);
    });
  }

  it('inStep: a clip in step gives the frames the waiting read gives, and the lag measured', async () => {
    const clean = Array.from({ length: T }, (_, k) => studioFrame(k));
    const waited = await clipFrames(stream(clean), small, identity(), peaks(0), K, T, async () => true);
    const lags: number[] = [];
    const c = await clipFrames(stream(clean), small, identity(), peaks(0), K, T, async () => true, {
      inStep: true,
      onLag: (lag) => lags.push(lag.frames),
    });
    const a: RgbImage[] = [];
    for await (const f of waited.frames) a.push(f);
    const b: RgbImage[] = [];
    for await (const f of c.frames) b.push(f);
    expect(b).toHaveLength(T);
    for (let t = 0; t < T; t++) expect(Buffer.from(b[t]!.data).equals(Buffer.from(a[t]!.data))).toBe(true);
    expect(lags).toEqual([0]);
    expect(c.lag).toEqual(waited.lag);
  });
});
