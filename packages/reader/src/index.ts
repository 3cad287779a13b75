export {
  BackendChoice,
  type BackendReport,
  backendReport,
  InitBackendOptions,
  initBackend,
  wasmBinaryDir,
} from './backend.js';
export { createRng, type Rng, randomNormalArray } from './random.js';
export { registerWasmGradients, WASM_GRADIENT_KERNELS } from './wasm-gradients.js';
