import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page's sources live in web/; `vite build` writes the static page the server hands out.
export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // three.js alone is ~650 kB; the page is served locally, so one chunk is fine
    chunkSizeWarningLimit: 1000,
  },
});
