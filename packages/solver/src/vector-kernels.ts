/**
 * The element-wise loops of the fit's solvers, each in a function of its own: a small function
 * is optimised after a few calls, where the same loop inside a long solver function runs
 * unoptimised until the whole function is compiled (on-stack replacement), which in a fresh
 * process is most of a short clip's fit. Each does the same floating-point operations, in the
 * same order, as the loop it replaces.
 */

/** The dot product of the first `len` entries of `a` and `b`. */
export function dot(a: Float64Array, b: Float64Array, len: number): number {
  let s = 0;
  for (let i = 0; i < len; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** `out[i] = -a[i]` for the first `len` entries (in place when `out` is `a`). */
export function negate(out: Float64Array, a: Float64Array, len: number): void {
  for (let i = 0; i < len; i++) out[i] = -(a[i] as number);
}

/** `out += mu * damp .* v` over the first `len` entries (the Levenberg-Marquardt damping). */
export function addDamped(
  out: Float64Array,
  v: Float64Array,
  damp: Float64Array,
  mu: number,
  len: number,
): void {
  for (let i = 0; i < len; i++) out[i] = (out[i] as number) + mu * (damp[i] as number) * (v[i] as number);
}

/** {@link addDamped} of `p` into `hp`, returning `p . hp` (after the addition) from the same pass. */
export function addDampedDot(
  hp: Float64Array,
  p: Float64Array,
  damp: Float64Array,
  mu: number,
  len: number,
): number {
  let php = 0;
  for (let i = 0; i < len; i++) {
    const h = (hp[i] as number) + mu * (damp[i] as number) * (p[i] as number);
    hp[i] = h;
    php += (p[i] as number) * h;
  }
  return php;
}

/**
 * One conjugate-gradient update: `d += alpha p`, `r -= alpha hp`; returns the new `r . r`.
 */
export function cgUpdate(
  d: Float64Array,
  r: Float64Array,
  p: Float64Array,
  hp: Float64Array,
  alpha: number,
  len: number,
): number {
  let rr = 0;
  for (let i = 0; i < len; i++) {
    d[i] = (d[i] as number) + alpha * (p[i] as number);
    const ri = (r[i] as number) - alpha * (hp[i] as number);
    r[i] = ri;
    rr += ri * ri;
  }
  return rr;
}

/** `p = z + beta p` over the first `len` entries (the next search direction). */
export function nextDirection(p: Float64Array, z: Float64Array, beta: number, len: number): void {
  for (let i = 0; i < len; i++) p[i] = (z[i] as number) + beta * (p[i] as number);
}

/** `out[i] = a[i] - b[i]` over the first `len` entries. */
export function subtract(out: Float64Array, a: Float64Array, b: Float64Array, len: number): void {
  for (let i = 0; i < len; i++) out[i] = (a[i] as number) - (b[i] as number);
}

/** `out[i] += a[i]` over the first `len` entries. */
export function addInto(out: Float64Array, a: Float64Array, len: number): void {
  for (let i = 0; i < len; i++) out[i] = (out[i] as number) + (a[i] as number);
}
