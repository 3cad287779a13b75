// A real capture and exam of a short rendered clip, made once for the viewer's browser test:
// the wolf at a quarter-size layout, prepped, rigged and rendered by Blender, its joints read
// through the layout's projections (syntheticDetections, 1 px of noise) and fitted by the solver.
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMotion, buildRig, prepMesh, riggedGlb } from '@mocap/blender-bridge';
import { atomicWriteJson, creaturePaths, TruthJson, writeDetections } from '@mocap/layout';
import { flatMotionJson, renderMotionClip } from '@mocap/pipeline';
import { solveContext, solveFiles, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { QUARTER_LAYOUT } from '@mocap/test-utils';

const WOLF = fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));

/** The folders {@link makeFolders} wrote. */
export interface TestFolders {
  creature: string;
  /** runs/capture/walk: det.npz, motion.json, joints.json, animation.glb/.bvh (no clip: pass `clip`). */
  capture: string;
  /** runs/exam/render-seed3: clip.mp4, det.npz, motion.json, truth.json (no animation.glb). */
  exam: string;
  /** runs/capture/empty: det.npz only. */
  empty: string;
  clip: string;
  frames: number;
}

/** Options of {@link makeFolders}. */
export interface MakeFoldersOptions {
  /** `quarter` (320 x 180, quick) or the wolf's own 1280 x 720 layout. @default 'quarter' */
  layout?: 'quarter' | 'full';
  /** The creature folder to make (created). @default a new temporary folder */
  dir?: string;
}

/** Makes the creature and its folders under a new temporary folder (or `opts.dir`). */
export async function makeFolders(frames = 6, opts: MakeFoldersOptions = {}): Promise<TestFolders> {
  const creature = opts.dir ?? (await mkdtemp(path.join(tmpdir(), 'viewer-wolf-')));
  await mkdir(creature, { recursive: true });
  const json = JSON.parse(await readFile(path.join(WOLF, 'creature.json'), 'utf8'));
  const layout = opts.layout === 'full' ? json.layout : QUARTER_LAYOUT;
  await writeFile(path.join(creature, 'creature.json'), JSON.stringify({ ...json, layout }));
  for (const f of ['rig.json', 'model.glb']) await copyFile(path.join(WOLF, f), path.join(creature, f));
  await prepMesh({ creature });
  await buildRig({ creature });
  await riggedGlb(creature);
  const p = creaturePaths(creature);
  const ctx = await solveContext('test', creature);
  const known = syntheticMotion(ctx.model, ctx.info, { frames, seed: 3, fps: 12 });
  const exam = path.join(p.exam, 'render-seed3');
  await mkdir(exam, { recursive: true });
  const clip = path.join(exam, 'clip.mp4');
  const rendered = await renderMotionClip({
    creature,
    motion: flatMotionJson(ctx.model, known),
    out: clip,
    aa: 'OFF',
  });
  await atomicWriteJson(
    path.join(exam, 'truth.json'),
    TruthJson.parse({ seed: 3, frames, fps: 12, joints: rendered.joints }),
  );
  const names = ctx.model.keypoints.map((k) => k.name);
  const det = syntheticDetections(
    Float64Array.from(rendered.joints.flat(2)),
    names,
    12,
    ctx.creature.layout,
    ctx.info,
    {
      noisePx: 1,
      seed: 1,
    },
  );
  await writeDetections(path.join(exam, 'det.npz'), det);
  await solveFiles({
    det: path.join(exam, 'det.npz'),
    rig: p.rigInfo,
    creature,
    out: path.join(exam, 'motion.json'),
  });
  const capture = path.join(p.capture, 'walk');
  await mkdir(capture, { recursive: true });
  for (const f of ['det.npz', 'motion.json']) await copyFile(path.join(exam, f), path.join(capture, f));
  await applyMotion({
    creature,
    motion: path.join(capture, 'motion.json'),
    out: capture,
    formats: { glb: true, bvh: true, fbx: false },
  });
  const empty = path.join(p.capture, 'empty');
  await mkdir(empty, { recursive: true });
  await copyFile(path.join(exam, 'det.npz'), path.join(empty, 'det.npz'));
  return { creature, capture, exam, empty, clip, frames };
}
