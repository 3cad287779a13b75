/**
 * The cover term's correspondences: each observed boundary point paired with the nearest (in
 * layout px) visible model sample of its channel and view. Holds the pairs found since the last
 * {@link CoverCorrespondences.clear} and the sort scratch for up to `samples` candidates.
 */
export class CoverCorrespondences {
  /** Pair k: `pairs[2k]` the sample, `pairs[2k + 1]` its view + 2 x channel. */
  pairs = new Int32Array(1024);
  /** Pair k's observed boundary point: `points[2k]`, `points[2k + 1]` (layout px). */
  points = new Float64Array(2048);
  /** Number of pairs. */
  count = 0;
  private readonly sortU: Float64Array;
  private readonly sortIdx: Int32Array;
  private readonly sortV: Float64Array;
  private readonly sortQ: Int32Array;
  private bucket = new Int32Array(0);

  constructor(samples: number) {
    this.sortU = new Float64Array(samples);
    this.sortIdx = new Int32Array(samples);
    this.sortV = new Float64Array(samples);
    this.sortQ = new Int32Array(samples);
  }

  /** Forgets every pair. */
  clear(): void {
    this.count = 0;
  }

  /**
   * Pairs each of `pts` (x, y pairs, layout px) with the nearest of the candidate samples `cand`
   * (in sample order) projected by `sproj` (S x 3: front u, side u, v) into `view`, for channel `c`.
   */
  match(sproj: Float64Array, cand: Int32Array, view: number, c: number, pts: Float64Array): void {
    const n = cand.length;
    if (!n || !pts.length) return;
    // candidates sorted by column: each query scans outward until the column gap alone exceeds its best
    const us = this.sortU;
    const order = this.sortIdx;
    const vs = this.sortV;
    // ordered by (column to 1/16 px, sample): a stable counting sort of the quantised columns
    // (candidates come in sample order); a packed-float sort when the columns spread too far
    const qs = this.sortQ;
    let qmin = Number.POSITIVE_INFINITY;
    let qmax = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < n; k++) {
      const q = Math.floor(Math.min(Math.max(sproj[3 * cand[k] + view] + 4096, 0), 65535) * 16);
      qs[k] = q;
      if (q < qmin) qmin = q;
      if (q > qmax) qmax = q;
    }
    const range = qmax - qmin + 1;
    if (range <= 8 * n + 4096) {
      if (this.bucket.length < range + 1) this.bucket = new Int32Array(range + 1);
      const counts = this.bucket;
      counts.fill(0, 0, range + 1);
      for (let k = 0; k < n; k++) counts[qs[k] - qmin + 1]++;
      for (let b = 1; b <= range; b++) counts[b] += counts[b - 1];
      for (let k = 0; k < n; k++) order[counts[qs[k] - qmin]++] = cand[k];
    } else {
      // (column, sample) packed in one float: native numeric sort, no comparator
      const keys = us.subarray(0, n);
      for (let k = 0; k < n; k++) keys[k] = qs[k] * 1048576 + cand[k];
      keys.sort();
      for (let k = 0; k < n; k++) order[k] = keys[k] % 1048576;
    }
    for (let k = 0; k < n; k++) {
      us[k] = sproj[3 * order[k] + view];
      vs[k] = sproj[3 * order[k] + 2];
    }
    for (let p = 0; p < pts.length / 2; p++) {
      const qu = pts[2 * p];
      const qv = pts[2 * p + 1];
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (us[mid] < qu) lo = mid + 1;
        else hi = mid;
      }
      let best = order[Math.min(lo, n - 1)];
      let bestD = Number.POSITIVE_INFINITY;
      // keys order the columns to 1/16 px: the stop test allows that much slack
      for (let k = lo; k < n; k++) {
        const du = us[k] - qu;
        const gap = Math.max(0, du - 0.0625);
        if (gap * gap >= bestD) break;
        const dv = vs[k] - qv;
        const d = du * du + dv * dv;
        if (d < bestD) {
          bestD = d;
          best = order[k];
        }
      }
      for (let k = lo - 1; k >= 0; k--) {
        const du = qu - us[k];
        const gap = Math.max(0, du - 0.0625);
        if (gap * gap >= bestD) break;
        const dv = vs[k] - qv;
        const d = du * du + dv * dv;
        if (d < bestD) {
          bestD = d;
          best = order[k];
        }
      }
      this.push(best, view + 2 * c, qu, qv);
    }
  }

  private push(s: number, view: number, qu: number, qv: number): void {
    if (2 * this.count + 2 > this.pairs.length) {
      const c = new Int32Array(this.pairs.length * 2);
      c.set(this.pairs);
      this.pairs = c;
      const p = new Float64Array(this.points.length * 2);
      p.set(this.points);
      this.points = p;
    }
    this.pairs[2 * this.count] = s;
    this.pairs[2 * this.count + 1] = view;
    this.points[2 * this.count] = qu;
    this.points[2 * this.count + 1] = qv;
    this.count++;
  }
}
