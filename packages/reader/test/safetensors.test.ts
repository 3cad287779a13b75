import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  decodeSafetensors,
  encodeSafetensors,
  readSafetensors,
  writeSafetensors,
} from '@mocap/reader/internal';
import { afterAll, describe, expect, it } from 'vitest';

/** A safetensors file built by hand: header length, JSON, raw bytes. */
function handMade(header: object, data: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

describe('safetensors', () => {
  const dir = mkdtemp(path.join(tmpdir(), 'reader-st-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it('round-trips F32 tensors through a file, header aligned to 8 bytes', async () => {
    const file = path.join(await dir, 'a.safetensors');
    const a = { shape: [2, 3], data: new Float32Array([1, -2, 3.5, 4, 5, 6e-7]) };
    const b = { shape: [1], data: new Float32Array([42]) };
    await writeSafetensors(file, { a, 'x.b': b }, { format: 'pt' });
    const t = await readSafetensors(file);
    expect([...t.keys()]).toEqual(['a', 'x.b']);
    expect(t.get('a')).toEqual({ dtype: 'F32', shape: [2, 3], data: a.data });
    expect(t.get('x.b')!.data[0]).toBe(42);
    const bytes = encodeSafetensors({ a });
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + n) % 8).toBe(0);
  });

  it('widens F16 and BF16 to float32', () => {
    const raw = new Uint8Array(8);
    const v = new DataView(raw.buffer);
    v.setUint16(0, 0x3c00, true); // f16 1
    v.setUint16(2, 0xc000, true); // f16 -2
    v.setUint16(4, 0x3fc0, true); // bf16 1.5
    v.setUint16(6, 0xc2f6, true); // bf16 -123
    const t = decodeSafetensors(
      handMade(
        {
          h: { dtype: 'F16', shape: [2], data_offsets: [0, 4] },
          b: { dtype: 'BF16', shape: [2], data_offsets: [4, 8] },
        },
        raw,
      ),
    );
    expect([...t.get('h')!.data]).toEqual([1, -2]);
    expect([...t.get('b')!.data]).toEqual([1.5, -123]);
  });

  it('fails clearly on a bad file', async () => {
    expect(() => decodeSafetensors(new Uint8Array(3), 'x.st')).toThrow('readSafetensors: x.st: only 3 bytes');
    expect(() =>
      decodeSafetensors(
        handMade({ w: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array(8)),
        'x.st',
      ),
    ).toThrow('tensor "w" has dtype "I64"');
    expect(() =>
      decodeSafetensors(
        handMade({ w: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, new Uint8Array(8)),
        'x.st',
      ),
    ).toThrow('data_offsets [0, 8] do not fit shape [3]');
    const file = path.join(await dir, 'missing.safetensors');
    await expect(readSafetensors(file)).rejects.toThrow(`readSafetensors: ${file}: cannot read`);
    await writeFile(path.join(await dir, 'junk'), 'not json at all');
    await expect(readSafetensors(path.join(await dir, 'junk'))).rejects.toThrow(/header length|not JSON/);
  });

  it('rejects data that does not match its shape', () => {
    expect(() => encodeSafetensors({ w: { shape: [2, 2], data: new Float32Array(3) } })).toThrow(TypeError);
  });
});
