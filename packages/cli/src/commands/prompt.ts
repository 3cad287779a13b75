import { writePrompt } from '@mocap/fal';
import { creatureDir } from '@mocap/layout';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

/** `mocap prompt`: a video prompt from creature.json's words and one action sentence. */
export const promptCommand: Command = {
  name: 'prompt',
  summary: "Write prompts/<move>.txt from creature.json's words and one action sentence",
  usage: 'mocap prompt --creature DIR --move NAME "<one action sentence>"',
  async run(ctx) {
    const { values, positionals } = parseCommandArgs(
      ctx.argv,
      { creature: { type: 'string' }, move: { type: 'string' } },
      true,
    );
    const dir = creatureDir({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    if (!values.move) throw new UsageError('--move NAME is required.');
    if (positionals.length !== 1) throw new UsageError('give exactly one action sentence, in quotes.');
    const { file, text } = await writePrompt(dir, values.move, positionals[0] as string);
    ctx.stderr.write(`wrote ${file}\n`);
    ctx.stdout.write(`${text}\n`);
    return 0;
  },
};
