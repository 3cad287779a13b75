import { type RgbImage, resize } from '@mocap/media';

/**
 * A clip's calibration against the layout: layout u = sx * clip u + tx, v = sy * clip v + ty
 * (continuous px), as det.npz's `calib` holds it, with the fit's photometric gain and offset and
 * its residual (rms grey level, 0-255) at full resolution.
 */
export interface Calibration {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
  gain: number;
  offset: number;
  rms: number;
}

interface Grey {
  w: number;
  h: number;
  d: Float32Array;
}

function toGrey(img: RgbImage): Grey {
  const d = new Float32Array(img.width * img.height);
  for (let i = 0; i < d.length; i++) {
    d[i] = 0.299 * img.data[3 * i]! + 0.587 * img.data[3 * i + 1]! + 0.114 * img.data[3 * i + 2]!;
  }
  return { w: img.width, h: img.height, d };
}

function half(g: Grey): Grey {
  const w = Math.floor(g.w / 2);
  const h = Math.floor(g.h / 2);
  const d = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = 2 * y * g.w + 2 * x;
      d[y * w + x] = 0.25 * (g.d[i]! + g.d[i + 1]! + g.d[i + g.w]! + g.d[i + g.w + 1]!);
    }
  return { w, h, d };
}

function blur(g: Grey): Grey {
  const t = new Float32Array(g.d.length);
  const d = new Float32Array(g.d.length);
  const { w, h } = g;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      t[i] =
        0.25 * g.d[y * w + Math.max(x - 1, 0)]! + 0.5 * g.d[i]! + 0.25 * g.d[y * w + Math.min(x + 1, w - 1)]!;
    }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      d[y * w + x] =
        0.25 * t[Math.max(y - 1, 0) * w + x]! +
        0.5 * t[y * w + x]! +
        0.25 * t[Math.min(y + 1, h - 1) * w + x]!;
    }
  return { w, h, d };
}

/** Bilinear sample at continuous coordinates (pixel i spans [i, i + 1)); NaN outside. */
function sample(g: Grey, u: number, v: number): number {
  const x = u - 0.5;
  const y = v - 0.5;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= g.w || y0 + 1 >= g.h) return Number.NaN;
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * g.w + x0;
  return (
    (g.d[i]! * (1 - fx) + g.d[i + 1]! * fx) * (1 - fy) +
    (g.d[i + g.w]! * (1 - fx) + g.d[i + g.w + 1]! * fx) * fy
  );
}

/** p = [ax, ay, bx, by, gain, offset]: ref(ax x + bx, ay y + by) * gain + offset ~ clip(x, y). */
function cost(ref: Grey, clip: Grey, p: number[], step = 1): number {
  let s = 0;
  let n = 0;
  for (let y = 0; y < clip.h; y += step)
    for (let x = 0; x < clip.w; x += step) {
      const r = sample(ref, p[0]! * (x + 0.5) + p[2]!, p[1]! * (y + 0.5) + p[3]!);
      if (Number.isNaN(r)) continue;
      const e = r * p[4]! + p[5]! - clip.d[y * clip.w + x]!;
      s += e * e;
      n++;
    }
  return n > (clip.w * clip.h * 0.5) / (step * step) ? s / n : Number.POSITIVE_INFINITY;
}

function solve(a: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    if (Math.abs(m[piv]![c]!) < 1e-12) return undefined;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** Gauss-Newton steps with a Levenberg damping on the 6 parameters. */
function refine(ref: Grey, clip: Grey, p: number[], iterations: number, step: number): number[] {
  let best = cost(ref, clip, p, step);
  let lambda = 1e-3;
  for (let it = 0; it < iterations; it++) {
    const H = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
    const g = new Array<number>(6).fill(0);
    for (let y = 0; y < clip.h; y += step)
      for (let x = 0; x < clip.w; x += step) {
        const u = p[0]! * (x + 0.5) + p[2]!;
        const v = p[1]! * (y + 0.5) + p[3]!;
        const r = sample(ref, u, v);
        if (Number.isNaN(r)) continue;
        const gu = 0.5 * (sample(ref, u + 1, v) - sample(ref, u - 1, v));
        const gv = 0.5 * (sample(ref, u, v + 1) - sample(ref, u, v - 1));
        if (Number.isNaN(gu) || Number.isNaN(gv)) continue;
        const e = r * p[4]! + p[5]! - clip.d[y * clip.w + x]!;
        const k = p[4]!;
        const J = [k * gu * (x + 0.5), k * gv * (y + 0.5), k * gu, k * gv, r, 1];
        for (let i = 0; i < 6; i++) {
          g[i]! += J[i]! * e;
          for (let j = 0; j <= i; j++) H[i]![j]! += J[i]! * J[j]!;
        }
      }
    for (let i = 0; i < 6; i++) for (let j = 0; j < i; j++) H[j]![i] = H[i]![j]!;
    let improved = false;
    for (let tries = 0; tries < 6 && !improved; tries++) {
      const Hd = H.map((row, i) => row.map((v, j) => (i === j ? v * (1 + lambda) + 1e-9 : v)));
      const delta = solve(
        Hd,
        g.map((v) => -v),
      );
      if (!delta) break;
      const q = p.map((v, i) => v + delta[i]!);
      const c = cost(ref, clip, q, step);
      if (c < best) {
        const small =
          Math.abs(delta[2]!) + Math.abs(delta[3]!) < 1e-3 &&
          Math.abs(delta[0]!) + Math.abs(delta[1]!) < 1e-6;
        p = q;
        best = c;
        improved = true;
        lambda = Math.max(lambda / 10, 1e-7);
        if (small) return p;
      } else lambda *= 10;
    }
    if (!improved) break;
  }
  return p;
}

/**
 * Estimates how a clip's frame maps onto the layout by aligning it with the reference frame it
 * was generated from (ref.png, in layout px): an axis-aligned scale and shift per axis (plus a
 * grey-level gain and offset for colour drift), fitted coarse to fine (a translation search at
 * the coarsest level, about 40 px on the short side, then damped Gauss-Newton level by level).
 *
 * ```ts
 * const c = estimateCalib(firstFrame, await readPng('runs/wolf/ref/ref.png'));
 * det.calib = Float64Array.of(c.sx, c.sy, c.tx, c.ty);
 * ```
 */
export function estimateCalib(frame: RgbImage, ref: RgbImage): Calibration {
  const sx0 = ref.width / frame.width;
  const sy0 = ref.height / frame.height;
  // The frame at the layout's size: nominal layout coordinates u = sx0 * clip u.
  const nominal =
    frame.width === ref.width && frame.height === ref.height ? frame : resize(frame, ref.width, ref.height);
  const refs: Grey[] = [toGrey(ref)];
  const clips: Grey[] = [toGrey(nominal)];
  // Halve down to about 40 px on the short side (4 levels for 1280 x 720).
  const top = Math.max(0, Math.min(4, Math.floor(Math.log2(Math.min(ref.width, ref.height) / 40))));
  for (let l = 1; l <= top; l++) {
    refs.push(half(refs[l - 1]!));
    clips.push(half(clips[l - 1]!));
  }
  // Translation search at the coarsest level (+-5 px there, +-80 layout px at 1280 x 720).
  const rTop = blur(refs[top]!);
  const cTop = blur(clips[top]!);
  let p = [1, 1, 0, 0, 1, 0];
  let best = Number.POSITIVE_INFINITY;
  for (let dy = -5; dy <= 5; dy++)
    for (let dx = -5; dx <= 5; dx++) {
      const c = cost(rTop, cTop, [1, 1, dx, dy, 1, 0]);
      if (c < best) {
        best = c;
        p = [1, 1, dx, dy, 1, 0];
      }
    }
  for (let l = top; l >= 0; l--) {
    if (l < top) {
      p[2]! *= 2;
      p[3]! *= 2;
    }
    const r = l > 0 ? blur(refs[l]!) : refs[l]!;
    const c = l > 0 ? blur(clips[l]!) : clips[l]!;
    p = refine(r, c, p, l === 0 ? 3 : 10, l === 0 ? 3 : l === 1 ? 2 : 1);
  }
  const rms = Math.sqrt(cost(refs[0]!, clips[0]!, p, 2));
  return { sx: p[0]! * sx0, sy: p[1]! * sy0, tx: p[2]!, ty: p[3]!, gain: p[4]!, offset: p[5]!, rms };
}
