import { defaultSegments, MIN_SEGMENT_FRAMES, planSegments } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

describe('planSegments', () => {
  it('cuts a clip into consecutive ranges, the first longer by the warm-up, the last open-ended', () => {
    expect(planSegments(120, 2, 10)).toEqual([
      { start: 0, end: 65 },
      { start: 65, end: null },
    ]);
    expect(planSegments(120, 3, 10)).toEqual([
      { start: 0, end: 47 },
      { start: 47, end: 84 },
      { start: 84, end: null },
    ]);
    expect(planSegments(120, 1, 10)).toEqual([{ start: 0, end: null }]);
  });

  it('plans fewer segments when the clip is too short for them', () => {
    expect(planSegments(6, 2, 10)).toEqual([{ start: 0, end: null }]);
    expect(planSegments(6, 2, 2)).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: null },
    ]);
  });
});

describe('defaultSegments', () => {
  it('one per core, each at least MIN_SEGMENT_FRAMES frames', () => {
    expect(MIN_SEGMENT_FRAMES).toBe(40);
    expect(defaultSegments(120, 2, 10)).toBe(2);
    expect(defaultSegments(120, 1, 10)).toBe(1);
    expect(defaultSegments(120, 16, 10)).toBe(3);
    expect(defaultSegments(60, 2, 10)).toBe(1);
    expect(defaultSegments(6, 2, 10)).toBe(1);
  });
});
