export { type ExtractFramesOptions, extractFrames } from './extract-frames.js';
export { findCreature } from './find-creature.js';
export { type LoadedView, type LoadViewOptions, loadViewFolder } from './load-view-folder.js';
export {
  DEFAULT_VIEW_PORT,
  type ServeViewerOptions,
  serveViewer,
  type ViewerServer,
} from './serve-viewer.js';
export type { Uv, ViewData, ViewError, ViewPoints } from './view-data.js';
