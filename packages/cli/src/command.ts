import { type ParseArgsConfig, parseArgs } from 'node:util';

/** What a command gets: its own arguments and the streams to write to. */
export interface CommandContext {
  argv: string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on Ctrl-C; long work passes it down. */
  signal: AbortSignal;
}

/** One `mocap` subcommand. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(ctx: CommandContext): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseCommandArgs} returns: the parsed option values and positionals. */
export interface ParsedCommandArgs<T extends ParseArgsOptions> {
  values: ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: true }>>['values'];
  positionals: string[];
}

/** parseArgs with strict checking, turning its errors into UsageError. */
export function parseCommandArgs<T extends ParseArgsOptions>(
  argv: string[],
  options: T,
  allowPositionals = false,
): ParsedCommandArgs<T> {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true }) as ParsedCommandArgs<T>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
