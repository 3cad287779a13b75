import { atomicWrite } from './atomic-write.js';
import { FileError } from './file-error.js';
import type { NpyArray } from './npy.js';
import { decodeNpz, encodeNpz, readNpz } from './npz.js';

/**
 * Two-view joint detections of a clip: `det.npz` in memory. Arrays are flat, C order:
 * `frontUv`/`sideUv` T x J x 2 layout px, `frontConf`/`sideConf` T x J in 0..1.
 */
export interface Detections {
  /** Joint names (J). */
  names: string[];
  fps: number;
  /** Frames T. */
  frames: number;
  frontUv: Float32Array;
  sideUv: Float32Array;
  frontConf: Float32Array;
  sideConf: Float32Array;
  /**
   * Clip px to layout px: `[sx, sy, tx, ty]`, layout u = sx * clip u + tx, v = sy * clip v + ty.
   * `[1, 1, 0, 0]` for a clip already in the layout.
   */
  calib: Float64Array;
  /**
   * The calibration of each frame, T x 4 (`[sx, sy, tx, ty]` per frame) as `calib_frames`, when
   * detect followed a framing that drifts through the clip; `calib` is then the clip's typical one.
   * Left out (and absent from det.npz) when every frame has `calib`.
   */
  calibFrames?: Float64Array | undefined;
  /**
   * How many frames the clip's side view ran behind its front view (negative: the front behind the
   * side) as `view_lag`, when detect found one; the detections are already put in step. Left out
   * (and absent from det.npz) when the views were in step.
   */
  viewLag?: number | undefined;
}

/** The identity calibration: the clip is already in layout px. */
export const IDENTITY_CALIB: readonly number[] = Object.freeze([1, 1, 0, 0]);

/** A float32 value as a short decimal for messages. */
const fmt = (x: number): string => String(Number(x.toPrecision(6)));

function need(file: string, arrays: Record<string, NpyArray>, key: string): NpyArray {
  const a = arrays[key];
  if (!a) throw new FileError(`det: ${file}: ${key}: missing array.`, file, key);
  return a;
}

function floats(file: string, key: string, a: NpyArray, shape: number[]): Float32Array {
  if (a.dtype !== 'float32' && a.dtype !== 'float64') {
    throw new FileError(`det: ${file}: ${key}: expected a float array, got ${a.dtype}.`, file, key);
  }
  if (a.shape.length !== shape.length || a.shape.some((d, i) => d !== shape[i])) {
    throw new FileError(
      `det: ${file}: ${key}: expected shape [${shape.join(', ')}], got [${a.shape.join(', ')}].`,
      file,
      key,
    );
  }
  return a.dtype === 'float32' ? a.data : Float32Array.from(a.data);
}

/**
 * Validates decoded `det.npz` arrays. A bad file is a {@link FileError} naming the array and,
 * for bad values, the first frame and joint: `det: det.npz: front_uv[3, 5]: NaN where confidence is 0.8.`
 * A coordinate may be NaN only where its confidence is 0.
 */
export function parseDetections(arrays: Record<string, NpyArray>, file = 'det.npz'): Detections {
  const namesArr = need(file, arrays, 'names');
  if (namesArr.dtype !== 'unicode' || namesArr.shape.length !== 1) {
    throw new FileError(
      `det: ${file}: names: expected a 1-D string array, got ${namesArr.dtype} [${namesArr.shape}].`,
      file,
      'names',
    );
  }
  const names = namesArr.data;
  const fuvArr = need(file, arrays, 'front_uv');
  const frames = fuvArr.shape[0] ?? 0;
  const j = names.length;
  const frontUv = floats(file, 'front_uv', fuvArr, [frames, j, 2]);
  const sideUv = floats(file, 'side_uv', need(file, arrays, 'side_uv'), [frames, j, 2]);
  const frontConf = floats(file, 'front_conf', need(file, arrays, 'front_conf'), [frames, j]);
  const sideConf = floats(file, 'side_conf', need(file, arrays, 'side_conf'), [frames, j]);
  const fpsArr = need(file, arrays, 'fps');
  const fps = Number(fpsArr.data[0]);
  if (fpsArr.data.length !== 1 || !(fps > 0) || !Number.isFinite(fps)) {
    throw new FileError(
      `det: ${file}: fps: expected one positive number, got ${String(fpsArr.data[0])}.`,
      file,
      'fps',
    );
  }
  let calib = Float64Array.from(IDENTITY_CALIB);
  if (arrays.calib) {
    const c = arrays.calib;
    if ((c.dtype !== 'float32' && c.dtype !== 'float64') || c.data.length !== 4) {
      throw new FileError(
        `det: ${file}: calib: expected 4 floats [sx, sy, tx, ty], got ${c.dtype} [${c.shape}].`,
        file,
        'calib',
      );
    }
    calib = Float64Array.from(c.data);
  }
  let calibFrames: Float64Array | undefined;
  if (arrays.calib_frames) {
    const c = arrays.calib_frames;
    if (
      (c.dtype !== 'float32' && c.dtype !== 'float64') ||
      c.shape.length !== 2 ||
      c.shape[0] !== frames ||
      c.shape[1] !== 4 ||
      c.data.length !== 4 * frames
    ) {
      throw new FileError(
        `det: ${file}: calib_frames: expected ${frames} x 4 floats ([sx, sy, tx, ty] per frame), got ${c.dtype} [${c.shape}] (${c.data.length} values).`,
        file,
        'calib_frames',
      );
    }
    calibFrames = Float64Array.from(c.data);
    for (let t = 0; t < frames; t++) {
      const [sx, sy, tx, ty] = calibFrames.subarray(4 * t, 4 * t + 4);
      if (!(sx! > 0 && sy! > 0 && Number.isFinite(tx) && Number.isFinite(ty))) {
        throw new FileError(
          `det: ${file}: calib_frames[${t}]: expected positive scales and finite shifts, got [${Array.from(
            calibFrames.subarray(4 * t, 4 * t + 4),
          )
            .map(fmt)
            .join(', ')}].`,
          file,
          `calib_frames[${t}]`,
        );
      }
    }
  }
  let viewLag: number | undefined;
  if (arrays.view_lag) {
    const l = arrays.view_lag;
    const v = Number(l.data[0]);
    if (l.data.length !== 1 || !Number.isInteger(v)) {
      throw new FileError(
        `det: ${file}: view_lag: expected one whole number of frames, got ${l.dtype} [${l.shape}] (${String(l.data[0])}).`,
        file,
        'view_lag',
      );
    }
    viewLag = v;
  }
  const views: [string, Float32Array, Float32Array][] = [
    ['front', frontUv, frontConf],
    ['side', sideUv, sideConf],
  ];
  for (const [view, uv, conf] of views) {
    for (let i = 0; i < conf.length; i++) {
      const c = conf[i] as number;
      const at = `[${Math.floor(i / j)}, ${i % j}]`;
      if (!(c >= 0 && c <= 1)) {
        throw new FileError(
          `det: ${file}: ${view}_conf${at}: confidence ${fmt(c)} is outside 0..1.`,
          file,
          `${view}_conf${at}`,
        );
      }
      if (c > 0 && !(Number.isFinite(uv[2 * i]) && Number.isFinite(uv[2 * i + 1]))) {
        throw new FileError(
          `det: ${file}: ${view}_uv${at}: ${fmt(uv[2 * i] as number)}, ${fmt(uv[2 * i + 1] as number)} is not finite where confidence is ${fmt(c)}.`,
          file,
          `${view}_uv${at}`,
        );
      }
    }
  }
  return {
    names,
    fps,
    frames,
    frontUv,
    sideUv,
    frontConf,
    sideConf,
    calib,
    ...(calibFrames ? { calibFrames } : {}),
    ...(viewLag !== undefined ? { viewLag } : {}),
  };
}

/**
 * Encodes detections as NumPy arrays with the seed's names (float32, `names` as strings), plus
 * `calib_frames` (T x 4 float64) when the detections carry a per-frame calibration and `view_lag`
 * (an int32 scalar) when they carry a view lag.
 */
export function detectionsToArrays(det: Detections): Record<string, NpyArray> {
  const t = det.frames;
  const j = det.names.length;
  return {
    front_uv: { dtype: 'float32', shape: [t, j, 2], data: det.frontUv },
    side_uv: { dtype: 'float32', shape: [t, j, 2], data: det.sideUv },
    front_conf: { dtype: 'float32', shape: [t, j], data: det.frontConf },
    side_conf: { dtype: 'float32', shape: [t, j], data: det.sideConf },
    fps: { dtype: 'float64', shape: [], data: Float64Array.of(det.fps) },
    names: { dtype: 'unicode', shape: [j], data: det.names },
    calib: { dtype: 'float64', shape: [4], data: det.calib },
    ...(det.calibFrames
      ? { calib_frames: { dtype: 'float64', shape: [t, 4], data: det.calibFrames } as NpyArray }
      : {}),
    ...(det.viewLag !== undefined
      ? { view_lag: { dtype: 'int32', shape: [], data: Int32Array.of(det.viewLag) } as NpyArray }
      : {}),
  };
}

/**
 * Reads and validates `det.npz`.
 *
 * ```ts
 * const det = await readDetections('runs/wolf/det.npz');
 * det.frontUv.length === det.frames * det.names.length * 2;
 * ```
 */
export async function readDetections(file: string): Promise<Detections> {
  return parseDetections(await readNpz(file), file);
}

/** Validates and writes `det.npz` atomically (a real NumPy file). */
export async function writeDetections(file: string, det: Detections): Promise<void> {
  const arrays = detectionsToArrays(det);
  parseDetections(arrays, file);
  await atomicWrite(file, encodeNpz(arrays, { compressed: true }));
}

/** Decodes and validates `det.npz` bytes. */
export function decodeDetections(bytes: Uint8Array, file = 'det.npz'): Detections {
  return parseDetections(decodeNpz(bytes, file), file);
}
