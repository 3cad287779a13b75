import { resolveCreature } from '@mocap/layout';
import { type Command, parseCommandArgs } from '../command.js';

/** `mocap layout`: prints the resolved frame layout. */
export const layoutCommand: Command = {
  name: 'layout',
  summary: 'Print the resolved two-view frame layout',
  usage: 'mocap layout [--creature DIR] [--json]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const creature = await resolveCreature({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    const l = creature.layout;
    if (values.json) {
      ctx.stdout.write(`${JSON.stringify({ creature: creature.dir, layout: l }, null, 2)}\n`);
      return 0;
    }
    const rows: [string, string][] = [
      ['creature', creature.dir ?? '(none: the default wolf layout)'],
      ['frame', `${l.WIDTH} x ${l.HEIGHT} px`],
      ['front view', `columns 0..${l.W_FRONT - 1} (W_FRONT ${l.W_FRONT} px), u grows with world X`],
      ['side view', `columns ${l.W_FRONT}..${l.WIDTH - 1} (W_SIDE ${l.W_SIDE} px), u grows with world -Y`],
      ['ground row', `GROUND_V ${l.GROUND_V}`],
      [
        'scale',
        `M_PER_PX ${l.M_PER_PX.toPrecision(6)} m (${(l.HEIGHT * l.M_PER_PX).toFixed(3)} m of height)`,
      ],
      ['wall / floor / divider', `${l.colours.wall} / ${l.colours.floor} / ${l.colours.divider}`],
    ];
    const w = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v] of rows) ctx.stdout.write(`${k.padEnd(w)}  ${v}\n`);
    return 0;
  },
};
