import { readFileSync } from 'node:fs';
import type { CommandContext } from './command.js';
import { UsageError } from './command.js';
import { type CommandEntry, commands } from './commands/index.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The CLI's version (from its package.json). */
export const VERSION: string = pkg.version;

function help(list: readonly CommandEntry[]): string {
  const w = Math.max(...list.map((c) => c.name.length));
  const lines = list.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`);
  return [
    `mocap ${VERSION}: capture a creature's motion from a two-camera video onto its rig.`,
    '',
    'Usage: mocap <command> [options]     (mocap <command> --help for its options)',
    '',
    'Commands:',
    ...lines,
    '',
    'A creature is selected with --creature DIR or MOCAP_CREATURE=DIR.',
  ].join('\n');
}

/**
 * Runs the `mocap` command line and resolves to its exit code. Only the command asked for is
 * loaded (see {@link CommandEntry}).
 *
 * ```ts
 * const code = await main(['layout', '--json']);
 * ```
 */
export async function main(argv: string[], io: Partial<Omit<CommandContext, 'argv'>> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    stdout.write(`${help(commands)}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    stderr.write(`mocap: unknown command "${name}".\n\n${help(commands)}\n`);
    return 2;
  }
  const cmd = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    stdout.write(`${cmd.summary}\n\nUsage: ${cmd.usage}\n`);
    return 0;
  }
  const ctx: CommandContext = {
    argv: rest,
    stdout,
    stderr,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    signal: io.signal ?? new AbortController().signal,
  };
  try {
    return await cmd.run(ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      stderr.write(`mocap ${cmd.name}: ${err.message}\nUsage: ${cmd.usage}\n`);
      return 2;
    }
    const e = err as Error;
    stderr.write(`mocap ${cmd.name}: ${e.message}\n`);
    if (ctx.env.MOCAP_DEBUG) stderr.write(`${e.stack}\n`);
    return 1;
  }
}
