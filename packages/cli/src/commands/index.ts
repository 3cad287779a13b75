import type { Command } from '../command.js';
import { generateCommand } from './generate.js';
import { layoutCommand } from './layout.js';
import { loraCommand } from './lora.js';
import { promptCommand } from './prompt.js';
import { trainCommand } from './train.js';

/** Every `mocap` subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  layoutCommand,
  promptCommand,
  generateCommand,
  trainCommand,
  loraCommand,
];
