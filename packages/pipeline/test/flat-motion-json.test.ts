import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flatMotionJson } from '@mocap/pipeline';
import { solveContext, syntheticMotion } from '@mocap/solver';
import { describe, expect, it } from 'vitest';

const WOLF = fileURLToPath(new URL('../../../creatures/wolf', import.meta.url));

describe('flatMotionJson', () => {
  it("writes the solver's flat arrays as motion.json rows, with a perfect fit's report", async () => {
    const ctx = await solveContext('test', path.resolve(WOLF));
    const m = syntheticMotion(ctx.model, ctx.info, { frames: 3, seed: 2, fps: 12 });
    const json = flatMotionJson(ctx.model, m);
    const k = ctx.model.keypoints.length;
    expect(json.fps).toBe(12);
    expect(json.names).toEqual(ctx.model.keypoints.map((p) => p.name));
    expect(json.trans).toHaveLength(3);
    expect(json.joints[2]?.[k - 1]).toEqual(
      Array.from(m.joints.subarray(3 * (2 * k + k - 1), 3 * (2 * k + k))),
    );
    expect(json.root_quat[1]).toEqual(Array.from(m.rootQuat.subarray(4, 8)));
    expect(json.reproj_px.per_frame).toEqual([0, 0, 0]);
  });
});
