import path from 'node:path';
import { creaturePaths } from '@mocap/layout';
import { describe, expect, it } from 'vitest';

describe('creaturePaths', () => {
  it("puts the creature's inputs and shipped reader in its folder and every stage output under runs/", () => {
    const dir = path.join('creatures', 'wolf');
    const runs = path.join(dir, 'runs');
    expect(creaturePaths(dir)).toEqual({
      dir,
      creatureJson: path.join(dir, 'creature.json'),
      rigJson: path.join(dir, 'rig.json'),
      model: path.join(dir, 'model.glb'),
      shippedReader: path.join(dir, 'reader'),
      prompts: path.join(dir, 'prompts'),
      runs,
      staticBlend: path.join(runs, 'prep', 'static.blend'),
      riggedBlend: path.join(runs, 'rigged', 'rigged.blend'),
      rigInfo: path.join(runs, 'rigged', 'rig_info.json'),
      riggedGlb: path.join(runs, 'rigged', 'rigged.glb'),
      propose: path.join(runs, 'propose'),
      refPng: path.join(runs, 'ref', 'ref.png'),
      dataset: path.join(runs, 'dataset'),
      reader: path.join(runs, 'reader'),
      apply: path.join(runs, 'apply'),
      capture: path.join(runs, 'capture'),
      exam: path.join(runs, 'exam'),
      videos: path.join(runs, 'videos'),
      lora: path.join(runs, 'lora'),
    });
  });

  it('moves only the stage outputs when given another runs folder', () => {
    const p = creaturePaths('wolf', '/tmp/runs-b');
    expect(p.rigInfo).toBe(path.join('/tmp/runs-b', 'rigged', 'rig_info.json'));
    expect(p.rigJson).toBe(path.join('wolf', 'rig.json'));
    expect(p.shippedReader).toBe(path.join('wolf', 'reader'));
  });
});
