import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  composeFrame,
  decodePng,
  drawKeypoints,
  padToSquare,
  resize,
  splitFrame,
  studioBackdrop,
  warpScaleShift,
} from '@mocap/media';
import { encodePng } from '@mocap/media/internal';
import { bench, describe } from 'vitest';

const frame = studioBackdrop(DEFAULT_LAYOUT);
const { front, side } = splitFrame(frame, DEFAULT_LAYOUT);
const png = encodePng(frame);
const small = resize(frame, 832, 480);
const points = Float32Array.from({ length: 48 }, (_, i) => 100 + i * 7);

describe('1280 x 720 image ops', () => {
  bench('resize 1280x720 -> 640x360 (area)', () => {
    resize(frame, 640, 360);
  });
  bench('view to reader input: pad 860x720 to square + resize to 256 (area)', () => {
    resize(padToSquare(side, DEFAULT_LAYOUT.colours.wall), 256, 256);
  });
  bench('resize 420x720 -> 840x1440 (bilinear)', () => {
    resize(front, 840, 1440);
  });
  bench('splitFrame + composeFrame', () => {
    const v = splitFrame(frame, DEFAULT_LAYOUT);
    composeFrame(v.front, v.side, DEFAULT_LAYOUT);
  });
  bench('drawKeypoints, 24 joints', () => {
    drawKeypoints(frame, points, { radius: 5 });
  });
  bench('warpScaleShift 1280x720 -> layout, near the identity (a rendered clip)', () => {
    warpScaleShift(frame, [1.0004, 0.9996, 0.3, -0.2], 1280, 720, DEFAULT_LAYOUT.colours.wall);
  });
  bench('warpScaleShift 832x480 -> 1280x720 layout (a 480p clip)', () => {
    warpScaleShift(small, [1280 / 832, 1.5, 0, 0], 1280, 720, DEFAULT_LAYOUT.colours.wall);
  });
  bench('encodePng', () => {
    encodePng(frame);
  });
  bench('decodePng', () => {
    decodePng(png);
  });
});
