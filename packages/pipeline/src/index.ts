export {
  type CaptureEvent,
  type CaptureOptions,
  type CaptureResult,
  type CaptureSeconds,
  captureClip,
} from './capture-clip.js';
export { defaultReader } from './default-reader.js';
export type { DegradedExam, DegradedExamInput } from './degraded-exam.js';
export { degradedSummary } from './degraded-summary.js';
export { flatMotionJson } from './flat-motion-json.js';
export { type PrepareEvent, prepareCreature } from './prepare-creature.js';
export { type RefineMode, refineSetup } from './refine-setup.js';
export { type RenderClipOptions, type RenderClipResult, renderMotionClip } from './render-clip.js';
export { type RenderExamOptions, type RenderExamResult, renderExam } from './render-exam.js';
export { type DemoEvent, type DemoOptions, type DemoResult, type DemoSeconds, runDemo } from './run-demo.js';
