import { describeViews, viewsSummary } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

const inStep = { frames: 0, gapPx: [4.1, 3.2, 1.04, 3.3, 4.4], window: [0, 48] as [number, number] };

describe('describeViews', () => {
  it('says there is no fade and the views are in step', () => {
    expect(describeViews({ visibility: [] }, inStep)).toEqual([
      'fade: none (the first frame shows the creature)',
      'views: in step (row gap 1.0 px; frames 0-47 compared)',
    ]);
  });

  it('names the fade frames not read and restored, and the view that runs behind', () => {
    const lines = describeViews(
      { visibility: [0, 0, 0.31, 0.5, 0.72] },
      { frames: -2, gapPx: [1.5, 2.5, 4.25, 5, 6], window: [2, 48] },
    );
    expect(lines).toEqual([
      'fade: frames 0-4 fade in (frames 0-1 too faint: not read; frames 2-4 restored from 0.31-0.72 of full contrast)',
      'views: the front view runs 2 frames behind the side; read 2 ahead (row gap 4.3 px in step, 1.5 px at the lag; det.npz view_lag -2)',
    ]);
    expect(describeViews({ visibility: [0] }, { ...inStep, frames: 1 })[1]).toContain(
      'the side view runs 1 frame behind the front',
    );
  });

  it('says when no keypoint was confident in both views', () => {
    expect(
      describeViews({ visibility: [] }, { frames: 0, gapPx: [Number.POSITIVE_INFINITY], window: [0, 8] })[1],
    ).toBe('views: taken as in step (no keypoint confident in both views on frames 0-7)');
  });

  it('summarises them for JSON', () => {
    expect(
      viewsSummary({ visibility: [0, 0.4567] }, { ...inStep, gapPx: [Number.POSITIVE_INFINITY, 2] }),
    ).toEqual({
      fade: [0, 0.457],
      viewLag: 0,
      gapPx: [null, 2],
    });
  });
});
