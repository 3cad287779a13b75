import path from 'node:path';
import {
  type ApplyMotionResult,
  applyMotion,
  type BuildRigResult,
  buildRig,
  prepMesh,
  type RenderDatasetResult,
  renderDataset,
  renderRef,
} from '@mocap/blender-bridge';
import type { PrepResult } from '@mocap/blender-bridge/internal';
import { atomicWriteJson, type Layout, type MotionJson } from '@mocap/layout';
import { copyCreature } from '@mocap/test-utils';
import { randomMotion } from './creature.js';

/** Everything one end-to-end Blender run of a creature produced. */
export interface PipelineRun {
  dir: string;
  prep: PrepResult & { file: string };
  rig: BuildRigResult;
  ref: { file: string; layout: Layout };
  dataset: RenderDatasetResult | null;
  motion: MotionJson;
  motionFile: string;
  apply: ApplyMotionResult;
  progress: string[];
}

/** prep -> rig -> ref -> dataset -> apply on a temporary copy of a bundled creature. */
export async function runPipeline(
  name: string,
  opts: { dataset: number; frames: number; renders: number[]; processes?: number },
): Promise<PipelineRun> {
  const dir = await copyCreature(name);
  const progress: string[] = [];
  const onProgress = (p: { script: string; stage: string }) => progress.push(`${p.script}:${p.stage}`);
  const prep = await prepMesh({ creature: dir, onProgress });
  const rig = await buildRig({ creature: dir, onProgress });
  const ref = await renderRef({ creature: dir, onProgress });
  const dataset = opts.dataset
    ? await renderDataset({
        creature: dir,
        count: opts.dataset,
        seed: 3,
        processes: opts.processes ?? 1,
        onProgress,
      })
    : null;
  const motion = randomMotion(rig.info, opts.frames, 11);
  const motionFile = path.join(dir, 'runs', 'capture', 'test', 'motion.json');
  await atomicWriteJson(motionFile, motion);
  const apply = await applyMotion({
    creature: dir,
    motion: motionFile,
    renders: opts.renders,
    aa: 'OFF',
    showcase: { width: 320, height: 240 },
    onProgress,
  });
  return { dir, prep, rig, ref, dataset, motion, motionFile, apply, progress };
}
