import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  creaturePaths,
  type Detections,
  FileError,
  type Layout,
  MotionJson,
  projectPoints,
  readDetections,
  readJsonFile,
  resolveCreature,
  TruthJson,
} from '@mocap/layout';
import { probeVideo } from '@mocap/media';
import { type RigModel, readRigModel, skeletonPairs } from '@mocap/solver';
import { findCreature } from './find-creature.js';
import { proxyStrip } from './proxy-strip.js';
import type { Uv, ViewData, ViewPoints } from './view-data.js';

/** Options of {@link loadViewFolder}. */
export interface LoadViewOptions {
  /** The creature folder (rig, layout, rigged.glb). @default the nearest folder above holding creature.json */
  creature?: string | undefined;
  /** The clip to show. @default `clip.mp4` in the folder, else its `showcase.mp4` */
  clip?: string | undefined;
}

/** A loaded folder: the page's data and the files the server may hand out by name. */
export interface LoadedView {
  data: ViewData;
  /** URL path -> file on disk, for `/files/...`. */
  files: Map<string, string>;
}

const DOWNLOADS = ['animation.glb', 'animation.bvh', 'animation.fbx', 'motion.json', 'det.npz'];

/** Clip px from layout px through `[sx, sy, tx, ty]`: the inverse of det.npz's `calib`. */
function toClip(u: number, v: number, c: ArrayLike<number>): Uv {
  if (!Number.isFinite(u) || !Number.isFinite(v)) return null;
  return [(u - (c[2] as number)) / (c[0] as number), (v - (c[3] as number)) / (c[1] as number)];
}

function calibAt(det: Detections | null, t: number): ArrayLike<number> {
  if (!det) return [1, 1, 0, 0];
  return det.calibFrames ? det.calibFrames.subarray(t * 4, t * 4 + 4) : det.calib;
}

function points(
  front: ArrayLike<number>,
  side: ArrayLike<number>,
  t: number,
  k: number,
  c: ArrayLike<number>,
) {
  const out: ViewPoints = { front: [], side: [] };
  for (let j = 0; j < k; j++) {
    const i = (t * k + j) * 2;
    out.front.push(toClip(front[i] as number, front[i + 1] as number, c));
    out.side.push(toClip(side[i] as number, side[i + 1] as number, c));
  }
  return out;
}

function rows(a: Float32Array, t: number, k: number): number[][] {
  return Array.from({ length: t }, (_, i) => Array.from(a.subarray(i * k, i * k + k)));
}

/** Checks motion.json against the creature's rig: same keypoints, every bone of the rig. */
function checkRig(file: string, motion: MotionJson, model: RigModel, rigFile: string): void {
  const names = model.keypoints.map((k) => k.name);
  if (motion.names.join() !== names.join()) {
    throw new FileError(
      `view: ${file}: names: not the rig's keypoints (${rigFile} has ${names.length}: ${names.slice(0, 4).join(', ')}...; motion.json has ${motion.names.length}: ${motion.names.slice(0, 4).join(', ')}...): a motion of another rig?`,
      file,
      'names',
    );
  }
  const missing = motion.bones.filter((b) => !model.bones.includes(b));
  if (missing.length > 0) {
    throw new FileError(
      `view: ${file}: bones: ${missing.slice(0, 4).join(', ')} not in ${rigFile}: a motion of another rig?`,
      file,
      'bones',
    );
  }
}

/** Per frame and joint, the distance between fitted and true joints, cm. */
function errorCm(motion: MotionJson, truth: TruthJson, file: string): number[][] {
  if (truth.joints.length !== motion.joints.length || truth.joints[0]?.length !== motion.names.length) {
    throw new FileError(
      `view: ${file}: joints: ${truth.joints.length} x ${truth.joints[0]?.length ?? 0}, motion.json has ${motion.joints.length} x ${motion.names.length}.`,
      file,
      'joints',
    );
  }
  return motion.joints.map((row, t) =>
    row.map((p, j) => {
      const q = truth.joints[t]?.[j] as number[];
      return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!) * 100;
    }),
  );
}

async function readDet(file: string, motion: MotionJson, notes: string[]): Promise<Detections | null> {
  if (!existsSync(file)) {
    notes.push(`${file}: missing; no detections drawn.`);
    return null;
  }
  const det = await readDetections(file);
  if (det.frames !== motion.trans.length || det.names.join() !== motion.names.join()) {
    throw new FileError(
      `view: ${file}: ${det.frames} frames of ${det.names.length} joints, motion.json has ${motion.trans.length} of ${motion.names.length}.`,
      file,
      'names',
    );
  }
  return det;
}

async function pickVideo(folder: string, opts: LoadViewOptions, notes: string[]) {
  const clip = opts.clip ?? path.join(folder, 'clip.mp4');
  if (existsSync(clip)) return { file: clip, overlay: true };
  const showcase = path.join(folder, 'showcase.mp4');
  if (existsSync(showcase)) {
    notes.push(`No clip.mp4 in the folder: showing showcase.mp4 (pass --clip to see the clip itself).`);
    return { file: showcase, overlay: false };
  }
  notes.push(`No clip.mp4 or showcase.mp4 in ${folder} (pass --clip): no clip shown.`);
  return null;
}

/**
 * Reads a capture folder (`runs/capture/<clip>/`) or an exam folder (`runs/exam/render-seed<N>/`)
 * for the viewer: motion.json (required), det.npz, truth.json, the clip, the glb to show. Throws
 * a {@link FileError} naming the file and field when the folder cannot be shown.
 *
 * ```ts
 * const { data } = await loadViewFolder('creatures/wolf/runs/exam/render-seed1');
 * ```
 */
export async function loadViewFolder(folder: string, opts: LoadViewOptions = {}): Promise<LoadedView> {
  const dir = path.resolve(folder);
  if (!(await stat(dir).catch(() => null))?.isDirectory()) {
    throw new FileError(`view: ${dir}: not a folder.`, dir, '');
  }
  const motionFile = path.join(dir, 'motion.json');
  if (!existsSync(motionFile)) {
    throw new FileError(
      `view: ${motionFile}: missing; a capture (runs/capture/<clip>) or exam (runs/exam/render-seed<N>) folder has one.`,
      motionFile,
      '',
    );
  }
  const motion = await readJsonFile('view', motionFile, MotionJson);
  const notes: string[] = [];
  const files = new Map<string, string>();
  const creature = opts.creature ? path.resolve(opts.creature) : findCreature(dir);
  let layout: Layout = (await resolveCreature({})).layout;
  let edges: [number, number][] = [];
  let riggedGlb: string | null = null;
  if (creature) {
    layout = (await resolveCreature({ creature })).layout;
    const p = creaturePaths(creature);
    const rigFile = existsSync(p.rigInfo) ? p.rigInfo : p.rigJson;
    const model = await readRigModel('view', rigFile);
    checkRig(motionFile, motion, model, rigFile);
    const index = new Map(motion.names.map((n, i) => [n, i]));
    edges = skeletonPairs(model).map(([a, b]) => [index.get(a) as number, index.get(b) as number]);
    if (existsSync(p.riggedGlb)) riggedGlb = p.riggedGlb;
  } else {
    notes.push(`No creature.json above ${dir} (pass --creature): the wolf's layout, no skeleton lines.`);
  }
  const t = motion.trans.length;
  const k = motion.names.length;
  const det = await readDet(path.join(dir, 'det.npz'), motion, notes);
  const fittedFront = new Float64Array(t * k * 2);
  const fittedSide = new Float64Array(t * k * 2);
  projectPoints(fittedFront, fittedSide, Float64Array.from(motion.joints.flat(2)), layout);
  const fitted = Array.from({ length: t }, (_, i) => points(fittedFront, fittedSide, i, k, calibAt(det, i)));
  const truthFile = path.join(dir, 'truth.json');
  let truth: ViewData['truth'] = null;
  if (existsSync(truthFile)) {
    const tj = await readJsonFile('view', truthFile, TruthJson);
    truth = { joints: tj.joints, errorCm: errorCm(motion, tj, truthFile) };
  }
  let rig: ViewData['rig'] = null;
  if (riggedGlb) files.set('rigged.glb', riggedGlb);
  if (existsSync(path.join(dir, 'animation.glb'))) {
    rig = { url: '/files/animation.glb', animated: true };
  } else if (riggedGlb) {
    rig = { url: '/files/rigged.glb', animated: false };
  } else {
    notes.push(`No animation.glb in the folder and no rigged.glb for the creature (mocap rig): joints only.`);
  }
  const picked = await pickVideo(dir, opts, notes);
  let video: ViewData['video'] = null;
  if (picked) {
    const info = await probeVideo(picked.file);
    video = {
      ...picked,
      frames: info.frames,
      width: info.width,
      height: info.height,
      strip: proxyStrip(info.frames, info.width, info.height),
    };
    if (info.frames !== t) notes.push(`${picked.file}: ${info.frames} frames, motion.json has ${t}.`);
  }
  const downloads: ViewData['downloads'] = [];
  for (const name of DOWNLOADS) {
    const f = path.join(dir, name);
    if (existsSync(f)) {
      files.set(name, f);
      downloads.push({ label: name, url: `/files/${name}` });
    }
  }
  const data: ViewData = {
    kind: truth ? 'exam' : 'capture',
    folder: dir,
    creature,
    fps: motion.fps,
    frames: t,
    names: motion.names,
    edges,
    motion: {
      bones: motion.bones,
      trans: motion.trans,
      rootQuat: motion.root_quat,
      euler: motion.euler,
      joints: motion.joints,
      reprojPx: motion.reproj_px.per_frame,
      reprojMean: motion.reproj_px.mean,
    },
    det: det && {
      points: Array.from({ length: t }, (_, i) => points(det.frontUv, det.sideUv, i, k, calibAt(det, i))),
      frontConf: rows(det.frontConf, t, k),
      sideConf: rows(det.sideConf, t, k),
    },
    fitted,
    truth,
    rig,
    riggedGlb: riggedGlb ? '/files/rigged.glb' : null,
    layout,
    video,
    downloads,
    notes,
  };
  return { data, files };
}
