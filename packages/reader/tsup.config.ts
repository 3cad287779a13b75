import { defineConfig } from 'tsup';

export default defineConfig({
  // the stage-1 worker is loaded by path beside the bundle (startPeakWorker)
  entry: ['src/index.ts', 'src/internal.ts', 'src/peak-worker.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
