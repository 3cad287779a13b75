import type { Command } from '../command.js';
import { applyCommand } from './apply.js';
import { captureCommand } from './capture.js';
import { datasetCommand } from './dataset.js';
import { demoCommand } from './demo.js';
import { detectCommand } from './detect.js';
import { examCommand } from './exam.js';
import { generateCommand } from './generate.js';
import { layoutCommand } from './layout.js';
import { loraCommand } from './lora.js';
import { prepCommand } from './prep.js';
import { promptCommand } from './prompt.js';
import { refCommand } from './ref.js';
import { rigCommand } from './rig.js';
import { solveCommand } from './solve.js';
import { trainCommand } from './train.js';

/** Every `mocap` subcommand, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  layoutCommand,
  prepCommand,
  rigCommand,
  refCommand,
  promptCommand,
  generateCommand,
  datasetCommand,
  trainCommand,
  detectCommand,
  solveCommand,
  applyCommand,
  captureCommand,
  loraCommand,
  examCommand,
  demoCommand,
];
