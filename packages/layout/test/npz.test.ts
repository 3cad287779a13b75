import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type NpyArray, readNpz, writeNpz } from '@mocap/layout';
import { decodeNpy, decodeNpz, encodeNpy, encodeNpz } from '@mocap/layout/internal';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { runPython } from './numpy.js';

const temp = tempDirs();

const arrays: Record<string, NpyArray> = {
  f4: {
    dtype: 'float32',
    shape: [2, 3, 2],
    data: Float32Array.from({ length: 12 }, (_, i) => i * 0.5 - 2.25),
  },
  f8: { dtype: 'float64', shape: [3], data: Float64Array.of(Math.PI, -1e-300, 1e300) },
  i4: { dtype: 'int32', shape: [2, 2], data: Int32Array.of(-2147483648, 0, 7, 2147483647) },
  i8: { dtype: 'int64', shape: [2], data: BigInt64Array.of(-(2n ** 62n), 2n ** 62n + 5n) },
  b: { dtype: 'bool', shape: [3], data: Uint8Array.of(1, 0, 1) },
  s: { dtype: 'unicode', shape: [3], data: ['fpaw.L', 'htoe.R', 'λ-jaw'] },
  scalar: { dtype: 'float64', shape: [], data: Float64Array.of(30) },
};

/** Python that prints every array of an npz as JSON: {name: [dtype, shape, flat values]}. */
const DUMP = `
import json, sys, numpy as np
z = np.load(sys.argv[1])
out = {}
for k in z.files:
    a = z[k]
    vals = [str(v) if a.dtype.kind in 'iU' else (bool(v) if a.dtype.kind == 'b' else float(v)) for v in a.ravel()]
    out[k] = [a.dtype.str, list(a.shape), vals, bool(a.flags['C_CONTIGUOUS'])]
print(json.dumps(out))
`;

function flat(a: NpyArray): unknown[] {
  if (a.dtype === 'unicode') return a.data;
  if (a.dtype === 'int32' || a.dtype === 'int64')
    return Array.from(a.data as ArrayLike<number | bigint>, String);
  if (a.dtype === 'bool') return Array.from(a.data, Boolean);
  return Array.from(a.data as ArrayLike<number>);
}

const STR: Record<string, string> = {
  float32: '<f4',
  float64: '<f8',
  int32: '<i4',
  int64: '<i8',
  bool: '|b1',
};

describe('npy / npz codec', () => {
  it('round-trips every dtype in memory', () => {
    for (const [k, a] of Object.entries(arrays)) {
      const back = decodeNpy(encodeNpy(a), k);
      expect(back.dtype).toBe(a.dtype);
      expect(back.shape).toEqual(a.shape);
      expect(flat(back)).toEqual(flat(a));
    }
    for (const compressed of [false, true]) {
      const back = decodeNpz(encodeNpz(arrays, { compressed }));
      expect(Object.keys(back)).toEqual(Object.keys(arrays));
    }
  });

  for (const compressed of [false, true]) {
    it(`writes files NumPy loads with identical values and dtypes (${compressed ? 'deflated' : 'stored'})`, async () => {
      const dir = await temp.make('mocap-npz-');
      const file = path.join(dir, 'out.npz');
      await writeNpz(file, arrays, { compressed });
      const got = JSON.parse(runPython(DUMP, [file])) as Record<
        string,
        [string, number[], unknown[], boolean]
      >;
      for (const [k, a] of Object.entries(arrays)) {
        const [dt, shape, vals, c] = got[k] as [string, number[], unknown[], boolean];
        if (a.dtype === 'unicode') expect(dt).toMatch(/^<U\d+$/);
        else expect(dt).toBe(STR[a.dtype]);
        expect(shape).toEqual(a.shape);
        expect(vals).toEqual(flat(a));
        expect(c).toBe(true);
      }
    });
  }

  for (const fn of ['savez', 'savez_compressed']) {
    it(`reads what np.${fn} writes`, async () => {
      const dir = await temp.make('mocap-npz-');
      const file = path.join(dir, 'np.npz');
      runPython(
        `
import sys, numpy as np
np.${fn}(sys.argv[1],
  f4=np.arange(12, dtype=np.float32).reshape(2, 3, 2) * 0.5 - 2.25,
  f8=np.array([np.pi, -1e-300, 1e300]),
  i4=np.array([[-2147483648, 0], [7, 2147483647]], dtype=np.int32),
  i8=np.array([-(2**62), 2**62 + 5], dtype=np.int64),
  b=np.array([True, False, True]),
  s=np.array(['fpaw.L', 'htoe.R', 'λ-jaw']),
  scalar=np.float64(30),
  big=np.arange(6, dtype='>i4'))
`,
        [file],
      );
      const z = await readNpz(file);
      for (const [k, a] of Object.entries(arrays)) {
        expect(z[k]?.dtype, k).toBe(a.dtype);
        expect(z[k]?.shape, k).toEqual(a.shape);
        expect(flat(z[k] as NpyArray), k).toEqual(flat(a));
      }
      expect(Array.from(z.big?.data as Int32Array)).toEqual([0, 1, 2, 3, 4, 5]);
    });
  }

  it('names the file in its errors', async () => {
    const dir = await temp.make('mocap-npz-');
    const file = path.join(dir, 'bad.npz');
    await writeFile(file, 'not a zip at all, just text');
    await expect(readNpz(file)).rejects.toThrow(/bad\.npz: not a zip archive/);
    await expect(readNpz(path.join(dir, 'missing.npz'))).rejects.toThrow(
      /missing\.npz: cannot read \(ENOENT\)/,
    );
    expect(() => decodeNpy(new Uint8Array(4), 'x')).toThrow(/npy: x: not a \.npy file/);
  });

  it('rejects data that does not fill its shape', () => {
    expect(() => encodeNpy({ dtype: 'float32', shape: [2, 2], data: new Float32Array(3) })).toThrow(
      /needs 4 values, got 3/,
    );
  });
});
