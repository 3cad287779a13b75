import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@mocap/anim-loop';
import { buildRig, prepMesh } from '@mocap/blender-bridge';
import { projectPoints } from '@mocap/layout';
import { decodeVideo, type RgbImage } from '@mocap/media';
import { flatMotionJson, refineSetup, renderMotionClip } from '@mocap/pipeline';
import { readSkinnedMesh, refineClip, rigKeypoints } from '@mocap/reader';
import { type FlatMotion, gaitMotion, solveContext } from '@mocap/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WOLF = fileURLToPath(new URL('../../../creatures/wolf', import.meta.url));
const FRAMES = 6;

/** Mean 2D distance (layout px, both views) between keypoint arrays T x K x 2. */
function meanPx(f: ArrayLike<number>, s: ArrayLike<number>, tf: Float64Array, ts: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < tf.length / 2; i++) {
    sum += Math.hypot(
      (f[2 * i] as number) - (tf[2 * i] as number),
      (f[2 * i + 1] as number) - (tf[2 * i + 1] as number),
    );
    sum += Math.hypot(
      (s[2 * i] as number) - (ts[2 * i] as number),
      (s[2 * i + 1] as number) - (ts[2 * i + 1] as number),
    );
  }
  return sum / tf.length;
}

// The bundled wolf at its own layout (1280 x 720), rigged by Blender; a short gait clip rendered
// by Blender from the rest pose; stage 2 reads the rigged glTF and refines noisy peaks.
describe('renderMotionClip + refineSetup on a Blender-rendered wolf gait', () => {
  let dir = '';
  const frames: RgbImage[] = [];
  let motion: FlatMotion;
  let truth: Float64Array;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-render-clip-'));
    for (const f of ['creature.json', 'rig.json', 'model.glb'])
      await copyFile(path.join(WOLF, f), path.join(dir, f));
    await prepMesh({ creature: dir });
    await buildRig({ creature: dir });
    const ctx = await solveContext('test', dir);
    motion = gaitMotion(ctx.model, ctx.info, { frames: FRAMES, seed: 4, fps: 15, rampFrames: 3 });
    const clip = path.join(dir, 'clip.mp4');
    const rendered = await renderMotionClip({
      creature: dir,
      motion: flatMotionJson(ctx.model, motion),
      out: clip,
    });
    truth = new Float64Array(rendered.joints.flat(2));
    for await (const f of decodeVideo(clip)) frames.push(f);
  }, 600_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("renders the motion as posed: Blender's joints are the motion's joints (flatMotionJson conventions)", () => {
    expect(frames).toHaveLength(FRAMES);
    expect(truth).toHaveLength(motion.joints.length);
    const gap = Math.max(...truth.map((v, i) => Math.abs(v - (motion.joints[i] as number))));
    expect(gap).toBeLessThan(1e-3);
  });

  it('refines the clip from the rest pose to the Blender joints: within 6 px and 2 cm, far better than 25 px peaks', async () => {
    const ctx = await solveContext('test', dir);
    const refine = await refineSetup('test', ctx, dir, 'on');
    if (!refine) throw new Error('test: refineSetup gave no refinement for a rigged creature.');
    const mesh = await readSkinnedMesh(refine.glb);
    const keypoints = rigKeypoints(mesh, refine.keypoints);
    const layout = ctx.creature.layout;
    const tf = new Float64Array((truth.length / 3) * 2);
    const ts = new Float64Array((truth.length / 3) * 2);
    projectPoints(tf, ts, truth, layout);
    const rng = seededRandom(9);
    const noisy = (a: Float64Array) => Float32Array.from(a, (v) => v + 25 * rng.normal());
    const n = truth.length / 3;
    const peaks = {
      frontUv: noisy(tf),
      sideUv: noisy(ts),
      frontConf: new Float32Array(n).fill(0.8),
      sideConf: new Float32Array(n).fill(0.8),
    };
    const r = await refineClip({
      mesh,
      paint: refine.paint,
      keypoints,
      layout,
      colour: 'first-frame',
      frames,
      peaks,
    });
    const raw = meanPx(peaks.frontUv, peaks.sideUv, tf, ts);
    const refined = meanPx(r.frontUv, r.sideUv, tf, ts);
    expect(raw).toBeGreaterThan(25);
    expect(refined).toBeLessThan(6);
    let e = 0;
    for (let i = 0; i < n; i++)
      e += Math.hypot(
        (r.joints[3 * i] as number) - (truth[3 * i] as number),
        (r.joints[3 * i + 1] as number) - (truth[3 * i + 1] as number),
        (r.joints[3 * i + 2] as number) - (truth[3 * i + 2] as number),
      );
    expect(e / n).toBeLessThan(0.02);
  }, 120_000);
});
