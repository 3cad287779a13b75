export {
  type CaptureEvent,
  type CaptureOptions,
  type CaptureResult,
  captureClip,
  defaultReader,
  REFINED_FIT,
  type RefineMode,
  refineSetup,
  requireReader,
  requireRigged,
  type SolveContext,
  skeletonPairs,
  solveContext,
  solveDetections,
} from './capture-clip.js';
export {
  type Command,
  type CommandContext,
  type ParsedCommandArgs,
  parseCommandArgs,
  UsageError,
} from './command.js';
export { commands } from './commands/index.js';
export { main, VERSION } from './main.js';
export { type RenderClipOptions, type RenderClipResult, renderMotionClip } from './render-clip.js';
export { flatMotionJson, type RenderExamOptions, type RenderExamResult, renderExam } from './render-exam.js';
export { type RiggedGlbOptions, riggedGlb, riggedGlbPath } from './rigged-glb.js';
