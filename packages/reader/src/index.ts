export {
  BackendChoice,
  type BackendReport,
  backendReport,
  InitBackendOptions,
  initBackend,
  wasmBinaryDir,
} from './backend.js';
export { gaussianHeatmaps } from './gaussian-heatmaps.js';
export { decodeHeatmaps, type HeatmapPeaks, peaksToLayout } from './heatmap-decode.js';
export { createRng, type Rng, randomNormalArray } from './random.js';
export {
  heatmapToLayout,
  layoutToHeatmap,
  layoutToInput,
  ViewName,
  type ViewTransform,
  viewTransform,
} from './view-transform.js';
export { registerWasmGradients, WASM_GRADIENT_KERNELS } from './wasm-gradients.js';
