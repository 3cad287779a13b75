import { defineConfig } from 'tsup';

export default defineConfig({
  // the worker entries are loaded by path beside the bundle (startPeakWorker, detectSegments)
  entry: ['src/index.ts', 'src/peak-worker.ts', 'src/segment-worker.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
