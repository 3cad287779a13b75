export { FileError, fileErrorFromZod, formatPath } from './file-error.js';
export { DEFAULT_HEIGHT_M, DEFAULT_LAYOUT, Layout, type LayoutInput, Rgb, StudioColours } from './layout.js';
export {
  creatureDir,
  type ResolveCreatureOptions,
  type ResolvedCreature,
  resolveCreature,
} from './resolve-creature.js';
