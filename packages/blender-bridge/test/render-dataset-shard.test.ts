import { renderDataset } from '@mocap/blender-bridge';
import { describe, expect, it } from 'vitest';

// The shards' renders against a local run are compared in packages/cli/test/commands/worker.test.ts
// (a 12-sample dataset as 3 shards on two workers: every meta byte for byte equal).
describe('renderDataset shard option', () => {
  it('refuses a shard outside 0..of-1 before it locks or renders anything', async () => {
    for (const shard of [
      { index: 3, of: 3 },
      { index: -1, of: 2 },
      { index: 0, of: 0 },
      { index: 0.5, of: 2 },
    ]) {
      await expect(renderDataset({ creature: '/nonexistent', count: 4, shard })).rejects.toThrow(
        new TypeError(
          `renderDataset: expected shard to be { index, of } with 0 <= index < of, got ${JSON.stringify(shard)}.`,
        ),
      );
    }
  });
});
