export {
  type Command,
  type CommandContext,
  type ParsedCommandArgs,
  parseCommandArgs,
  UsageError,
} from './command.js';
export { commands } from './commands/index.js';
export { main, VERSION } from './main.js';
