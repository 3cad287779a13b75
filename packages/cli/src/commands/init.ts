import { creatureDir } from '@mocap/layout';
import { initCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

/** `mocap init`: proposes creature.json (pairs, feet, paint, mirror) from the creature's skeleton. */
export const initCommand: Command = {
  name: 'init',
  summary: "Propose creature.json from the creature's skeleton (rig.json, else model.glb's skin) for review",
  usage: 'mocap init [--creature DIR] [--force] [--print]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      force: { type: 'boolean', default: false },
      print: { type: 'boolean', default: false },
    });
    const dir = creatureDir({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    const r = await initCreature(dir, { force: values.force, dryRun: values.print });
    if (values.print) ctx.stdout.write(`${JSON.stringify(r.creature, null, 2)}\n`);
    else ctx.stdout.write(`${r.file}: proposed from ${r.source}; review it before the rig stage\n`);
    for (const n of r.notes) ctx.stderr.write(`review: ${n}\n`);
    return 0;
  },
};
