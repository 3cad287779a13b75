import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';
import { projectPoints, readDetections } from '@mocap/layout';
import { encodeVideo, type RgbImage } from '@mocap/media';
import {
  createReader,
  detectClip,
  refineClip,
  rigKeypoints,
  type SkinnedMesh,
  saveReader,
} from '@mocap/reader';
import {
  type ClipPeaks,
  fitColourModel,
  heatmapsPath,
  type RefinePose,
  restRefinePose,
  rigKeypointPositions,
  sampleSkinAnimation,
  vertexPaintLabels,
} from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blurRows } from './blur-rows.js';
import { FOX, FOX_LAYOUT, FOX_PAINT, readFox } from './fox-fixture.js';
import { paintFrame, renderLabels } from './refine-scene.js';

// A six-frame Fox clip that starts at the rest pose (as a generated clip starts from ref.png)
// and blends into a pose of its Walk animation; frames are painted label renders.
const FRAMES = 6;

/** The rest pose blended toward Walk key 5 by `a` (normalised linear blend of each rotation). */
function blendPose(mesh: SkinnedMesh, a: number): RefinePose {
  const rest = restRefinePose(mesh);
  const walk = restRefinePose(mesh);
  sampleSkinAnimation(walk.pose, mesh.animations.find((x) => x.name === 'Walk')!, 5 / 24);
  const q = rest.pose.rotation;
  for (let j = 0; j < q.length / 4; j++) {
    const w = walk.pose.rotation.subarray(4 * j, 4 * j + 4);
    const dot = q[4 * j] * w[0] + q[4 * j + 1] * w[1] + q[4 * j + 2] * w[2] + q[4 * j + 3] * w[3];
    const s = dot < 0 ? -1 : 1;
    let n = 0;
    for (let c = 0; c < 4; c++) {
      q[4 * j + c] = (1 - a) * q[4 * j + c] + a * s * w[c];
      n += q[4 * j + c] ** 2;
    }
    for (let c = 0; c < 4; c++) q[4 * j + c] /= Math.sqrt(n);
  }
  rest.pose.translation.set(walk.pose.translation);
  return rest;
}

/** Mean 2D distance (layout px, both views) between keypoints T x K x 2. */
function meanPx(f: ArrayLike<number>, s: ArrayLike<number>, tf0: Float64Array, ts0: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < tf0.length / 2; i++) {
    sum += Math.hypot(f[2 * i] - tf0[2 * i], f[2 * i + 1] - tf0[2 * i + 1]);
    sum += Math.hypot(s[2 * i] - ts0[2 * i], s[2 * i + 1] - ts0[2 * i + 1]);
  }
  return sum / tf0.length;
}

/** Peaks from frame `from` on. */
function cut(p: ClipPeaks, from: number): ClipPeaks {
  const k = p.frontConf.length / FRAMES;
  return {
    frontUv: Array.from(p.frontUv).slice(2 * k * from),
    sideUv: Array.from(p.sideUv).slice(2 * k * from),
    frontConf: Array.from(p.frontConf).slice(k * from),
    sideConf: Array.from(p.sideConf).slice(k * from),
  };
}

describe('refineClip', () => {
  let mesh: SkinnedMesh;
  let frames: RgbImage[];
  let names: string[];
  let kp: ReturnType<typeof rigKeypoints>;
  let truth3d: Float64Array;
  let truthF: Float64Array;
  let truthS: Float64Array;
  let peaks: ClipPeaks;
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'refine-clip-'));
    mesh = await readFox();
    const vlabels = vertexPaintLabels(mesh, FOX_PAINT);
    names = mesh.jointNames.filter((_, j) => mesh.parent[j] >= 0);
    kp = rigKeypoints(
      mesh,
      names.map((n) => ({ name: n, bone: n, end: 'head' as const, length: 0 })),
    );
    const K = names.length;
    truth3d = new Float64Array(FRAMES * K * 3);
    frames = [];
    for (let t = 0; t < FRAMES; t++) {
      const pose = blendPose(mesh, t / (FRAMES - 1));
      frames.push(paintFrame(renderLabels(mesh, vlabels, pose), 10 + t));
      truth3d.set(rigKeypointPositions(new Float64Array(K * 3), mesh, pose, kp), t * K * 3);
    }
    truthF = new Float64Array(FRAMES * K * 2);
    truthS = new Float64Array(FRAMES * K * 2);
    projectPoints(truthF, truthS, truth3d, FOX_LAYOUT);
    // Peaks as a weak heatmap stage gives them: 10 px of noise, 15% of them 80 px off.
    const rng = seededRandom(5);
    const noisy = (a: Float64Array) =>
      Float32Array.from(a, (v) => v + 10 * rng.normal() + (rng.next() < 0.15 ? 80 : 0));
    peaks = {
      frontUv: noisy(truthF),
      sideUv: noisy(truthS),
      frontConf: new Float32Array(FRAMES * K).fill(0.9),
      sideConf: new Float32Array(FRAMES * K).fill(0.9),
    };
  }, 60_000);
  afterAll(() => rm(root, { recursive: true, force: true }));
  /** The Fox clip's refineClip input but for its frames and peaks. */
  const foxInput = () => ({
    mesh,
    paint: FOX_PAINT,
    keypoints: kp,
    layout: FOX_LAYOUT,
    colour: 'first-frame' as const,
  });

  it('tracks the clip from the rest pose: keypoints within 4 px of the truth, far better than the peaks', async () => {
    const seen: number[] = [];
    const r = await refineClip({ ...foxInput(), frames, peaks }, {}, (i) => seen.push(i));
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.frames).toBe(FRAMES);
    expect(r.frontUv).toHaveLength(FRAMES * names.length * 2);
    const refined = meanPx(r.frontUv, r.sideUv, truthF, truthS);
    const raw = meanPx(peaks.frontUv, peaks.sideUv, truthF, truthS);
    expect(raw).toBeGreaterThan(15);
    expect(refined).toBeLessThan(4);
    // 3D: mean keypoint error under 2 cm (0.004 m per px; measured 1.54 cm).
    let e = 0;
    for (let i = 0; i < truth3d.length / 3; i++)
      e += Math.hypot(
        r.joints[3 * i] - truth3d[3 * i],
        r.joints[3 * i + 1] - truth3d[3 * i + 1],
        r.joints[3 * i + 2] - truth3d[3 * i + 2],
      );
    expect(e / (truth3d.length / 3)).toBeLessThan(0.02);
    // Gating: the 80 px outliers are not used.
    expect(r.peaksUsed[FRAMES - 1]).toBeLessThan(0.95 * 2 * names.length);
  });

  it('reads how soft the frames are by the divider, and unmixes the outline of every soft frame', async () => {
    const L = FOX_LAYOUT;
    const sharp = frames.map((f) => {
      const data = f.data.slice();
      for (let y = 0; y < L.HEIGHT; y++)
        for (let x = L.W_FRONT - L.DIVIDER_PX; x < L.W_FRONT; x++)
          data.set(L.colours.divider, 3 * (y * L.WIDTH + x));
      return { width: f.width, height: f.height, data };
    });
    // blurred across by 1.5 px (a lens, a codec)
    const soft = sharp.map((f) => blurRows(f, 1.5));
    // the colour model from the sharp first frame, as detect fits it on ref.png
    const labels = renderLabels(mesh, vertexPaintLabels(mesh, FOX_PAINT), blendPose(mesh, 0));
    const colour = fitColourModel([{ image: sharp[0] as RgbImage, labels }], L, { seed: 0 });
    const r = await refineClip({ ...foxInput(), colour, frames: soft, peaks });
    // without ref.png the first frame is placed by its backdrop silhouette, which must not take
    // the blurred divider for the creature (it did: 94 px off)
    const ff = await refineClip({ ...foxInput(), frames: soft, peaks });
    expect(meanPx(ff.frontUv, ff.sideUv, truthF, truthS)).toBeLessThan(8);
    expect(r.noise.dividerPx).toBeGreaterThan(3.5);
    expect(r.noise.softEdges).toBe(FRAMES);
    const on = meanPx(r.frontUv, r.sideUv, truthF, truthS);
    const off = await refineClip({ ...foxInput(), colour, frames: soft, peaks }, { unmixPasses: 0 });
    expect(off.noise.softEdges).toBe(0);
    // this scene's outlines are broad enough that the unmixing neither helps nor hurts much
    expect(on).toBeLessThan(4);
    expect(Math.abs(on - meanPx(off.frontUv, off.sideUv, truthF, truthS))).toBeLessThan(0.5);
    const crisp = await refineClip({ ...foxInput(), colour, frames: sharp.slice(0, 2), peaks });
    // the frames' own pixel noise reads a sharp divider a little wide (a render: 1.99 px)
    expect(crisp.noise.dividerPx).toBeGreaterThan(L.DIVIDER_PX - 0.1);
    expect(crisp.noise.dividerPx).toBeLessThan(L.DIVIDER_PX + 0.2);
  }, 120_000);

  it('follows a zoom with followZoom: the fitted zoom tracks the drawn one, and the keypoints land nearer', async () => {
    // 16 frames: the pose walks in over the first 6 while the camera zooms in 0.25% a frame
    const T = 16;
    const vlabels = vertexPaintLabels(mesh, FOX_PAINT);
    const K = names.length;
    const zf: RgbImage[] = [];
    const t3 = new Float64Array(T * K * 3);
    for (let t = 0; t < T; t++) {
      const pose = blendPose(mesh, Math.min(1, t / 5));
      pose.zoom = 1 + 0.0025 * t;
      zf.push(paintFrame(renderLabels(mesh, vlabels, pose), 30 + t));
      t3.set(rigKeypointPositions(new Float64Array(K * 3), mesh, pose, kp), t * K * 3);
    }
    const tF = new Float64Array(T * K * 2);
    const tS = new Float64Array(T * K * 2);
    projectPoints(tF, tS, t3, FOX_LAYOUT);
    const rng = seededRandom(8);
    const zp: ClipPeaks = {
      frontUv: Float32Array.from(tF, (v) => v + 3 * rng.normal()),
      sideUv: Float32Array.from(tS, (v) => v + 3 * rng.normal()),
      frontConf: new Float32Array(T * K).fill(0.9),
      sideConf: new Float32Array(T * K).fill(0.9),
    };
    // a zoom 20x as fast as a drifting camera's (2% in 120 frames) wants a lighter pull than the clips' default
    const followed = await refineClip(
      { ...foxInput(), frames: zf, peaks: zp },
      { followZoom: true, objective: { zoomPrior: 1e5 } },
    );
    const fixed = await refineClip({ ...foxInput(), frames: zf, peaks: zp });
    expect(Array.from(fixed.zoom)).toEqual(new Array(T).fill(1));
    const change = followed.zoom[T - 1] / followed.zoom[0] - 1;
    expect(change).toBeGreaterThan(0.025);
    expect(change).toBeLessThan(0.05);
    const last = (r: typeof fixed) =>
      meanPx(
        r.frontUv.subarray(2 * K * (T - 4)),
        r.sideUv.subarray(2 * K * (T - 4)),
        tF.subarray(2 * K * (T - 4)),
        tS.subarray(2 * K * (T - 4)),
      );
    expect(last(followed)).toBeLessThan(last(fixed));
  }, 60_000);

  it('gives a keypoint neither view shows unseenKeypointConf in both views, and keeps its place', async () => {
    const input = { ...foxInput(), frames, peaks };
    // no bone shows 1e12 px: every keypoint counts as hidden in both views
    const hidden = await refineClip(input, { visibleKeypointPx: 1e12, unseenStartFrames: 0 });
    expect(Array.from(hidden.frontConf).every((c) => c === 0)).toBe(true);
    expect(Array.from(hidden.sideConf).every((c) => c === 0)).toBe(true);
    // the clip's first frames keep them at minKeypointConf: their pose was fitted to those frames
    const start = await refineClip(input, { visibleKeypointPx: 1e12, unseenStartFrames: 1 });
    const K = names.length;
    expect(Array.from(start.sideConf).map((c) => Math.round(c * 10) / 10)).toEqual(
      Array.from({ length: FRAMES * K }, (_, i) => (i < K ? 0.1 : 0)),
    );
    expect(Array.from(start.frontUv)).toEqual(Array.from(hidden.frontUv));
    const floored = await refineClip(input, { visibleKeypointPx: 1e12, unseenKeypointConf: 0.1 });
    expect(Array.from(floored.frontConf).every((c) => Math.abs(c - 0.1) < 1e-6)).toBe(true);
    expect(Array.from(floored.frontUv)).toEqual(Array.from(hidden.frontUv));
    // at the defaults some keypoints show in one view only: floored there, not zeroed
    const plain = await refineClip(input);
    let oneView = 0;
    for (let i = 0; i < FRAMES * K; i++) {
      const f = plain.frontConf[i]!;
      const sd = plain.sideConf[i]!;
      expect(f === 0).toBe(sd === 0);
      if (f > 0 && Math.abs(f - 0.1) < 1e-6 !== Math.abs(sd - 0.1) < 1e-6) oneView++;
    }
    expect(oneView).toBeGreaterThan(0);
  });

  it('starts the frames from the third on from the constant-velocity prediction, with predictedIterations', async () => {
    const steps = async (options: Parameters<typeof refineClip>[1]) => {
      const s: number[] = [];
      await refineClip({ ...foxInput(), frames, peaks }, options, (_, report) =>
        s.push(report.levels[0].steps),
      );
      return s;
    };
    const predicted = await steps({ predictedIterations: [1], iterations: [4] });
    expect(predicted[1]).toBeGreaterThan(1); // the second frame has no motion to repeat yet
    expect(predicted.slice(2)).toEqual([1, 1, 1, 1]);
    const last = await steps({ predict: false, predictedIterations: [1], iterations: [4] });
    expect(last.slice(2).every((n) => n > 1)).toBe(true);
  });

  it('waits for the creature: frames of the empty studio get NaN keypoints with confidence 0, the rest as without them', async () => {
    const K = names.length;
    const EMPTY = 3;
    const studio = paintFrame(new Uint8Array(FOX_LAYOUT.WIDTH * FOX_LAYOUT.HEIGHT), 3);
    const pad = (a: Float32Array, per: number, v: number) => {
      const out = new Float32Array(a.length + EMPTY * K * per).fill(v);
      out.set(a, EMPTY * K * per);
      return out;
    };
    const input = foxInput();
    const plain = await refineClip({ ...input, frames, peaks });
    const seen: number[] = [];
    const r = await refineClip(
      {
        ...input,
        frames: [studio, studio, studio, ...frames],
        peaks: {
          frontUv: pad(Float32Array.from(peaks.frontUv), 2, Number.NaN),
          sideUv: pad(Float32Array.from(peaks.sideUv), 2, Number.NaN),
          frontConf: pad(Float32Array.from(peaks.frontConf), 1, 0),
          sideConf: pad(Float32Array.from(peaks.sideConf), 1, 0),
        },
      },
      {},
      (i) => seen.push(i),
    );
    expect(r.frames).toBe(EMPTY + FRAMES);
    expect(seen).toEqual([3, 4, 5, 6, 7, 8]);
    const head = (a: ArrayLike<number>, per: number) => Array.from(a).slice(0, EMPTY * K * per);
    const tail = (a: ArrayLike<number>, per: number) => Array.from(a).slice(EMPTY * K * per);
    for (const a of [r.frontUv, r.sideUv]) expect(head(a, 2).every(Number.isNaN)).toBe(true);
    expect(head(r.joints, 3).every(Number.isNaN)).toBe(true);
    for (const a of [r.frontConf, r.sideConf]) expect(head(a, 1).every((c) => c === 0)).toBe(true);
    expect(Array.from(r.peaksUsed).slice(0, EMPTY)).toEqual([0, 0, 0]);
    // The first frame that shows the creature is refined as a clip's first: the same numbers.
    expect(tail(r.frontUv, 2)).toEqual(Array.from(plain.frontUv));
    expect(tail(r.sideUv, 2)).toEqual(Array.from(plain.sideUv));
    expect(tail(r.joints, 3)).toEqual(Array.from(plain.joints));
    expect(tail(r.frontConf, 1)).toEqual(Array.from(plain.frontConf));
    expect(tail(r.joints, 3).every(Number.isFinite)).toBe(true);
    // A clip that never shows the creature is refused, by name.
    await expect(refineClip({ ...input, frames: [studio, studio], clip: 'fade.mp4' })).rejects.toThrow(
      'refineClip: fade.mp4: no frame shows the creature (all 2 frames',
    );
  });

  it('skips frames of visibility 0 (a fade too faint to read), carrying the first pose back to them, and reads the peaks of a view that runs behind ahead', async () => {
    const K = names.length;
    const input = foxInput();
    // frame 0 shows the creature, but the fade said it is too faint: the clip starts at frame 1
    const plain = await refineClip({ ...input, frames: frames.slice(1), peaks: cut(peaks, 1) });
    const r = await refineClip({ ...input, frames, peaks, visibility: [0] });
    // it carries the first refined frame's keypoints, barely trusted
    expect(Array.from(r.frontUv).slice(0, 2 * K)).toEqual(Array.from(plain.frontUv).slice(0, 2 * K));
    expect(Array.from(r.joints).slice(0, 3 * K)).toEqual(Array.from(plain.joints).slice(0, 3 * K));
    for (const a of [r.frontConf, r.sideConf]) {
      expect(
        Array.from(a)
          .slice(0, K)
          .every((c) => Math.abs(c - 0.1) < 1e-6),
      ).toBe(true);
    }
    expect(Array.from(r.frontUv).slice(2 * K)).toEqual(Array.from(plain.frontUv));
    expect(Array.from(r.joints).slice(3 * K)).toEqual(Array.from(plain.joints));
    // the side view's peaks one frame behind (its first held), read one ahead: as in step, but
    // the last frame has no side peaks
    const behind = Float32Array.from(peaks.sideUv, (_, i) => peaks.sideUv[Math.max(0, i - 2 * K)]!);
    const lastless = {
      ...peaks,
      sideConf: Float32Array.from(peaks.sideConf, (c, i) => (i >= (FRAMES - 1) * K ? 0 : c)),
    };
    const inStep = await refineClip({ ...input, frames, peaks: lastless });
    const lagged = await refineClip({ ...input, frames, peaks: { ...peaks, sideUv: behind, lag: 1 } });
    expect(Array.from(lagged.joints)).toEqual(Array.from(inStep.joints));
    expect(Array.from(lagged.peaksUsed)).toEqual(Array.from(inStep.peaksUsed));
  });

  it('refuses frames that are not in layout px, and a clip without frames', async () => {
    const base = foxInput();
    const small = { width: 640, height: 360, data: new Uint8Array(640 * 360 * 3) };
    await expect(refineClip({ ...base, frames: [small] })).rejects.toThrow(
      "refineClip: frame 0 is 640 x 360; expected the layout's 1280 x 720 (calibrate first).",
    );
    await expect(refineClip({ ...base, frames: [] })).rejects.toThrow('refineClip: the clip has no frames.');
  });

  it('rigKeypoints names a keypoint whose bone is not a joint of the mesh', () => {
    expect(() =>
      rigKeypoints(mesh, [{ name: 'nose', bone: 'head.001', end: 'tail', length: 0.1 }], 'rig_info.json'),
    ).toThrow(
      'rigKeypoints: rig_info.json: keypoints[0] "nose" rides bone "head.001", which is not a joint of the skinned mesh (24 joints).',
    );
  });

  describe('detectClip with refine', () => {
    let clip = '';
    let readerDir = '';
    beforeAll(async () => {
      clip = path.join(root, 'clip.mp4');
      await encodeVideo(clip, frames, { fps: 12, preset: 'veryfast', crf: 12 });
      readerDir = path.join(root, 'reader');
      const reader = await createReader({
        joints: names,
        inputSize: 64,
        backbone: { kind: 'cnn', widths: [8, 8] },
      });
      await saveReader(reader, readerDir);
      reader.dispose();
    }, 60_000);
    const refine = () => ({
      glb: FOX,
      unitScale: 0.01,
      paint: FOX_PAINT,
      keypoints: names.map((n) => ({ name: n, bone: n, end: 'head' as const, length: 0 })),
    });

    it('writes refined det.npz and the peaks to det_heatmaps.npz, leaking no tensor', async () => {
      const out = path.join(root, 'det.npz');
      const before = tf.memory().numTensors;
      const events: string[] = [];
      const r = await detectClip(
        {
          clip,
          reader: readerDir,
          out,
          layout: FOX_LAYOUT,
          calib: 'identity',
          joints: names,
          refine: refine(),
        },
        (e) => events.push(e.phase),
      );
      expect(tf.memory().numTensors).toBe(before);
      expect(events.filter((e) => e === 'refine')).toHaveLength(FRAMES);
      expect(r.heatmapsFile).toBe(heatmapsPath(out));
      expect(heatmapsPath(out)).toBe(path.join(root, 'det_heatmaps.npz'));
      expect(existsSync(r.heatmapsFile!)).toBe(true);
      const det = await readDetections(out);
      const heat = await readDetections(r.heatmapsFile!);
      expect(det).toMatchObject({ names, frames: FRAMES });
      // Confidence: how much of each keypoint's bone the view shows, in [0.1, 1], or 0 in both
      // views where neither shows it.
      for (const [i, c] of Array.from(det.frontConf).entries()) {
        if (c === 0) expect(det.sideConf[i]).toBe(0);
        else expect(c >= 0.1 && c <= 1).toBe(true);
      }
      expect(Math.max(...det.sideConf)).toBe(1);
      // An untrained reader's peaks are noise (gated out); the masks of the H.264 clip place the keypoints.
      expect(meanPx(det.frontUv, det.sideUv, truthF, truthS)).toBeLessThan(6);
      expect(meanPx(heat.frontUv, heat.sideUv, truthF, truthS)).toBeGreaterThan(20);
      expect(r.refineSeconds).toBeGreaterThan(0);
    }, 120_000);

    it('gives the same keypoints with stage 1 in a worker thread as inline', async () => {
      const base = { clip, reader: readerDir, layout: FOX_LAYOUT, calib: 'identity' as const, joints: names };
      const inline = await detectClip({ ...base, refine: refine(), peakWorker: false });
      const events: { phase: string; done: number }[] = [];
      const worker = await detectClip({ ...base, refine: refine(), peakWorker: true }, (e) => {
        if (e.phase === 'frames' || e.phase === 'refine') events.push({ phase: e.phase, done: e.done });
      });
      expect(worker.detections.frames).toBe(FRAMES);
      // progress as inline: stage 1 once per batch (increasing), each frame refined after its peaks
      const read = events.filter((e) => e.phase === 'frames').map((e) => e.done);
      expect(read.at(-1)).toBe(FRAMES);
      expect(read).toEqual([...new Set(read)].sort((x, y) => x - y));
      let peaksIn = 0;
      for (const e of events) {
        if (e.phase === 'frames') peaksIn = e.done;
        else expect(e.done).toBeLessThanOrEqual(peaksIn);
      }
      expect(events.filter((e) => e.phase === 'refine').map((e) => e.done)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(worker.detections).toEqual(inline.detections);
      expect(worker.heatmaps).toEqual(inline.heatmaps);
    }, 120_000);

    it('names a missing rigged glTF and keypoints that are not the joints', async () => {
      const base = { clip, reader: readerDir, layout: FOX_LAYOUT, calib: 'identity' as const, joints: names };
      const missing = path.join(root, 'no', 'rigged.glb');
      await expect(detectClip({ ...base, refine: { ...refine(), glb: missing } })).rejects.toThrow(
        `detect: ${missing}: the rigged glTF that refinement reads is missing`,
      );
      const other = { ...refine(), keypoints: refine().keypoints.slice(1) };
      await expect(detectClip({ ...base, refine: other })).rejects.toThrow(
        /^detect: options\.refine\.keypoints \(.*\) are not options\.joints/,
      );
    });
  });
});
