import { readFile } from 'node:fs/promises';
import { atomicWrite } from '@mocap/layout';

/** One tensor of a safetensors file, widened to float32. */
export interface SafeTensor {
  /** The dtype stored in the file (`F32`, `F16`, `BF16`, `F64`). */
  dtype: string;
  shape: number[];
  data: Float32Array;
}

const BF16_BITS = new Uint32Array(1);
const BF16_VALUE = new Float32Array(BF16_BITS.buffer);
const BYTES: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8 };

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/**
 * Decodes a safetensors file (8-byte little-endian header length, JSON header, raw data) into
 * float32 tensors by name. `file` names the source in errors.
 *
 * ```ts
 * const tensors = decodeSafetensors(await readFile('model.safetensors'), 'model.safetensors');
 * ```
 */
export function decodeSafetensors(bytes: Uint8Array, file = '<buffer>'): Map<string, SafeTensor> {
  const fail = (msg: string) => new Error(`readSafetensors: ${file}: ${msg}.`);
  if (bytes.length < 8) throw fail(`only ${bytes.length} bytes, not a safetensors file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  if (n > bytes.length - 8) throw fail(`header length ${n} runs past the end (${bytes.length} bytes)`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  } catch (err) {
    throw new Error(`readSafetensors: ${file}: the header is not JSON.`, { cause: err });
  }
  const base = 8 + n;
  const out = new Map<string, SafeTensor>();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const {
      dtype,
      shape,
      data_offsets: offsets,
    } = entry as { dtype: string; shape: number[]; data_offsets: number[] };
    const size = BYTES[dtype];
    if (!size)
      throw fail(`tensor "${name}" has dtype ${JSON.stringify(dtype)}; F32, F16, BF16 or F64 expected`);
    const count = shape.reduce((a, b) => a * b, 1);
    const [begin, end] = offsets as [number, number];
    if (end - begin !== count * size || base + end > bytes.length) {
      throw fail(`tensor "${name}" data_offsets [${begin}, ${end}] do not fit shape [${shape}] of ${dtype}`);
    }
    const data = new Float32Array(count);
    const at = base + begin;
    for (let i = 0; i < count; i++) {
      if (dtype === 'F32') data[i] = view.getFloat32(at + 4 * i, true);
      else if (dtype === 'F64') data[i] = view.getFloat64(at + 8 * i, true);
      else if (dtype === 'F16') data[i] = halfToFloat(view.getUint16(at + 2 * i, true));
      else {
        BF16_BITS[0] = view.getUint16(at + 2 * i, true) << 16;
        data[i] = BF16_VALUE[0]!;
      }
    }
    out.set(name, { dtype, shape, data });
  }
  return out;
}

/**
 * Encodes float32 tensors as a safetensors file (F32, header padded with spaces to 8 bytes).
 *
 * ```ts
 * const bytes = encodeSafetensors({ 'a.weight': { shape: [2, 2], data: new Float32Array(4) } });
 * ```
 */
export function encodeSafetensors(
  tensors: Record<string, { shape: number[]; data: Float32Array }>,
  metadata?: Record<string, string>,
): Uint8Array {
  const header: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  const names = Object.keys(tensors);
  for (const name of names) {
    const t = tensors[name]!;
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) {
      throw new TypeError(
        `encodeSafetensors: Expected ${count} values for "${name}" [${t.shape}], got ${t.data.length}.`,
      );
    }
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * count] };
    offset += 4 * count;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8);
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const name of names) {
    const d = tensors[name]!.data;
    for (let i = 0; i < d.length; i++) view.setFloat32(at + 4 * i, d[i]!, true);
    at += 4 * d.length;
  }
  return out;
}

/** Reads a safetensors file; see {@link decodeSafetensors}. */
export async function readSafetensors(file: string): Promise<Map<string, SafeTensor>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new Error(`readSafetensors: ${file}: cannot read (${(err as Error).message}).`, { cause: err });
  }
  return decodeSafetensors(bytes, file);
}

/** Writes tensors as a safetensors file atomically; see {@link encodeSafetensors}. */
export async function writeSafetensors(
  file: string,
  tensors: Record<string, { shape: number[]; data: Float32Array }>,
  metadata?: Record<string, string>,
): Promise<void> {
  await atomicWrite(file, encodeSafetensors(tensors, metadata));
}
