import type { ClipChannel, SkeletonClip } from './skeleton-clip.js';

/** The key interval holding `time` (clamped): index `k` of its first key and the fraction `u` into it. */
function keyAt(times: Float64Array, time: number): { k: number; u: number } {
  const last = times.length - 1;
  if (last <= 0 || time <= (times[0] as number)) return { k: 0, u: 0 };
  if (time >= (times[last] as number)) return { k: last, u: 0 };
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= time) lo = mid;
    else hi = mid;
  }
  const t0 = times[lo] as number;
  return { k: lo, u: (time - t0) / ((times[lo + 1] as number) - t0) };
}

/** Spherical interpolation along the shorter arc of XYZW quaternions at `v[a..]` and `v[b..]`. */
function slerp(out: Float64Array, o: number, v: Float64Array, a: number, b: number, u: number): void {
  let d = 0;
  for (let c = 0; c < 4; c++) d += (v[a + c] as number) * (v[b + c] as number);
  const sign = d < 0 ? -1 : 1;
  d *= sign;
  let wa = 1 - u;
  let wb = u;
  // Nearly parallel: the linear blend is exact to float precision and avoids 0 / 0.
  if (d < 1 - 1e-9) {
    const th = Math.acos(Math.min(d, 1));
    const s = Math.sin(th);
    wa = Math.sin((1 - u) * th) / s;
    wb = Math.sin(u * th) / s;
  }
  for (let c = 0; c < 4; c++) out[o + c] = wa * (v[a + c] as number) + sign * wb * (v[b + c] as number);
}

/** Writes channel `ch` at `time` into `out[o..]` (3 or 4 numbers), as glTF defines its samplers. */
export function sampleChannel(out: Float64Array, o: number, ch: ClipChannel, time: number): void {
  const size = ch.path === 'rotation' ? 4 : 3;
  const cubic = ch.interpolation === 'CUBICSPLINE';
  const stride = cubic ? 3 * size : size;
  const vo = cubic ? size : 0;
  const { k, u } = keyAt(ch.times, time);
  if (u === 0 || ch.interpolation === 'STEP') {
    for (let c = 0; c < size; c++) out[o + c] = ch.values[k * stride + vo + c] as number;
  } else if (cubic) {
    // Hermite spline: value, out-tangent of key k; value, in-tangent of key k + 1; tangents per second.
    const dt = (ch.times[k + 1] as number) - (ch.times[k] as number);
    const u2 = u * u;
    const u3 = u2 * u;
    const a = k * stride;
    const b = (k + 1) * stride;
    for (let c = 0; c < size; c++) {
      out[o + c] =
        (2 * u3 - 3 * u2 + 1) * (ch.values[a + size + c] as number) +
        (u3 - 2 * u2 + u) * dt * (ch.values[a + 2 * size + c] as number) +
        (-2 * u3 + 3 * u2) * (ch.values[b + size + c] as number) +
        (u3 - u2) * dt * (ch.values[b + c] as number);
    }
  } else if (size === 4) {
    slerp(out, o, ch.values, k * 4, (k + 1) * 4, u);
  } else {
    for (let c = 0; c < 3; c++) {
      const a = ch.values[k * 3 + c] as number;
      out[o + c] = a + ((ch.values[(k + 1) * 3 + c] as number) - a) * u;
    }
  }
  if (size === 4) {
    const n =
      Math.hypot(out[o] as number, out[o + 1] as number, out[o + 2] as number, out[o + 3] as number) || 1;
    for (let c = 0; c < 4; c++) out[o + c] = (out[o + c] as number) / n;
  }
}

/** Column-major 4 x 4 of translation `t[to..]`, XYZW rotation `q[qo..]` and scale `s[so..]` into `out[oo..]`. */
function trsMatrix(
  out: Float64Array,
  oo: number,
  t: Float64Array,
  to: number,
  q: Float64Array,
  qo: number,
  s: Float64Array,
  so: number,
): void {
  const x = q[qo] as number;
  const y = q[qo + 1] as number;
  const z = q[qo + 2] as number;
  const w = q[qo + 3] as number;
  const sx = s[so] as number;
  const sy = s[so + 1] as number;
  const sz = s[so + 2] as number;
  out[oo] = (1 - 2 * (y * y + z * z)) * sx;
  out[oo + 1] = 2 * (x * y + w * z) * sx;
  out[oo + 2] = 2 * (x * z - w * y) * sx;
  out[oo + 3] = 0;
  out[oo + 4] = 2 * (x * y - w * z) * sy;
  out[oo + 5] = (1 - 2 * (x * x + z * z)) * sy;
  out[oo + 6] = 2 * (y * z + w * x) * sy;
  out[oo + 7] = 0;
  out[oo + 8] = 2 * (x * z + w * y) * sz;
  out[oo + 9] = 2 * (y * z - w * x) * sz;
  out[oo + 10] = (1 - 2 * (x * x + y * y)) * sz;
  out[oo + 11] = 0;
  out[oo + 12] = t[to] as number;
  out[oo + 13] = t[to + 1] as number;
  out[oo + 14] = t[to + 2] as number;
  out[oo + 15] = 1;
}

/** `out[oo..] = a[ao..] * b[bo..]`, column-major 4 x 4 (out must not alias a or b). */
function mul4(out: Float64Array, oo: number, a: Float64Array, ao: number, b: Float64Array, bo: number): void {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += (a[ao + k * 4 + r] as number) * (b[bo + c * 4 + k] as number);
      out[oo + c * 4 + r] = s;
    }
  }
}

/**
 * Every node's world matrix (N x 16, column-major, into `out`) at `time` seconds: the rest
 * transforms with the clip's channels sampled over them (times outside the keys clamp to the
 * first or last key), composed down the hierarchy. Returns `out`.
 *
 * ```ts
 * const world = sampleClipWorld(new Float64Array(clip.names.length * 16), clip, 0.25);
 * ```
 */
export function sampleClipWorld(out: Float64Array, clip: SkeletonClip, time: number): Float64Array {
  const n = clip.names.length;
  const t = Float64Array.from(clip.restTranslation);
  const q = Float64Array.from(clip.restRotation);
  for (const ch of clip.channels) {
    if (ch.path === 'rotation') sampleChannel(q, ch.node * 4, ch, time);
    else sampleChannel(t, ch.node * 3, ch, time);
  }
  const local = new Float64Array(16);
  for (let i = 0; i < n; i++) {
    const p = clip.parent[i] as number;
    if (p < 0) trsMatrix(out, i * 16, t, i * 3, q, i * 4, clip.restScale, i * 3);
    else {
      trsMatrix(local, 0, t, i * 3, q, i * 4, clip.restScale, i * 3);
      mul4(out, i * 16, out, p * 16, local, 0);
    }
  }
  return out;
}
