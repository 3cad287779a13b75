// Shared vitest settings: tests resolve workspace packages to their src/ through the
// "@mocap/source" export condition, so no build is needed before `vitest run`.
import { defineConfig } from 'vitest/config';

/** @param {import('vitest/config').UserConfig['test']} [test] */
export function mocapVitestConfig(test = {}) {
  return defineConfig({
    resolve: { conditions: ['@mocap/source'] },
    ssr: { resolve: { conditions: ['@mocap/source'] } },
    test: {
      include: ['test/**/*.test.ts'],
      benchmark: { include: ['bench/**/*.bench.ts'] },
      // generous: CI's 2 cores run two packages' suites side by side, some with Blender starting up
      testTimeout: 120_000,
      hookTimeout: 300_000,
      pool: 'forks',
      reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
      ...test,
    },
  });
}
export default mocapVitestConfig();
