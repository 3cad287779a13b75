import path from 'node:path';
import { type Detections, readDetections, writeDetections } from '@mocap/layout';
import { decodeDetections, detectionsToArrays, encodeNpz, parseDetections } from '@mocap/layout/internal';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { runPython } from './numpy.js';

const temp = tempDirs();

function det(frames = 3, names = ['nose', 'fpaw.L']): Detections {
  const n = frames * names.length;
  return {
    names,
    fps: 30,
    frames,
    frontUv: Float32Array.from({ length: n * 2 }, (_, i) => 100 + i),
    sideUv: Float32Array.from({ length: n * 2 }, (_, i) => 600 + i),
    frontConf: new Float32Array(n).fill(0.9),
    sideConf: new Float32Array(n).fill(0.8),
    calib: Float64Array.of(1, 1, 0, 0),
  };
}

describe('det.npz', () => {
  it('writes a real NumPy file with the seed fields and reads it back', async () => {
    const dir = await temp.make('mocap-det-');
    const file = path.join(dir, 'det.npz');
    await writeDetections(file, det());
    const info = runPython(
      `import sys, numpy as np
z = np.load(sys.argv[1])
print(sorted(z.files), z['front_uv'].shape, z['front_uv'].dtype, list(z['names']), float(z['fps']))`,
      [file],
    );
    expect(info.trim()).toBe(
      "['calib', 'fps', 'front_conf', 'front_uv', 'names', 'side_conf', 'side_uv'] (3, 2, 2) float32 ['nose', 'fpaw.L'] 30.0",
    );
    const back = await readDetections(file);
    expect(back.names).toEqual(['nose', 'fpaw.L']);
    expect(Array.from(back.sideUv)).toEqual(Array.from(det().sideUv));
  });

  it('reads a det.npz NumPy wrote (float64, no calib)', async () => {
    const dir = await temp.make('mocap-det-');
    const file = path.join(dir, 'det.npz');
    runPython(
      `import sys, numpy as np
T, J = 4, 3
np.savez_compressed(sys.argv[1], front_uv=np.zeros((T, J, 2)), side_uv=np.ones((T, J, 2)),
  front_conf=np.full((T, J), 0.5), side_conf=np.full((T, J), 0.5), fps=np.array(24.0), names=np.array(['a', 'b', 'c']))`,
      [file],
    );
    const d = await readDetections(file);
    expect(d.frames).toBe(4);
    expect(d.fps).toBe(24);
    expect(Array.from(d.calib)).toEqual([1, 1, 0, 0]);
  });

  it('keeps a per-frame calibration as calib_frames (T x 4), which NumPy reads beside the seed fields', async () => {
    const dir = await temp.make('mocap-det-');
    const file = path.join(dir, 'det.npz');
    const calibFrames = Float64Array.from({ length: 12 }, (_, i) => (i % 4 < 2 ? 1.5 + 0.001 * i : i));
    await writeDetections(file, { ...det(), calibFrames });
    const info = runPython(
      `import sys, numpy as np
z = np.load(sys.argv[1])
print(z['calib_frames'].shape, z['calib_frames'].dtype, z['front_uv'].shape)`,
      [file],
    );
    expect(info.trim()).toBe('(3, 4) float64 (3, 2, 2)');
    expect(Array.from((await readDetections(file)).calibFrames!)).toEqual(Array.from(calibFrames));
    const bad = detectionsToArrays({ ...det(), calibFrames: new Float64Array(8).fill(1) });
    expect(() => parseDetections(bad, 'd.npz')).toThrow(
      'det: d.npz: calib_frames: expected 3 x 4 floats ([sx, sy, tx, ty] per frame), got float64 [3,4] (8 values).',
    );
  });

  it('keeps the view lag detect undid as view_lag (an int32 scalar), absent when the views were in step', async () => {
    const dir = await temp.make('mocap-det-');
    const file = path.join(dir, 'det.npz');
    await writeDetections(file, { ...det(), viewLag: -2 });
    const info = runPython(
      `import sys, numpy as np
z = np.load(sys.argv[1])
print(z['view_lag'].shape, z['view_lag'].dtype, int(z['view_lag']))`,
      [file],
    );
    expect(info.trim()).toBe('() int32 -2');
    expect((await readDetections(file)).viewLag).toBe(-2);
    expect(detectionsToArrays(det()).view_lag).toBeUndefined();
    expect(parseDetections(detectionsToArrays(det())).viewLag).toBeUndefined();
    const bad = detectionsToArrays(det());
    bad.view_lag = { dtype: 'float64', shape: [], data: Float64Array.of(1.5) };
    expect(() => parseDetections(bad, 'd.npz')).toThrow(
      'det: d.npz: view_lag: expected one whole number of frames, got float64 [] (1.5).',
    );
  });

  it('names the array, frame and joint of bad values', () => {
    const a = detectionsToArrays(det());
    (a.front_uv?.data as Float32Array)[2 * 3] = Number.NaN; // frame 1, joint 1
    expect(() => parseDetections(a, 'clip/det.npz')).toThrow(
      'det: clip/det.npz: front_uv[1, 1]: NaN, 107 is not finite where confidence is 0.9',
    );
    const b = detectionsToArrays(det());
    (b.front_uv?.data as Float32Array)[2 * 3] = Number.NaN;
    (b.front_conf?.data as Float32Array)[3] = 0;
    expect(() => parseDetections(b)).not.toThrow();
    const c = detectionsToArrays(det());
    (c.side_conf?.data as Float32Array)[0] = 1.5;
    expect(() => parseDetections(c)).toThrow(/side_conf\[0, 0\]: confidence 1.5 is outside 0..1/);
  });

  it('names missing arrays and wrong shapes', () => {
    const a = detectionsToArrays(det());
    delete a.side_conf;
    expect(() => decodeDetections(encodeNpz(a), 'x.npz')).toThrow('det: x.npz: side_conf: missing array.');
    const b = detectionsToArrays(det());
    b.names = { dtype: 'unicode', shape: [3], data: ['a', 'b', 'c'] };
    expect(() => parseDetections(b)).toThrow(/front_uv: expected shape \[3, 3, 2\], got \[3, 2, 2\]/);
  });
});
