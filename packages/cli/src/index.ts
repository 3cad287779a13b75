export {
  type Command,
  type CommandContext,
  type ParsedCommandArgs,
  parseCommandArgs,
  UsageError,
} from './command.js';
export { type CommandEntry, commands } from './commands/index.js';
export { main, VERSION } from './main.js';
