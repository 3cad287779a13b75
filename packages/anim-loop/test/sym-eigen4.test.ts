import { symEigen4 } from '@mocap/anim-loop/internal';
import fc from 'fast-check';
import { eigs } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { num } from './util.js';

describe('symEigen4 against mathjs eigs', () => {
  it('eigenvalues agree to 1e-10 and A v = lambda v', () => {
    fc.assert(
      fc.property(fc.array(num(-3, 3), { minLength: 10, maxLength: 10 }), (u) => {
        const rows = [
          [u[0]!, u[1]!, u[2]!, u[3]!],
          [u[1]!, u[4]!, u[5]!, u[6]!],
          [u[2]!, u[5]!, u[7]!, u[8]!],
          [u[3]!, u[6]!, u[8]!, u[9]!],
        ];
        const a = new Float64Array(rows.flat());
        const v = new Float64Array(16);
        symEigen4(a, v);
        const ours = [a[0]!, a[5]!, a[10]!, a[15]!].sort((x, y) => x - y);
        const theirs = (eigs(rows).values as number[]).slice().sort((x, y) => x - y);
        ours.forEach((x, i) => {
          expect(Math.abs(x - theirs[i]!)).toBeLessThan(1e-10);
        });
        for (let e = 0; e < 4; e++) {
          const lambda = a[e * 5]!;
          for (let r = 0; r < 4; r++) {
            let av = 0;
            for (let c = 0; c < 4; c++) av += rows[r]![c]! * v[e * 4 + c]!;
            expect(Math.abs(av - lambda * v[e * 4 + r]!)).toBeLessThan(1e-10);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
