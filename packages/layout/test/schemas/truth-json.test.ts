import { parseFileData, TruthJson } from '@mocap/layout';
import { describe, expect, it } from 'vitest';

describe('TruthJson', () => {
  const truth = {
    seed: 1,
    frames: 2,
    fps: 30,
    joints: [
      [
        [0, 0.1, 0.5],
        [0.2, 0.1, 0.6],
      ],
      [
        [0, 0.12, 0.5],
        [0.2, 0.12, 0.61],
      ],
    ],
  };

  it('reads what renderExam writes', () => {
    expect(TruthJson.parse(truth)).toEqual(truth);
  });

  it('names the file and field of a bad value', () => {
    const bad = { ...truth, joints: [[[0, 0.1]]] };
    expect(() => parseFileData('exam', 'runs/exam/render-seed1/truth.json', bad, TruthJson)).toThrow(
      /exam: runs\/exam\/render-seed1\/truth\.json: joints\[0\]\[0\]/,
    );
    expect(() => TruthJson.parse({ ...truth, frames: 0 })).toThrow();
  });
});
