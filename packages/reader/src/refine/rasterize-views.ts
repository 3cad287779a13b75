import { type Layout, ViewProjection } from '@mocap/layout';

/**
 * Buffers of a two-view rasterisation at `1 / factor` of the layout's resolution: per pixel the
 * label of the nearest face (0 = backdrop), its depth (front view: world y; side view: world x;
 * smaller is nearer) and the face index (-1 where empty).
 */
export interface RasterTarget {
  /** Layout px per target px (1, 2, 4...). */
  factor: number;
  width: number;
  height: number;
  /** Target column where the side view starts. */
  sideStart: number;
  label: Uint8Array;
  depth: Float32Array;
  face: Int32Array;
  /** Box of the depths the last rasterisation may have written (x0, y0, x1, y1 inclusive; empty when x0 > x1): the next one clears only it. */
  drawn: Int32Array;
  /** The same box for the labels and faces (written by full rasterisations only). */
  labelled: Int32Array;
}

/** A box's start while it holds no pixel. */
const EMPTY = 0x7fffffff;

/**
 * A raster target covering the whole layout frame at `1 / factor` resolution.
 *
 * ```ts
 * const target = createRasterTarget(layout, 2); // 640 x 360
 * ```
 */
export function createRasterTarget(layout: Layout, factor = 1): RasterTarget {
  if (!Number.isInteger(factor) || factor < 1) {
    throw new TypeError(`createRasterTarget: expected a positive integer factor, got ${factor}.`);
  }
  const width = Math.ceil(layout.WIDTH / factor);
  const height = Math.ceil(layout.HEIGHT / factor);
  const n = width * height;
  return {
    factor,
    width,
    height,
    sideStart: Math.round(layout.W_FRONT / factor),
    label: new Uint8Array(n),
    depth: new Float32Array(n).fill(Number.POSITIVE_INFINITY),
    face: new Int32Array(n).fill(-1),
    drawn: Int32Array.of(EMPTY, EMPTY, -1, -1),
    labelled: Int32Array.of(EMPTY, EMPTY, -1, -1),
  };
}

/**
 * Projects N world points (metres) to layout px: `out[3i..3i+2]` = front-view column, side-view
 * column (full-frame) and the shared row. Returns `out`.
 */
export function projectVertices(
  out: Float64Array,
  world: Float64Array,
  n: number,
  layout: Layout,
): Float64Array {
  const proj = new ViewProjection(layout);
  for (let i = 0; i < n; i++) proj.projectTo(out, 3 * i, world[3 * i], world[3 * i + 1], world[3 * i + 2]);
  return out;
}

/**
 * Rasterises a triangle mesh into both orthographic views with a z-buffer: clears `target`, then
 * fills each view's pixels (pixel centres inside a triangle) with the nearest triangle's label,
 * depth and index. `world` is N x 3 metres (e.g. skinned vertices), `proj` their
 * {@link projectVertices}, `labels` one label per triangle. No back-face culling: the views see
 * the mesh from different sides.
 *
 * ```ts
 * projectVertices(proj, verts, mesh.vertexCount, layout);
 * rasterizeViews(target, verts, proj, mesh.indices, faceLabels(mesh.indices, vlabels));
 * ```
 */
export function rasterizeViews(
  target: RasterTarget,
  world: Float64Array,
  proj: Float64Array,
  indices: Uint32Array,
  labels: Uint8Array,
): RasterTarget {
  return rasterize(target, world, proj, indices, labels, true);
}

/**
 * {@link rasterizeViews} writing only the depth buffer (what a visibility test needs): the same
 * depths; `label` and `face` are left as they were. With `cullBackFaces`, triangles facing away
 * from a view (counter-clockwise from the front, glTF's winding) are skipped in it: the same
 * depths for a closed mesh, drawn about half as long (see {@link cullsBackFaces}).
 *
 * ```ts
 * rasterizeDepth(target, verts, proj, mesh.indices);
 * ```
 */
export function rasterizeDepth(
  target: RasterTarget,
  world: Float64Array,
  proj: Float64Array,
  indices: Uint32Array,
  cullBackFaces = false,
): RasterTarget {
  return rasterize(target, world, proj, indices, null, false, cullBackFaces);
}

function rasterize(
  target: RasterTarget,
  world: Float64Array,
  proj: Float64Array,
  indices: Uint32Array,
  labels: Uint8Array | null,
  full: boolean,
  cull = false,
): RasterTarget {
  clearDrawn(target, full);
  const f = indices.length / 3;
  const s = 1 / target.factor;
  for (let t = 0; t < f; t++) {
    const a = indices[3 * t];
    const b = indices[3 * t + 1];
    const c = indices[3 * t + 2];
    const va = proj[3 * a + 2] * s;
    const vb = proj[3 * b + 2] * s;
    const vc = proj[3 * c + 2] * s;
    // front view: u from column 0, depth world y
    const label = labels ? labels[t] : 0;
    drawTriangle(
      target,
      full,
      cull,
      t,
      label,
      0,
      target.sideStart,
      proj[3 * a] * s,
      va,
      world[3 * a + 1],
      proj[3 * b] * s,
      vb,
      world[3 * b + 1],
      proj[3 * c] * s,
      vc,
      world[3 * c + 1],
    );
    // side view: u from column 1, depth world x
    drawTriangle(
      target,
      full,
      cull,
      t,
      label,
      target.sideStart,
      target.width,
      proj[3 * a + 1] * s,
      va,
      world[3 * a],
      proj[3 * b + 1] * s,
      vb,
      world[3 * b],
      proj[3 * c + 1] * s,
      vc,
      world[3 * c],
    );
  }
  return target;
}

/** Clears what the last rasterisations may have written: the depths, and with `full` the labels and faces. */
function clearDrawn(target: RasterTarget, full: boolean): void {
  const w = target.width;
  clearBox(target.drawn, w, (a, b) => target.depth.fill(Number.POSITIVE_INFINITY, a, b));
  if (full)
    clearBox(target.labelled, w, (a, b) => {
      target.label.fill(0, a, b);
      target.face.fill(-1, a, b);
    });
}

/** Calls `clear(start, end)` per row of `box` (x0, y0, x1, y1 inclusive), then empties it. */
function clearBox(box: Int32Array, width: number, clear: (start: number, end: number) => void): void {
  const [x0, y0, x1, y1] = box;
  for (let y = y0; y <= y1 && x0 <= x1; y++) clear(y * width + x0, y * width + x1 + 1);
  box[0] = EMPTY;
  box[1] = EMPTY;
  box[2] = -1;
  box[3] = -1;
}

/** Grows `box` (x0, y0, x1, y1 inclusive) to hold the pixels x0..x1, y0..y1. */
function growBox(box: Int32Array, x0: number, y0: number, x1: number, y1: number): void {
  if (x0 < box[0]) box[0] = x0;
  if (y0 < box[1]) box[1] = y0;
  if (x1 > box[2]) box[2] = x1;
  if (y1 > box[3]) box[3] = y1;
}

function drawTriangle(
  tg: RasterTarget,
  full: boolean,
  cull: boolean,
  face: number,
  label: number,
  x0: number,
  x1: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
): void {
  const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  // both views project with the same handedness: a front face has a negative area in either
  if (area === 0 || !Number.isFinite(area) || (cull && area > 0)) return;
  const inv = 1 / area;
  // pixel (x, y) is drawn when its centre (x + 0.5, y + 0.5) is inside (edges included)
  const minY = Math.max(0, Math.ceil(Math.min(ay, by, cy) - 0.5));
  const maxY = Math.min(tg.height - 1, Math.floor(Math.max(ay, by, cy) - 0.5));
  const minX = Math.max(x0, Math.ceil(Math.min(ax, bx, cx) - 0.5));
  const maxX = Math.min(x1 - 1, Math.floor(Math.max(ax, bx, cx) - 0.5));
  if (minX > maxX || minY > maxY) return;
  growBox(tg.drawn, minX, minY, maxX, maxY);
  if (full) growBox(tg.labelled, minX, minY, maxX, maxY);
  const w = tg.width;
  // the three edges (a->b, b->c, c->a), oriented so the inside is r - k (px - x0) >= 0 with
  // r = dx (py - y0); hoisted out of the row loop (a product with the sign is exact)
  const sg = area > 0 ? 1 : -1;
  const k0 = (by - ay) * sg;
  const k1 = (cy - by) * sg;
  const k2 = (ay - cy) * sg;
  const d0 = (bx - ax) * sg;
  const d1 = (cx - bx) * sg;
  const d2 = (ax - cx) * sg;
  for (let y = minY; y <= maxY; y++) {
    const py = y + 0.5;
    // the span of this row inside the triangle, from the three edges (scanline)
    let lo = minX;
    let hi = maxX;
    const r0 = d0 * (py - ay);
    if (k0 > 0) hi = Math.min(hi, Math.floor(r0 / k0 + ax - 0.5));
    else if (k0 < 0) lo = Math.max(lo, Math.ceil(r0 / k0 + ax - 0.5));
    else if (r0 < 0) continue;
    const r1 = d1 * (py - by);
    if (k1 > 0) hi = Math.min(hi, Math.floor(r1 / k1 + bx - 0.5));
    else if (k1 < 0) lo = Math.max(lo, Math.ceil(r1 / k1 + bx - 0.5));
    else if (r1 < 0) continue;
    const r2 = d2 * (py - cy);
    if (k2 > 0) hi = Math.min(hi, Math.floor(r2 / k2 + cx - 0.5));
    else if (k2 < 0) lo = Math.max(lo, Math.ceil(r2 / k2 + cx - 0.5));
    else if (r2 < 0) continue;
    for (let x = lo; x <= hi; x++) {
      const px = x + 0.5;
      const w0 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) * inv;
      const w1 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) * inv;
      const z = w0 * az + w1 * bz + (1 - w0 - w1) * cz;
      const i = y * w + x;
      if (z < tg.depth[i]) {
        tg.depth[i] = z;
        if (full) {
          tg.label[i] = label;
          tg.face[i] = face;
        }
      }
    }
  }
}
