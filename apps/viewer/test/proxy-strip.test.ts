import { describe, expect, it } from 'vitest';
import { proxyStrip, stripCell } from '../src/proxy-strip.js';

describe('proxyStrip', () => {
  it('packs 5 x 5 thumbnails of 256 x 144 for a 1280 x 720 clip, 25 frames a strip', () => {
    expect(proxyStrip(300, 1280, 720)).toEqual({
      count: 12,
      cols: 5,
      rows: 5,
      thumbWidth: 256,
      thumbHeight: 144,
    });
    expect(proxyStrip(301, 1280, 720).count).toBe(13);
  });

  it('keeps the aspect of any frame size with even sides', () => {
    const s = proxyStrip(81, 832, 480);
    expect(s.thumbWidth).toBe(256);
    expect(s.thumbHeight % 2).toBe(0);
    expect(Math.abs(s.thumbHeight - (256 * 480) / 832)).toBeLessThanOrEqual(1);
    expect(s.count).toBe(4);
    // A clip narrower than a thumbnail is not upscaled.
    expect(proxyStrip(10, 101, 60).thumbWidth).toBe(102);
  });
});

describe('stripCell', () => {
  const s = proxyStrip(300, 1280, 720);
  it('walks each strip row by row', () => {
    expect(stripCell(s, 0)).toEqual({ k: 0, x: 0, y: 0 });
    expect(stripCell(s, 4)).toEqual({ k: 0, x: 1024, y: 0 });
    expect(stripCell(s, 5)).toEqual({ k: 0, x: 0, y: 144 });
    expect(stripCell(s, 24)).toEqual({ k: 0, x: 1024, y: 576 });
    expect(stripCell(s, 26)).toEqual({ k: 1, x: 256, y: 0 });
  });
});
