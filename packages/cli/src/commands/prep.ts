import path from 'node:path';
import { prepMesh } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';

/** `mocap prep`: model.glb -> runs/prep/static.blend (real size, facing -Y, on the ground). */
export const prepCommand: Command = {
  name: 'prep',
  summary: "Import the creature's model.glb at real size, facing -Y, on the ground (Blender)",
  usage: 'mocap prep [--creature DIR] [--model FILE] [--runs DIR] [--timeout SEC]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      model: { type: 'string' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
    });
    const creature = requireCreature(values.creature, ctx);
    const bar = blenderProgress(ctx.stderr);
    try {
      const r = await prepMesh({
        creature,
        model: values.model ? path.resolve(ctx.cwd, values.model) : undefined,
        runs: values.runs ? path.resolve(ctx.cwd, values.runs) : undefined,
        ...blenderOptions(ctx, values.timeout, bar.onProgress),
      });
      bar.end();
      const d = r.dimensions.map((v) => v.toFixed(3)).join(' x ');
      ctx.stdout.write(
        `${r.file}: ${r.vertices} vertices, ${r.faces} faces, ${d} m (scale ${r.scale.toPrecision(6)})\n`,
      );
      return 0;
    } finally {
      bar.end();
    }
  },
};
