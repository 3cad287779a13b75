/** A triangle mesh under construction: positions, normals, UVs (Blender's frame: Z up, -Y forward). */
export class MeshBuilder {
  readonly positions: number[] = [];
  readonly normals: number[] = [];
  readonly uvs: number[] = [];
  readonly indices: number[] = [];

  /** Adds a vertex and returns its index. */
  vertex(p: readonly number[], n: readonly number[], uv: readonly number[]): number {
    const len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    this.positions.push(p[0]!, p[1]!, p[2]!);
    this.normals.push(n[0]! / len, n[1]! / len, n[2]! / len);
    this.uvs.push(uv[0]!, uv[1]!);
    return this.positions.length / 3 - 1;
  }

  triangle(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  get vertexCount(): number {
    return this.positions.length / 3;
  }
}

type V3 = [number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V3, b: V3, s = 1): V3 => [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** One control point of a tube: centre, half-width (across) and half-height (up). */
export interface TubePoint {
  p: V3;
  r: number;
  /** Height over width of the cross-section. @default 1 */
  aspect?: number;
}

/**
 * Sweeps an elliptical tube through `points` (linearly interpolated, `step` metres between rings,
 * `sides` vertices per ring), closed by cone caps that reach `capStart`/`capEnd` metres beyond the
 * ends. The ring's "up" is world +Z carried along the path (world -Y where the path is vertical).
 * UVs: u around (0 on top, 0.5 underneath), v along the path scaled by `vScale`.
 */
export function addTube(
  mb: MeshBuilder,
  points: TubePoint[],
  opts: {
    sides: number;
    step: number;
    capStart?: number;
    capEnd?: number;
    vOffset?: number;
    vScale?: number;
  },
): void {
  const rings: { c: V3; t: V3; r: number; a: number; s: number }[] = [];
  let s = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const d = sub(b.p, a.p);
    const len = Math.hypot(d[0], d[1], d[2]);
    const n = Math.max(1, Math.ceil(len / opts.step));
    for (let k = i === 0 ? 0 : 1; k <= n; k++) {
      const f = k / n;
      rings.push({
        c: add(a.p, d, f),
        t: norm(d),
        r: a.r + (b.r - a.r) * f,
        a: (a.aspect ?? 1) + ((b.aspect ?? 1) - (a.aspect ?? 1)) * f,
        s: s + len * f,
      });
    }
    s += len;
  }
  // Smooth tangents at the joints between segments.
  for (let i = 1; i + 1 < rings.length; i++) {
    rings[i]!.t = norm(sub(rings[i + 1]!.c, rings[i - 1]!.c));
  }
  const first = rings[0]!.t;
  let up: V3 = Math.abs(first[2]) > 0.9 ? [0, -1, 0] : [0, 0, 1];
  const sides = opts.sides;
  const vScale = opts.vScale ?? 1;
  const v0 = opts.vOffset ?? 0;
  const start = mb.vertexCount;
  for (const ring of rings) {
    up = norm(
      sub(up, [ring.t[0] * dot(up, ring.t), ring.t[1] * dot(up, ring.t), ring.t[2] * dot(up, ring.t)]),
    );
    const side = cross(ring.t, up);
    for (let k = 0; k <= sides; k++) {
      const th = (2 * Math.PI * k) / sides;
      const c = Math.cos(th);
      const sn = Math.sin(th);
      const off = add(add([0, 0, 0], up, c * ring.r * ring.a), side, sn * ring.r);
      const nrm = add(add([0, 0, 0], up, c / ring.a), side, sn);
      mb.vertex(add(ring.c, off), nrm, [k / sides, v0 + ring.s * vScale]);
    }
  }
  const per = sides + 1;
  for (let i = 0; i + 1 < rings.length; i++) {
    for (let k = 0; k < sides; k++) {
      const a = start + i * per + k;
      const b = a + 1;
      const c = a + per;
      const d = c + 1;
      mb.triangle(a, b, c);
      mb.triangle(b, d, c);
    }
  }
  const cap = (ring: (typeof rings)[number], dir: 1 | -1, reach: number, base: number) => {
    const tip = mb.vertex(add(ring.c, ring.t, dir * reach), add([0, 0, 0], ring.t, dir), [
      0.5,
      v0 + ring.s * vScale,
    ]);
    for (let k = 0; k < sides; k++) {
      if (dir > 0) mb.triangle(base + k + 1, tip, base + k);
      else mb.triangle(base + k, tip, base + k + 1);
    }
  };
  cap(rings[0]!, -1, opts.capStart ?? 0, start);
  cap(rings[rings.length - 1]!, 1, opts.capEnd ?? 0, start + (rings.length - 1) * per);
}

/** Adds a flat two-sided membrane: a triangle fan from `points[0]` over the rest, offset by +-`half`. */
export function addMembrane(
  mb: MeshBuilder,
  points: V3[],
  half: number,
  uvAt: (p: V3) => [number, number],
): void {
  const centre = points[0]!;
  const n = norm(cross(sub(points[1]!, centre), sub(points[points.length - 1]!, centre)));
  for (const sgn of [1, -1] as const) {
    const idx = points.map((p) =>
      mb.vertex(add(p, n, sgn * half), [n[0] * sgn, n[1] * sgn, n[2] * sgn], uvAt(p)),
    );
    for (let i = 1; i + 1 < idx.length; i++) {
      if (sgn > 0) mb.triangle(idx[0]!, idx[i + 1]!, idx[i]!);
      else mb.triangle(idx[0]!, idx[i]!, idx[i + 1]!);
    }
  }
}
