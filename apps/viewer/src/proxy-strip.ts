/**
 * The clip's proxy strips: every frame also as a small thumbnail, `cols` x `rows` of them per
 * JPEG, so the page can show any frame while scrubbing faster than full frames decode (as video
 * editors scrub on proxies); the full frame replaces its thumbnail once it is in.
 */
export interface ProxyStrip {
  /** Strip images in all: ceil(frames / (cols * rows)). */
  count: number;
  cols: number;
  rows: number;
  /** One thumbnail's size, px (even, for ffmpeg's scaler). */
  thumbWidth: number;
  thumbHeight: number;
}

/** Thumbnails per strip, across and down: 5 x 5 of 256 x 144 make one 1280 x 720 image. */
const GRID = 5;
/** A thumbnail's width, px. */
const THUMB_WIDTH = 256;

/** The strips of a clip of `frames` frames of `width` x `height`. */
export function proxyStrip(frames: number, width: number, height: number): ProxyStrip {
  const thumbWidth = Math.min(THUMB_WIDTH, 2 * Math.max(1, Math.round(width / 2)));
  const thumbHeight = 2 * Math.max(1, Math.round((thumbWidth * height) / Math.max(1, width) / 2));
  return { count: Math.ceil(frames / (GRID * GRID)), cols: GRID, rows: GRID, thumbWidth, thumbHeight };
}

/** Where frame `t`'s thumbnail is: strip `k`, pixel offset (x, y) in it. */
export function stripCell(s: ProxyStrip, t: number): { k: number; x: number; y: number } {
  const per = s.cols * s.rows;
  const i = t % per;
  return {
    k: Math.floor(t / per),
    x: (i % s.cols) * s.thumbWidth,
    y: Math.floor(i / s.cols) * s.thumbHeight,
  };
}
