import path from 'node:path';
import { buildRig } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';
import { runRigAccept, runRigPropose } from './rig-propose.js';

/**
 * `mocap rig`: rig.json + static.blend -> rigged.blend + rig_info.json (armature, weights, paint).
 * `--propose` fits the quadruped template into the prepped mesh instead (runs/propose/), `--accept`
 * copies that proposal to rig.json.
 */
export const rigCommand: Command = {
  name: 'rig',
  summary: 'Rig from rig.json or the skin in model.glb: armature, weights, limb paint (Blender)',
  usage:
    'mocap rig [--creature DIR] [--weights auto|nearest] [--runs DIR] [--timeout SEC]\n       mocap rig --propose [--force] | --accept [--force] [--creature DIR] [--runs DIR]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      weights: { type: 'string', default: 'auto' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
      propose: { type: 'boolean', default: false },
      accept: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    });
    const creature = requireCreature(values.creature, ctx);
    if (values.propose && values.accept)
      throw new UsageError('--propose and --accept: Expected one of them, got both.');
    const flags = { creature, runs: values.runs, timeout: values.timeout, force: values.force };
    if (values.propose) return runRigPropose(ctx, flags);
    if (values.accept) return runRigAccept(ctx, flags);
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
