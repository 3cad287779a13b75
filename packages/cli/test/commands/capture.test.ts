import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRig, prepMesh, renderRef, validateGltf } from '@mocap/blender-bridge';
import { ExamReport, MotionJson, readDetections } from '@mocap/layout';
import { probeVideo } from '@mocap/media';
import { captureClip, flatMotionJson, renderMotionClip } from '@mocap/pipeline';
import { solveContext, syntheticMotion } from '@mocap/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureProgress } from '../../src/commands/capture.js';
import { copyQuarterWolf, trainTinyReader } from '../helpers/quarter-wolf.js';
import { runCli } from '../helpers/run-cli.js';

const run = (argv: string[]) => runCli(argv, process.env);
const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** `mocap <argv>` as its own process (the sources through tsx), with its pid, exit code and output. */
function spawnMocap(argv: string[]) {
  const child = spawn(
    process.execPath,
    ['--conditions=@mocap/source', '--import', 'tsx', path.join(root, 'packages/cli/src/bin.ts'), ...argv],
    { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stdout.resume();
  child.stderr.on('data', (d) => {
    err += String(d);
  });
  const exit = new Promise<{ pid: number; code: number | null; err: string }>((resolve) =>
    child.on('exit', (code) => resolve({ pid: child.pid as number, code, err })),
  );
  return { child, exit };
}

/** Frames of the captured clip: the fewest detect calibrates a clip from (MIN_CLIP_FRAMES). */
const FRAMES = 8;
/** Frames of the rendered exam (its clip is the layout: no calibration, so shorter is fine). */
const EXAM_FRAMES = 4;

describe('mocap capture and exam --render (real Blender, ffmpeg, a tiny trained reader)', () => {
  let dir = '';
  let clip = '';
  /** Largest gap between the joints Blender posed for the clip and the solver's FK of the motion, m. */
  let fkGap = Number.NaN;
  beforeAll(async () => {
    dir = await copyQuarterWolf('cli-capture-');
    await prepMesh({ creature: dir });
    await buildRig({ creature: dir });
    await renderRef({ creature: dir });
    await trainTinyReader(dir);
    const ctx = await solveContext('test', dir);
    const truth = syntheticMotion(ctx.model, ctx.info, { frames: FRAMES, seed: 3, fps: 12 });
    await mkdir(path.join(dir, 'clips'), { recursive: true });
    clip = path.join(dir, 'clips', 'walk.mp4');
    const rendered = await renderMotionClip({
      creature: dir,
      motion: flatMotionJson(ctx.model, truth),
      out: clip,
      aa: 'OFF',
    });
    const posed = rendered.joints.flat(2);
    fkGap = Math.max(...posed.map((v, i) => Math.abs(v - (truth.joints[i] as number))));
    expect(posed).toHaveLength(truth.joints.length);
  }, 600_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("renders the known motion as posed: Blender joints = the motion's joints (flatMotionJson conventions)", () => {
    expect(fkGap).toBeLessThan(1e-3);
  });

  it('captures a clip: det.npz, motion.json, animation.glb/.bvh/.fbx, showcase.mp4 under runs/capture/<clip>', async () => {
    const r = await run(['capture', clip, '--creature', dir, '--showcase', '160x120', '--height', '180']);
    expect(r.err).toMatch(
      /detect\.\.\.\ncalib: 320 x 180 clip -> layout u = 1\.0000 u [+-]0\.\d\d, v = 1\.0000 v [+-]0\.\d\d \(scale from the frame's size(; ref\.png agrees to [\d.]+% on frame \d+)?; 8 of 8 frames measured fit\)\ndrift: none .*\ndetect: 8 frames\nfade: none \(the first frame shows the creature\)\nviews: (in step \(row gap [\d.]+ px; frames 0-7 compared\)|taken as in step \(no keypoint confident in both views on frames 0-7\))\ndetect \+ refine: 8 frames\nnoise: none to speak of \([\d.]+ levels on the wall at most\)\nsolve\.\.\.\napply\.\.\./,
    );
    expect(r.err).toContain('showcase...');
    expect(r.err).toMatch(
      /8 frames captured \(reader on wasm \+ refinement, reprojection [\d.]+ px; setup [\d.]+ s, detect [\d.]+ s, refine [\d.]+ s, solve [\d.]+ s, apply [\d.]+ s, showcase [\d.]+ s, total [\d.]+ s\)/,
    );
    expect(r.code).toBe(0);
    const out = path.join(dir, 'runs', 'capture', 'walk');
    const files = [
      'det.npz',
      'motion.json',
      'joints.json',
      'animation.glb',
      'animation.bvh',
      'animation.fbx',
      'showcase.mp4',
    ].map((f) => path.join(out, f));
    expect(r.out.trim().split('\n')).toEqual(files);
    for (const f of files) expect(existsSync(f)).toBe(true);
    // Refined detections in det.npz, the heatmap peaks beside them; the rigged glTF was exported.
    expect(existsSync(path.join(out, 'det_heatmaps.npz'))).toBe(true);
    expect(existsSync(path.join(dir, 'runs', 'rigged', 'rigged.glb'))).toBe(true);
    const det = await readDetections(files[0] as string);
    expect(det.frames).toBe(FRAMES);
    const motion = MotionJson.parse(JSON.parse(await readFile(files[1] as string, 'utf8')));
    expect(motion.trans).toHaveLength(FRAMES);
    // Only the 3/4 view the showcase shows is rendered: no front or side renders of the rig.
    const renders = await readdir(path.join(out, 'renders'));
    expect(renders.sort()).toEqual([...Array(FRAMES).keys()].map((t) => `0000${t}_showcase.png`));
    expect((await readFile(files[4] as string, 'utf8')).startsWith('HIERARCHY')).toBe(true);
    expect((await readFile(files[5] as string)).subarray(0, 18).toString('latin1')).toBe(
      'Kaydara FBX Binary',
    );
    const video = await probeVideo(files[6] as string);
    expect(video.frames).toBe(FRAMES);
    // The clip panel (320x180 scaled to 180 high) beside the 160x120 showcase render (240 wide at 180).
    expect(video.width).toBe(320 + 240);
  }, 300_000);

  it('the same capture started twice into one --out, 2 s apart (real processes): one refused naming the other, which completes', async () => {
    const out = path.join(dir, 'runs', 'capture', 'walk-twice');
    const argv = [
      'capture',
      clip,
      '--creature',
      dir,
      '--out',
      out,
      '--showcase',
      '160x120',
      '--height',
      '180',
    ];
    const first = spawnMocap(argv);
    await new Promise((r) => setTimeout(r, 2000));
    const second = spawnMocap(argv);
    const runs = await Promise.all([first.exit, second.exit]);
    const done = runs.filter((r) => r.code === 0);
    const refused = runs.filter((r) => r.code !== 0);
    expect(done, runs.map((r) => r.err).join('\n---\n')).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const [ok, no] = [done[0]!, refused[0]!];
    expect(no.err).toContain(
      `mocap capture: capture: ${out} is being written by another capture run pid ${ok.pid} on host `,
    );
    expect(no.err).toContain(`capture ${clip}`);
    expect(ok.err + no.err).not.toContain('ENOENT');
    expect(ok.err).toContain('8 frames captured');
    const left = (await readdir(out, { recursive: true })).map(String);
    expect(left.filter((f) => f.includes('.tmp-') || f.endsWith('.lock'))).toEqual([]);
    expect((await probeVideo(path.join(out, 'showcase.mp4'))).frames).toBe(FRAMES);
    expect((await validateGltf(path.join(out, 'animation.glb'))).errors).toBe(0);
  }, 300_000);

  it('capture --no-renders --no-fbx --json: the animation only (a valid glb, the bvh), each stage timed', async () => {
    const out = path.join(dir, 'runs', 'capture', 'walk-anim');
    const r = await run([
      'capture',
      clip,
      '--creature',
      dir,
      '--out',
      out,
      '--no-renders',
      '--no-fbx',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('showcase...');
    const res = JSON.parse(r.out);
    expect(res).toMatchObject({
      glb: path.join(out, 'animation.glb'),
      bvh: path.join(out, 'animation.bvh'),
      fbx: null,
      renders: null,
      showcase: null,
      frames: FRAMES,
    });
    expect((await validateGltf(res.glb)).errors).toBe(0);
    expect((await readdir(out)).sort()).toEqual(
      ['animation.bvh', 'animation.glb', 'det.npz', 'det_heatmaps.npz', 'joints.json', 'motion.json'].sort(),
    );
    const s = res.seconds as Record<string, number>;
    expect(Object.keys(s)).toEqual(['setup', 'detect', 'refine', 'solve', 'apply', 'showcase', 'total']);
    for (const v of Object.values(s)) expect(v).toBeGreaterThanOrEqual(0);
    expect(s.refine).toBeGreaterThan(0);
    expect(s.apply).toBeGreaterThan(0);
    expect(s.showcase).toBe(0);
    const parts = s.setup! + s.detect! + s.refine! + s.solve! + s.apply! + s.showcase!;
    expect(Math.abs(parts - s.total!)).toBeLessThan(0.5);
  }, 300_000);

  it('an abort while detecting or while Blender renders leaves no half-written file', async () => {
    for (const at of ['detect', 'apply'] as const) {
      const out = path.join(dir, 'runs', 'capture', `walk-abort-${at}`);
      const ac = new AbortController();
      const err = await captureClip({ clip, creature: dir, out, signal: ac.signal }, (e) => {
        if (at === 'detect' && e.stage === 'detect' && e.detect.phase === 'frames') ac.abort();
        if (at === 'apply' && e.stage === 'apply' && e.blender?.stage === 'render') ac.abort();
      }).then(
        () => null,
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(Error);
      const left = (await readdir(out, { recursive: true }).catch(() => [] as string[])).map(String);
      expect(left.filter((f) => f.includes('.tmp-'))).toEqual([]);
      expect(left).not.toContain('showcase.mp4');
      // Stopped while detecting: at most a whole det.npz (if detect was finishing), nothing after it.
      if (at === 'detect') expect(left.filter((f) => !/^det(_heatmaps)?\.npz$/.test(f))).toEqual([]);
      // Stopped in Blender's renders: the exports came first and are whole.
      else expect((await validateGltf(path.join(out, 'animation.glb'))).errors).toBe(0);
    }
  }, 300_000);

  it('exam --render: finite per-joint errors in a valid report', async () => {
    const r = await run([
      'exam',
      '--render',
      '--creature',
      dir,
      '--frames',
      String(EXAM_FRAMES),
      '--seed',
      '2',
      '--json',
    ]);
    expect(r.err).toContain('render...');
    expect(r.err).toContain('refine: 4 frames');
    expect(r.code).toBe(0);
    const { heatmaps, heatmapsError, detectSeconds, refineSeconds, backend, ...rest } = JSON.parse(r.out);
    expect(heatmapsError).toBeNull();
    const report = ExamReport.parse(rest);
    const saved = path.join(dir, 'runs', 'exam', 'render-seed2', 'report.json');
    expect(ExamReport.parse(JSON.parse(await readFile(saved, 'utf8')))).toEqual(report);
    // The heatmap stage alone is scored too (what refinement adds), and the read is timed.
    const savedHeat = path.join(dir, 'runs', 'exam', 'render-seed2', 'report_heatmaps.json');
    expect(ExamReport.parse(JSON.parse(await readFile(savedHeat, 'utf8')))).toEqual(
      ExamReport.parse(heatmaps),
    );
    expect(backend).toBe('wasm');
    expect(detectSeconds).toBeGreaterThan(refineSeconds);
    expect(refineSeconds).toBeGreaterThan(0);
    expect(report).toMatchObject({ mode: 'render', frames: EXAM_FRAMES, seed: 2, creature: 'wolf' });
    expect(Number.isFinite(report.error_cm.mean) && Number.isFinite(report.error_cm.p95)).toBe(true);
    const joints = Object.values(report.per_joint);
    expect(joints.length).toBeGreaterThan(10);
    for (const s of joints) expect(Number.isFinite(s.max)).toBe(true);
  }, 300_000);

  it('explains a missing reader and a clip that is not a video', async () => {
    const none = path.join(dir, 'no-reader');
    const missing = await run(['capture', clip, '--creature', dir, '--reader', none]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`capture: ${path.join(none, 'model.json')}: no trained reader there`);
    expect(missing.err).toContain('`mocap train`');
    const exam = await run(['exam', '--render', '--creature', dir, '--reader', none]);
    expect(exam.err).toContain('exam: ');
    expect(exam.err).toContain('`mocap dataset` then `mocap train`');
    const text = path.join(dir, 'notes.mp4');
    await writeFile(text, 'not a video\n');
    const bad = await run(['capture', text, '--creature', dir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`probeVideo: ${text}: not a video`);
    expect((await run(['capture', '--creature', dir])).err).toContain('give a clip');
    expect((await run(['capture', clip, '--creature', dir, '--calib', 'x'])).err).toContain(
      '--calib: Expected auto or identity, got "x"',
    );
    expect((await run(['capture', clip, '--creature', dir, '--creature-zoom', 'on'])).err).toContain(
      '--creature-zoom: Expected follow, report or apply, got "on"',
    );
    const fresh = await mkdtemp(path.join(tmpdir(), 'cli-capture-fresh-'));
    try {
      await copyFile(path.join(dir, 'creature.json'), path.join(fresh, 'creature.json'));
      await copyFile(path.join(dir, 'rig.json'), path.join(fresh, 'rig.json'));
      const reader = path.join(dir, 'runs', 'reader');
      const unrigged = await run(['capture', clip, '--creature', fresh, '--reader', reader]);
      expect(unrigged.code).toBe(1);
      expect(unrigged.err).toContain(
        `capture: ${path.join(fresh, 'runs', 'rigged', 'rigged.blend')}: missing; run \`mocap prep\` then \`mocap rig\` first.`,
      );
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});

describe('captureProgress', () => {
  const frames = (total: number, done: number[]) => {
    let out = '';
    const p = captureProgress({ write: (x: string) => (out += x) } as unknown as NodeJS.WritableStream);
    for (const n of done) p.onEvent({ stage: 'detect', detect: { phase: 'refine', done: n, total } });
    p.end();
    return out;
  };

  it('in a log, a line per tenth of a long clip with the rate and the time left, then the count', () => {
    const lines = frames(
      300,
      Array.from({ length: 300 }, (_, i) => i + 1),
    )
      .trim()
      .split('\n');
    expect(lines[0]).toBe('detect...');
    expect(lines.slice(1, -1)).toHaveLength(9);
    expect(lines[1]).toMatch(/^detect \+ refine 30\/300 frames, [\d.]+ frames\/s, eta \d+:\d\d$/);
    expect(lines.at(-1)).toBe('detect + refine: 300 frames');
  });

  it('counts the refinement once it runs (stage 1 runs ahead of it in a worker)', () => {
    let out = '';
    const p = captureProgress({ write: (x: string) => (out += x) } as unknown as NodeJS.WritableStream);
    const ev = (phase: 'frames' | 'refine', done: number) =>
      p.onEvent({ stage: 'detect', detect: { phase, done, total: 200 } });
    ev('frames', 40);
    ev('refine', 1);
    for (let i = 1; i <= 200; i++) {
      ev('frames', Math.min(200, 40 + i));
      ev('refine', i);
    }
    p.end();
    const lines = out.trim().split('\n');
    const refining = lines.slice(lines.findIndex((l) => l.startsWith('detect + refine')));
    expect(refining).toHaveLength(10);
    expect(refining.filter((l) => !l.startsWith('detect + refine'))).toEqual([]);
    expect(lines.at(-1)).toBe('detect + refine: 200 frames');
  });

  it('in a log, a short clip gets the count alone', () => {
    expect(frames(8, [1, 2, 3, 4, 5, 6, 7, 8])).toBe('detect...\ndetect + refine: 8 frames\n');
  });
});
