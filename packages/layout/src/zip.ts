import { deflateRawSync, inflateRawSync } from 'node:zlib';

let table: Uint32Array | undefined;

/** CRC-32 (the zip/PNG polynomial) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[i] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One file inside a zip archive. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/**
 * Writes a zip archive (no zip64; fixed 1980-01-01 timestamps so the bytes are deterministic).
 * `deflate` compresses each entry (method 8); otherwise entries are stored (method 0).
 */
export function writeZip(entries: readonly ZipEntry[], deflate = false): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const body = deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data);
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(8, deflate ? 8 : 0, true);
    l.setUint16(12, 0x21, true); // 1980-01-01
    l.setUint32(14, crc, true);
    l.setUint32(18, body.length, true);
    l.setUint32(22, e.data.length, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const c = new DataView(central.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(10, deflate ? 8 : 0, true);
    c.setUint16(14, 0x21, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, body.length, true);
    c.setUint32(24, e.data.length, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, body);
    centrals.push(central);
    offset += local.length + body.length;
  }
  const cdSize = centrals.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const d = new DataView(end.buffer);
  d.setUint32(0, 0x06054b50, true);
  d.setUint16(8, entries.length, true);
  d.setUint16(10, entries.length, true);
  d.setUint32(12, cdSize, true);
  d.setUint32(16, offset, true);
  return concat([...locals, ...centrals, end]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * Reads every entry of a zip archive through its central directory. Handles stored and
 * deflated entries and zip64 size/offset fields (as Python's zipfile writes for np.savez).
 */
export function readZip(bytes: Uint8Array, name = 'archive'): ZipEntry[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (dv.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`zip: ${name}: not a zip archive (no end of central directory).`);
  let count = dv.getUint16(eocd + 10, true);
  let cd = dv.getUint32(eocd + 16, true);
  if ((count === 0xffff || cd === 0xffffffff) && eocd >= 20 && dv.getUint32(eocd - 20, true) === 0x07064b50) {
    const z64 = Number(dv.getBigUint64(eocd - 12, true));
    count = Number(dv.getBigUint64(z64 + 32, true));
    cd = Number(dv.getBigUint64(z64 + 48, true));
  }
  const out: ZipEntry[] = [];
  let p = cd;
  for (let k = 0; k < count; k++) {
    if (dv.getUint32(p, true) !== 0x02014b50)
      throw new Error(`zip: ${name}: bad central directory entry ${k}.`);
    const method = dv.getUint16(p + 10, true);
    let csize = dv.getUint32(p + 20, true);
    let usize = dv.getUint32(p + 24, true);
    const nlen = dv.getUint16(p + 28, true);
    const xlen = dv.getUint16(p + 30, true);
    const clen = dv.getUint16(p + 32, true);
    let local = dv.getUint32(p + 42, true);
    const entryName = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nlen));
    // zip64 extra field: the 0xffffffff fields, in order usize, csize, offset
    let x = p + 46 + nlen;
    const xend = x + xlen;
    while (x + 4 <= xend) {
      const id = dv.getUint16(x, true);
      const sz = dv.getUint16(x + 2, true);
      if (id === 1) {
        let q = x + 4;
        if (usize === 0xffffffff) {
          usize = Number(dv.getBigUint64(q, true));
          q += 8;
        }
        if (csize === 0xffffffff) {
          csize = Number(dv.getBigUint64(q, true));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(dv.getBigUint64(q, true));
      }
      x += 4 + sz;
    }
    if (dv.getUint32(local, true) !== 0x04034b50)
      throw new Error(`zip: ${name}: bad local header for ${entryName}.`);
    const start = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + csize);
    let data: Uint8Array;
    if (method === 0) data = raw.slice();
    else if (method === 8) data = new Uint8Array(inflateRawSync(raw));
    else
      throw new Error(
        `zip: ${name}: ${entryName} uses compression method ${method} (only stored and deflated).`,
      );
    if (data.length !== usize)
      throw new Error(`zip: ${name}: ${entryName} is ${data.length} bytes, expected ${usize}.`);
    out.push({ name: entryName, data });
    p += 46 + nlen + xlen + clen;
  }
  return out;
}
