import { emptySyncReport, MotionJson, SyncReport } from '@mocap/layout';
import { describe, expect, it } from 'vitest';
import { motionJson } from './examples.js';

describe('emptySyncReport', () => {
  it('is a valid sync block that reports no check: no feet, gap, lag, warp or swap', () => {
    expect(SyncReport.parse(emptySyncReport())).toEqual({
      paw_agreement: null,
      height_gap_px: 0,
      lag_frames: 0,
      warped: false,
      height_gap_after_px: 0,
      swaps_fixed: { front: 0, side: 0 },
    });
    expect(MotionJson.safeParse({ ...structuredClone(motionJson), sync: emptySyncReport() }).success).toBe(
      true,
    );
  });

  it('gives a new object each call, so one motion editing its block leaves the next alone', () => {
    const a = emptySyncReport();
    a.swaps_fixed.front = 3;
    expect(emptySyncReport().swaps_fixed.front).toBe(0);
    expect(emptySyncReport()).not.toBe(emptySyncReport());
  });
});
