import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWriteJson,
  CreatureJson,
  type ExamReport,
  FileError,
  type Layout,
  type MotionJson,
  parseFileData,
  RigInfo,
  RigJson,
  readDetections,
  resolveCreature,
} from '@mocap/layout';
import { type CreatureInfo, creatureInfo } from './creature-info.js';
import { type ExamOptions, syntheticExam } from './exam.js';
import { type FitOptions, fit } from './fit.js';
import { type RigModel, rigModelFromRigInfo, rigModelFromRigJson } from './rig-model.js';

/**
 * Reads a rig file as a {@link RigModel}: `rig_info.json` (has `keypoints`; Blender's
 * matrices) or `rig.json` (rest matrices rebuilt as Blender builds them). Errors name `op`,
 * the file and the field.
 */
export async function readRigModel(op: string, file: string): Promise<RigModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new FileError(`${op}: ${file}: cannot read (${(err as NodeJS.ErrnoException).code}).`, file, '', {
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FileError(`${op}: ${file}: not valid JSON (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  if (data !== null && typeof data === 'object' && 'keypoints' in data) {
    return rigModelFromRigInfo(parseFileData(op, file, data, RigInfo), file);
  }
  return rigModelFromRigJson(parseFileData(op, file, data, RigJson), file);
}

/** A creature resolved for the solver: its directory, layout, creature.json and solver info. */
export interface SolverCreature {
  dir: string | null;
  name: string;
  layout: Layout;
  json: CreatureJson | null;
}

/** Resolves `--creature` / `MOCAP_CREATURE` and validates its creature.json. */
export async function readSolverCreature(
  op: string,
  creature: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<SolverCreature> {
  const r = await resolveCreature({ creature, env, cwd });
  if (!r.dir || !r.json) return { dir: null, name: 'default', layout: r.layout, json: null };
  const file = path.join(r.dir, 'creature.json');
  const json = parseFileData(op, file, r.json, CreatureJson);
  return { dir: r.dir, name: json.name, layout: r.layout, json };
}

/** Options of {@link solveFiles}. */
export interface SolveFilesOptions extends Omit<FitOptions, 'layout' | 'creature' | 'file'> {
  det: string;
  rig: string;
  out: string;
  creature?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * The `solve` stage on files: det.npz + rig (rig_info.json or rig.json) + creature ->
 * motion.json, validated and written atomically. det.npz's `front_uv` / `side_uv` are layout
 * px, as `mocap detect` writes them; its `calib` is informational (how the clip was mapped
 * onto the layout) and is not applied again.
 *
 * ```ts
 * const motion = await solveFiles({ det: 'runs/det.npz', rig: 'creatures/wolf/rig.json', creature: 'creatures/wolf', out: 'runs/motion.json' });
 * ```
 */
export async function solveFiles(options: SolveFilesOptions): Promise<MotionJson> {
  const cwd = options.cwd ?? process.cwd();
  const c = await readSolverCreature('solve', options.creature, options.env, cwd);
  const model = await readRigModel('solve', path.resolve(cwd, options.rig));
  const detFile = path.resolve(cwd, options.det);
  const det = await readDetections(detFile);
  const info: CreatureInfo = creatureInfo(
    model,
    c.json,
    c.dir ? path.join(c.dir, 'creature.json') : 'creature.json',
  );
  const { motion } = fit(model, det, { ...options, layout: c.layout, creature: info, file: detFile });
  await atomicWriteJson(path.resolve(cwd, options.out), motion);
  return motion;
}

/**
 * The synthetic exam of a creature directory: its `rigged/rig_info.json` when Blender has
 * written one, else its `rig.json`.
 */
export async function examCreature(
  creature: string | undefined,
  options: ExamOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<ExamReport> {
  const c = await readSolverCreature('exam', creature, env, cwd);
  if (!c.dir) throw new TypeError('exam: expected --creature DIR (or MOCAP_CREATURE), got neither.');
  const info = path.join(c.dir, 'rigged', 'rig_info.json');
  const model = await readRigModel('exam', existsSync(info) ? info : path.join(c.dir, 'rig.json'));
  return syntheticExam(model, c.name, c.layout, creatureInfo(model, c.json), options).report;
}
