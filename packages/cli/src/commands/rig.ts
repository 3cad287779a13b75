import path from 'node:path';
import { buildRig } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';

/** `mocap rig`: rig.json + static.blend -> rigged.blend + rig_info.json (armature, weights, paint). */
export const rigCommand: Command = {
  name: 'rig',
  summary: 'Rig from rig.json or the skin in model.glb: armature, weights, limb paint (Blender)',
  usage: 'mocap rig [--creature DIR] [--weights auto|nearest] [--runs DIR] [--timeout SEC]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      weights: { type: 'string', default: 'auto' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
    });
    const creature = requireCreature(values.creature, ctx);
    const weights = values.weights;
    if (weights !== 'auto' && weights !== 'nearest') {
      throw new UsageError(`--weights: Expected auto or nearest, got "${weights}".`);
    }
    const bar = blenderProgress(ctx.stderr);
    try {
      const r = await buildRig({
        creature,
        weights,
        runs: values.runs ? path.resolve(ctx.cwd, values.runs) : undefined,
        ...blenderOptions(ctx, values.timeout, bar.onProgress),
      });
      bar.end();
      const painted = Object.entries(r.painted)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      ctx.stdout.write(
        `${r.blend}\n${r.rigInfo}: ${r.info.bones.length} bones, ${r.info.keypoints.length} joints, weights: ${r.info.weights}\n`,
      );
      if (painted) ctx.stdout.write(`painted vertices: ${painted}\n`);
      return 0;
    } finally {
      bar.end();
    }
  },
};
