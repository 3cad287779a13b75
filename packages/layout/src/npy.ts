/** The dtypes the codec reads and writes, by NumPy's name. */
export type NpyDtype = 'float32' | 'float64' | 'int32' | 'int64' | 'uint8' | 'bool' | 'unicode';

/** A NumPy array in C order: its dtype, shape and flat data. */
export type NpyArray =
  | { dtype: 'float32'; shape: number[]; data: Float32Array }
  | { dtype: 'float64'; shape: number[]; data: Float64Array }
  | { dtype: 'int32'; shape: number[]; data: Int32Array }
  | { dtype: 'int64'; shape: number[]; data: BigInt64Array }
  | { dtype: 'uint8'; shape: number[]; data: Uint8Array }
  | { dtype: 'bool'; shape: number[]; data: Uint8Array }
  | { dtype: 'unicode'; shape: number[]; data: string[] };

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

const DESCR: Record<Exclude<NpyDtype, 'unicode'>, [string, number]> = {
  float32: ['<f4', 4],
  float64: ['<f8', 8],
  int32: ['<i4', 4],
  int64: ['<i8', 8],
  uint8: ['|u1', 1],
  bool: ['|b1', 1],
};

/** Number of elements of a shape (1 for a scalar, shape `[]`). */
export function shapeSize(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/**
 * Encodes an array as a `.npy` file (format 1.0, or 2.0 for huge headers; C order, little-endian).
 *
 * ```ts
 * const bytes = encodeNpy({ dtype: 'float32', shape: [2, 2], data: new Float32Array(4) });
 * ```
 */
export function encodeNpy(arr: NpyArray): Uint8Array {
  const n = shapeSize(arr.shape);
  if (arr.data.length !== n) {
    throw new RangeError(`npy: shape [${arr.shape.join(', ')}] needs ${n} values, got ${arr.data.length}.`);
  }
  let descr: string;
  let body: Uint8Array;
  if (arr.dtype === 'unicode') {
    let width = 1;
    const points = arr.data.map((s) => Array.from(s, (c) => c.codePointAt(0) as number));
    for (const p of points) width = Math.max(width, p.length);
    descr = `<U${width}`;
    const u32 = new Uint32Array(n * width);
    for (let i = 0; i < points.length; i++) u32.set(points[i] as number[], i * width);
    body = new Uint8Array(u32.buffer);
  } else {
    descr = DESCR[arr.dtype][0];
    const d = arr.data;
    body = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
  }
  const shape = arr.shape.length === 1 ? `(${arr.shape[0]},)` : `(${arr.shape.join(', ')})`;
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  let version = 1;
  let pre = 10;
  let total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  if (total - pre > 0xffff) {
    version = 2;
    pre = 12;
    total = Math.ceil((pre + dict.length + 1) / 64) * 64;
  }
  const header = `${dict}${' '.repeat(total - pre - dict.length - 1)}\n`;
  const out = new Uint8Array(total + body.byteLength);
  out.set(MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const dv = new DataView(out.buffer);
  if (version === 1) dv.setUint16(8, header.length, true);
  else dv.setUint32(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  out.set(body, total);
  return out;
}

/**
 * Decodes a `.npy` file (formats 1.0-3.0; C order; the dtypes of {@link NpyDtype}, either byte
 * order). `name` is used in error messages.
 */
export function decodeNpy(bytes: Uint8Array, name = 'array'): NpyArray {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b))
    throw new Error(`npy: ${name}: not a .npy file.`);
  const version = bytes[6] as number;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pre = version === 1 ? 10 : 12;
  const hlen = version === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const header = new TextDecoder(version === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(pre, pre + hlen));
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || !fortran || shapeText === undefined)
    throw new Error(`npy: ${name}: bad header ${header.trim()}.`);
  if (fortran === 'True')
    throw new Error(`npy: ${name}: Fortran-order arrays are not supported (save with C order).`);
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(Number);
  const n = shapeSize(shape);
  const start = pre + hlen;
  const m = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  if (!m) throw new Error(`npy: ${name}: unsupported dtype '${descr}'.`);
  const [, order, kind, sizeText] = m as unknown as [string, string, string, string];
  const size = Number(sizeText);
  const little = order !== '>';
  const need = kind === 'U' ? n * size * 4 : n * size;
  if (bytes.length - start < need)
    throw new Error(`npy: ${name}: truncated (${bytes.length - start} of ${need} bytes).`);
  const get = new DataView(bytes.buffer, bytes.byteOffset + start, need);
  const key = `${kind}${size}`;
  switch (key) {
    case 'f4': {
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) data[i] = get.getFloat32(4 * i, little);
      return { dtype: 'float32', shape, data };
    }
    case 'f8': {
      const data = new Float64Array(n);
      for (let i = 0; i < n; i++) data[i] = get.getFloat64(8 * i, little);
      return { dtype: 'float64', shape, data };
    }
    case 'i4': {
      const data = new Int32Array(n);
      for (let i = 0; i < n; i++) data[i] = get.getInt32(4 * i, little);
      return { dtype: 'int32', shape, data };
    }
    case 'i8': {
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) data[i] = get.getBigInt64(8 * i, little);
      return { dtype: 'int64', shape, data };
    }
    case 'u1':
      return { dtype: 'uint8', shape, data: bytes.slice(start, start + n) };
    case 'b1':
      return { dtype: 'bool', shape, data: bytes.slice(start, start + n) };
    default:
      if (kind === 'U') {
        const data: string[] = [];
        for (let i = 0; i < n; i++) {
          let s = '';
          for (let k = 0; k < size; k++) {
            const c = get.getUint32(4 * (i * size + k), little);
            if (c === 0) break;
            s += String.fromCodePoint(c);
          }
          data.push(s);
        }
        return { dtype: 'unicode', shape, data };
      }
      throw new Error(`npy: ${name}: unsupported dtype '${descr}'.`);
  }
}
