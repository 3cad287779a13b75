import type { Command } from '../command.js';
import { layoutCommand } from './layout.js';

/** Every `mocap` subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [layoutCommand];
