import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWrite,
  atomicWriteJson,
  creaturePaths,
  MotionJson,
  readJsonFile,
  writeZip,
} from '@mocap/layout';
import { checkMp4 } from './download-file.js';

/**
 * Renders a motion of the creature to a two-view clip. `mocap lora` passes Blender's
 * apply_motion (through @mocap/blender-bridge); tests pass their own.
 */
export interface ClipRenderer {
  /** What renders, for messages and set.json, e.g. `blender apply_motion (workbench)`. */
  readonly name: string;
  /**
   * Renders `motion` to an MP4 at `out`. Resolves to the joints the rig was posed at
   * (T x J x 3 world metres, `motion.names` order) when the renderer knows them.
   */
  render(req: { motion: MotionJson; out: string; signal?: AbortSignal | undefined }): Promise<{
    joints?: number[][][];
  }>;
}

/** Mirrors a motion left/right (anim-loop's `mirrorMotion` with the creature's mirror map). */
export type MotionMirror = (motion: MotionJson) => MotionJson;

/** One captured motion going into the set. */
export interface LoraMove {
  /** The move name (clip names, and `prompts/<move>.txt` for the caption). */
  move: string;
  /** Its motion.json. */
  motionFile: string;
}

/** One clip of the set. */
export interface LoraClip {
  /** Clip name inside the zip, without extension: `<move>` or `<move>_mirrored`. */
  name: string;
  move: string;
  mirrored: boolean;
  /** The MP4 in the set folder. */
  video: string;
  caption: string;
  /** The motion it was rendered from (the mirrored one is written beside the clip). */
  motionFile: string;
  /** The joints the renderer posed (T x J x 3), when it reports them. */
  jointsFile: string | null;
}

/** What {@link buildLoraSet} resolves to. */
export interface LoraSet {
  dir: string;
  clips: LoraClip[];
  zip: string;
  zipSha256: string;
  renderer: string;
}

/** Options of {@link buildLoraSet}. */
export interface LoraSetOptions {
  creatureDir: string;
  moves: LoraMove[];
  /** Set folder. @default `<creature>/runs/lora/set` */
  outDir?: string;
  /** The phrase every caption starts with. */
  trigger: string;
  renderer: ClipRenderer;
  mirror: MotionMirror;
  signal?: AbortSignal | undefined;
  /** Progress lines. */
  onProgress?: ((line: string) => void) | undefined;
}

const SWAP: Record<string, string> = { left: 'right', right: 'left', Left: 'Right', Right: 'Left' };

/** A caption's mirror: `left` and `right` swapped (whole words). */
export function mirrorCaption(text: string): string {
  return text.replace(/\b(left|right|Left|Right)\b/g, (w) => SWAP[w] ?? w);
}

async function captionFor(creatureDir: string, move: string, trigger: string): Promise<string> {
  const file = path.join(creaturePaths(creatureDir).prompts, `${move}.txt`);
  const prompt = existsSync(file) ? (await readFile(file, 'utf8')).trim() : '';
  return `${trigger}, ${prompt || move.replace(/[_-]+/g, ' ')}`;
}

async function renderOnce(
  opts: LoraSetOptions,
  motion: MotionJson,
  video: string,
  jointsFile: string,
): Promise<string | null> {
  if (existsSync(video) && !checkMp4(await readFile(video)))
    return existsSync(jointsFile) ? jointsFile : null;
  const tmp = `${video}.tmp-${process.pid}.mp4`;
  try {
    const { joints } = await opts.renderer.render({ motion, out: tmp, signal: opts.signal });
    const problem = checkMp4(await readFile(tmp));
    if (problem) throw new Error(`lora: renderer "${opts.renderer.name}" wrote ${tmp}: ${problem}.`);
    if (joints) await atomicWriteJson(jointsFile, joints);
    await rename(tmp, video);
    return joints ? jointsFile : null;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/**
 * Builds a video-LoRA training set: every captured motion re-rendered as a clip, and again
 * mirrored left/right (twice the data), each with a caption (`<trigger>, <prompt>`; left and
 * right swapped for the mirrored one), then a deterministic zip of the clips and captions.
 * Clips already rendered are kept, so an interrupted build resumes.
 *
 * ```ts
 * const set = await buildLoraSet({ creatureDir, moves, trigger: 'wolfmove', renderer, mirror });
 * ```
 */
export async function buildLoraSet(opts: LoraSetOptions): Promise<LoraSet> {
  if (opts.moves.length === 0)
    throw new Error(`lora: no captured motions for ${opts.creatureDir}; capture some clips first.`);
  const dir = opts.outDir ?? path.join(creaturePaths(opts.creatureDir).lora, 'set');
  await mkdir(dir, { recursive: true });
  const clips: LoraClip[] = [];
  const priorFile = path.join(dir, 'set.json');
  const prior = existsSync(priorFile)
    ? (JSON.parse(await readFile(priorFile, 'utf8')) as {
        clips?: { name: string; motion_sha256?: string }[];
      })
    : {};
  const priorSha = new Map((prior.clips ?? []).map((c) => [c.name, c.motion_sha256]));
  const shas = new Map<string, string>();
  for (const m of [...opts.moves].sort((a, b) => a.move.localeCompare(b.move))) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const motion = await readJsonFile('lora', m.motionFile, MotionJson);
    const caption = await captionFor(opts.creatureDir, m.move, opts.trigger);
    const mirrored = MotionJson.parse(opts.mirror(motion));
    const mirroredFile = path.join(dir, `${m.move}_mirrored.motion.json`);
    await atomicWriteJson(mirroredFile, mirrored);
    const variants = [
      { name: m.move, motion, motionFile: m.motionFile, caption, mirrored: false },
      {
        name: `${m.move}_mirrored`,
        motion: mirrored,
        motionFile: mirroredFile,
        caption: mirrorCaption(caption),
        mirrored: true,
      },
    ];
    for (const v of variants) {
      const video = path.join(dir, `${v.name}.mp4`);
      const sha = createHash('sha256').update(JSON.stringify(v.motion)).digest('hex');
      shas.set(v.name, sha);
      if (priorSha.get(v.name) !== sha) await unlink(video).catch(() => {}); // its motion changed
      opts.onProgress?.(`rendering ${v.name} (${v.motion.trans.length} frames) with ${opts.renderer.name}`);
      const jointsFile = await renderOnce(opts, v.motion, video, path.join(dir, `${v.name}.joints.json`));
      await atomicWrite(path.join(dir, `${v.name}.txt`), `${v.caption}\n`);
      clips.push({
        name: v.name,
        move: m.move,
        mirrored: v.mirrored,
        video,
        caption: v.caption,
        motionFile: v.motionFile,
        jointsFile,
      });
    }
  }
  const entries = [];
  for (const c of clips) {
    entries.push({ name: `${c.name}.mp4`, data: new Uint8Array(await readFile(c.video)) });
    entries.push({ name: `${c.name}.txt`, data: new TextEncoder().encode(`${c.caption}\n`) });
  }
  const bytes = writeZip(entries);
  const zip = `${dir}.zip`;
  await atomicWrite(zip, bytes);
  const zipSha256 = createHash('sha256').update(bytes).digest('hex');
  await atomicWriteJson(priorFile, {
    renderer: opts.renderer.name,
    trigger: opts.trigger,
    zip,
    zip_sha256: zipSha256,
    clips: clips.map((c) => ({ ...c, motion_sha256: shas.get(c.name) })),
  });
  return { dir, clips, zip, zipSha256, renderer: opts.renderer.name };
}
