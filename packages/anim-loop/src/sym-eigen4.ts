/**
 * Eigen-decomposition of a symmetric 4 x 4 matrix by cyclic Jacobi rotations, in place and
 * allocation-free. `a` (16 numbers, symmetric) is destroyed: its diagonal ends as the
 * eigenvalues. `v` receives the eigenvectors as columns (`v[col * 4 + row]`).
 *
 * ```ts
 * symEigen4(n, vectors); // n[0], n[5], n[10], n[15] are the eigenvalues
 * ```
 */
export function symEigen4(a: Float64Array, v: Float64Array): void {
  v.fill(0);
  v[0] = v[5] = v[10] = v[15] = 1;
  for (let sweep = 0; sweep < 64; sweep++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < 4; p++) {
      diag += a[p * 5]! * a[p * 5]!;
      for (let q = p + 1; q < 4; q++) off += a[p * 4 + q]! * a[p * 4 + q]!;
    }
    if (off <= 1e-32 * diag || off === 0) return;
    for (let p = 0; p < 3; p++) {
      for (let q = p + 1; q < 4; q++) {
        const apq = a[p * 4 + q]!;
        if (apq === 0) continue;
        const app = a[p * 5]!,
          aqq = a[q * 5]!;
        // Rotation angle that zeroes a[p][q] (Golub & Van Loan, symmetric Schur 2 x 2).
        const tau = (aqq - app) / (2 * apq);
        const t = Math.sign(tau || 1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t),
          s = t * c;
        for (let r = 0; r < 4; r++) {
          const arp = a[r * 4 + p]!,
            arq = a[r * 4 + q]!;
          a[r * 4 + p] = c * arp - s * arq;
          a[r * 4 + q] = s * arp + c * arq;
        }
        for (let r = 0; r < 4; r++) {
          const apr = a[p * 4 + r]!,
            aqr = a[q * 4 + r]!;
          a[p * 4 + r] = c * apr - s * aqr;
          a[q * 4 + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < 4; r++) {
          const vrp = v[p * 4 + r]!,
            vrq = v[q * 4 + r]!;
          v[p * 4 + r] = c * vrp - s * vrq;
          v[q * 4 + r] = s * vrp + c * vrq;
        }
      }
    }
  }
}
