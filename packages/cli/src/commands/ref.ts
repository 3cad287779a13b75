import path from 'node:path';
import { renderRef } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';

/** `mocap ref`: the two-camera reference frame (ref.png) of the rigged creature in its rest pose. */
export const refCommand: Command = {
  name: 'ref',
  summary: 'Render the two-view reference frame ref.png (Blender)',
  usage: 'mocap ref [--creature DIR] [--out FILE] [--aa OFF|FXAA|5|8|11|16|32] [--runs DIR] [--timeout SEC]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      out: { type: 'string' },
      aa: { type: 'string', default: '8' },
      runs: { type: 'string' },
      timeout: { type: 'string' },
    });
    const creature = requireCreature(values.creature, ctx);
    const bar = blenderProgress(ctx.stderr);
    try {
      const r = await renderRef({
        creature,
        aa: values.aa,
        out: values.out ? path.resolve(ctx.cwd, values.out) : undefined,
        runs: values.runs ? path.resolve(ctx.cwd, values.runs) : undefined,
        ...blenderOptions(ctx, values.timeout, bar.onProgress),
      });
      bar.end();
      ctx.stdout.write(`${r.file}: ${r.layout.WIDTH} x ${r.layout.HEIGHT}\n`);
      return 0;
    } finally {
      bar.end();
    }
  },
};
