import { readFile } from 'node:fs/promises';
import { atomicWrite, FileError, type Rgb } from '@mocap/layout';
import pngjs from 'pngjs';
import { assertRgbImage, type RgbaImage, type RgbImage, rgbaToRgb } from './image.js';

const { PNG } = pngjs;

/**
 * Decodes PNG bytes to RGBA (any bit depth and colour type; 16-bit is scaled to 8).
 * `file` only names the source in errors.
 */
export function decodePngRgba(bytes: Uint8Array, file = 'image.png'): RgbaImage {
  try {
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  } catch (err) {
    throw new FileError(`readPng: ${file}: not a valid PNG (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
}

/**
 * Decodes PNG bytes to RGB; transparent pixels are composited over `background` (default black).
 */
export function decodePng(bytes: Uint8Array, file = 'image.png', background: Rgb = [0, 0, 0]): RgbImage {
  return rgbaToRgb(decodePngRgba(bytes, file), background);
}

/** Encodes an RGB image as 8-bit RGB PNG bytes (`level`: zlib deflate level 0-9, default 6). */
export function encodePng(img: RgbImage, level = 6): Uint8Array {
  assertRgbImage('writePng', img);
  const png = new PNG({ width: 1, height: 1 });
  png.width = img.width;
  png.height = img.height;
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: level });
}

/** Encodes an RGBA image as 8-bit RGBA PNG bytes. */
export function encodePngRgba(img: RgbaImage, level = 6): Uint8Array {
  if (img.data.length !== img.width * img.height * 4) {
    throw new TypeError(
      `writePngRgba: expected ${img.width} x ${img.height} x 4 bytes of RGBA, got ${img.data.length}.`,
    );
  }
  const png = new PNG({ width: 1, height: 1 });
  png.width = img.width;
  png.height = img.height;
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return PNG.sync.write(png, { colorType: 6, inputColorType: 6, inputHasAlpha: true, deflateLevel: level });
}

async function readBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new FileError(`readPng: ${file}: ${why}.`, file, '', { cause: err });
  }
}

/**
 * Reads a PNG file as RGB (alpha composited over `background`, default black).
 * A missing or corrupt file is a FileError naming it.
 *
 * ```ts
 * const ref = await readPng('runs/wolf/ref/ref.png');
 * ```
 */
export async function readPng(file: string, background: Rgb = [0, 0, 0]): Promise<RgbImage> {
  return decodePng(await readBytes(file), file, background);
}

/** Reads a PNG file as RGBA. */
export async function readPngRgba(file: string): Promise<RgbaImage> {
  return decodePngRgba(await readBytes(file), file);
}

/**
 * Writes `img` as an 8-bit RGB PNG, atomically (temporary file + rename; folders created).
 *
 * ```ts
 * await writePng('out/frame.png', studioBackdrop(DEFAULT_LAYOUT));
 * ```
 */
export async function writePng(file: string, img: RgbImage): Promise<void> {
  await atomicWrite(file, encodePng(img));
}

/** Writes `img` as an 8-bit RGBA PNG, atomically. */
export async function writePngRgba(file: string, img: RgbaImage): Promise<void> {
  await atomicWrite(file, encodePngRgba(img));
}
