import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  backdropColours,
  backdropGains,
  fitColourModel,
  segmentImage,
  studioColours,
} from '@mocap/reader/internal';
import { beforeAll, describe, expect, it } from 'vitest';
import { drift, PAINT, syntheticFrame } from './synthetic-frame.js';

const L = DEFAULT_LAYOUT;

function recall(pred: Uint8Array, truth: Uint8Array, classes: number) {
  const hit = new Float64Array(classes);
  const all = new Float64Array(classes);
  let ok = 0;
  for (let i = 0; i < truth.length; i++) {
    all[truth[i]]++;
    if (pred[i] === truth[i]) {
      hit[truth[i]]++;
      ok++;
    }
  }
  return { overall: ok / truth.length, perClass: Array.from(hit, (h, c) => h / all[c]) };
}

describe('backdropGains', () => {
  it('recovers a per-channel gain from the wall and floor medians', () => {
    const { image } = syntheticFrame(L, 4);
    const shifted = drift(image, [1.1, 0.95, 0.8], 1, 0, 1);
    const g = backdropGains(new Float64Array(3), backdropColours(shifted, L), studioColours(L));
    expect(g[0]).toBeCloseTo(1 / 1.1, 2);
    expect(g[1]).toBeCloseTo(1 / 0.95, 2);
    expect(g[2]).toBeCloseTo(1 / 0.8, 2);
  });

  it('names the frame size it expected', () => {
    expect(() => backdropColours({ width: 10, height: 10, data: new Uint8Array(300) }, L)).toThrow(
      /1280 x 720.*10 x 10/,
    );
  });
});

describe('fitColourModel + segmentImage', () => {
  let model: ReturnType<typeof fitColourModel>;
  beforeAll(() => {
    model = fitColourModel([syntheticFrame(L, 1), syntheticFrame(L, 2)], L, { seed: 3 });
  });

  it('labels an unseen clean frame: >= 99% of pixels, every class >= 95%', () => {
    const t = syntheticFrame(L, 5);
    const r = recall(segmentImage(new Uint8Array(t.labels.length), model, t.image, L), t.labels, 6);
    expect(r.overall).toBeGreaterThan(0.99);
    for (const c of r.perClass) expect(c).toBeGreaterThan(0.95);
  });

  it('holds under video-like colour drift (gain 1.12/0.92/0.85, gamma 1.1, noise 3)', () => {
    const t = syntheticFrame(L, 6);
    const shifted = drift(t.image, [1.12, 0.92, 0.85], 1.1, 3, 9);
    const r = recall(segmentImage(new Uint8Array(t.labels.length), model, shifted, L), t.labels, 6);
    expect(r.overall).toBeGreaterThan(0.98);
    for (const c of r.perClass) expect(c).toBeGreaterThan(0.93);
    // the backdrop normalisation is what carries it: without it the same drift costs far more
    const raw = recall(
      segmentImage(new Uint8Array(t.labels.length), model, shifted, L, [1, 1, 1]),
      t.labels,
      6,
    );
    expect(Math.min(...raw.perClass)).toBeLessThan(Math.min(...r.perClass));
  });

  it('classifies only the given regions, the same as the whole frame there, backdrop elsewhere', () => {
    const t = syntheticFrame(L, 5);
    const full = segmentImage(new Uint8Array(t.labels.length), model, t.image, L);
    const regions = [
      { x0: 30, x1: 300, y0: 200, y1: 650 },
      { x0: 600, x1: 1100.5, y0: 150, y1: 720 },
    ];
    const part = segmentImage(new Uint8Array(t.labels.length).fill(9), model, t.image, L, null, regions);
    for (let y = 0; y < L.HEIGHT; y++) {
      for (let x = 0; x < L.WIDTH; x++) {
        const inside = regions.some(
          (r) => x >= Math.floor(r.x0) && x < Math.ceil(r.x1) && y >= r.y0 && y < r.y1,
        );
        const i = y * L.WIDTH + x;
        if (part[i] !== (inside ? full[i] : 0)) throw new Error(`pixel ${x}, ${y}: ${part[i]} vs ${full[i]}`);
      }
    }
  });

  it('learns a paint group the training frame hides from its colour (paintColours)', () => {
    // The training frame without its green leg (label 4): those pixels become the wall.
    const src = syntheticFrame(L, 1);
    const image = { ...src.image, data: Uint8Array.from(src.image.data) };
    const labels = Uint8Array.from(src.labels);
    const wall = L.colours.wall;
    for (let i = 0; i < labels.length; i++) {
      if (labels[i] !== 4) continue;
      labels[i] = 0;
      for (let c = 0; c < 3; c++) image.data[3 * i + c] = wall[c] as number;
    }
    const t = syntheticFrame(L, 5);
    const seg = (m: ReturnType<typeof fitColourModel>) =>
      recall(segmentImage(new Uint8Array(t.labels.length), m, t.image, L), t.labels, 6);
    const blind = seg(fitColourModel([{ image, labels }], L, { seed: 3 }));
    const told = seg(fitColourModel([{ image, labels }], L, { seed: 3, paintColours: PAINT }));
    expect(blind.perClass[4]).toBeLessThan(0.5);
    expect(told.perClass[4]).toBeGreaterThan(0.9);
    for (const c of [0, 1, 2, 3, 5]) expect(told.perClass[c]).toBeGreaterThan(0.95);
  });

  it('learns a paint group shown only as a thin outline from its colour, not from the outline', () => {
    // The green leg (label 4) keeps 600 labelled pixels, each half leg and half body colour (a
    // sliver of a leg behind another is mostly outline); the rest of it becomes the wall.
    const src = syntheticFrame(L, 1);
    const image = { ...src.image, data: Uint8Array.from(src.image.data) };
    const labels = Uint8Array.from(src.labels);
    const wall = L.colours.wall;
    const body = src.labels.indexOf(1);
    let kept = 0;
    for (let i = 0; i < labels.length; i++) {
      if (labels[i] !== 4) continue;
      const keep = kept++ < 600;
      if (!keep) labels[i] = 0;
      for (let c = 0; c < 3; c++) {
        const v = image.data[3 * i + c] as number;
        image.data[3 * i + c] = keep
          ? (v + (src.image.data[3 * body + c] as number)) / 2
          : (wall[c] as number);
      }
    }
    const t = syntheticFrame(L, 5);
    const seg = (m: ReturnType<typeof fitColourModel>) =>
      recall(segmentImage(new Uint8Array(t.labels.length), m, t.image, L), t.labels, 6);
    const fit = (o: object) => fitColourModel([{ image, labels }], L, { seed: 3, paintColours: PAINT, ...o });
    const outline = seg(fit({ minPaintPixels: 200 }));
    const told = seg(fit({}));
    expect(outline.perClass[4]).toBeLessThan(0.5);
    expect(told.perClass[4]).toBeGreaterThan(0.9);
    for (const c of [0, 1, 2, 3, 5]) expect(told.perClass[c]).toBeGreaterThan(0.95);
  });

  it('is deterministic for a seed, and the seed matters', () => {
    const frames = [syntheticFrame(L, 1)];
    const o = { samplesPerClass: 400, augmentations: 2, lutBits: 5, seed: 3 };
    const a = fitColourModel(frames, L, o);
    const b = fitColourModel(frames, L, o);
    const c = fitColourModel(frames, L, { ...o, seed: 4 });
    expect(Buffer.from(a.lut).equals(Buffer.from(b.lut))).toBe(true);
    expect(Buffer.from(a.lut).equals(Buffer.from(c.lut))).toBe(false);
  });

  it('names the sample whose labels do not fit its image', () => {
    const f = syntheticFrame(L, 1);
    expect(() => fitColourModel([f, { image: f.image, labels: new Uint8Array(5) }], L)).toThrow(
      /fitColourModel: samples\[1\]\.labels: 5 labels for a 1280 x 720 image/,
    );
  });
});
