// Detect throughput in two-view frames/s: a 1280 x 720 clip of 48 frames (studio + discs), the
// default reader (small CNN, 256 px, 34 joints like the wolf), calib fitted against the first frame.
// Run from the repo root: node --conditions=@mocap/source --import tsx packages/reader/bench/detect-speed.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { encodeVideo, fillCircle, studioBackdrop, writePng } from '@mocap/media';
import { createReader, detectClip, initBackend, saveReader } from '@mocap/reader';
import { estimateCalib } from '@mocap/reader/internal';

const dir = await mkdtemp(path.join(tmpdir(), 'detect-speed-'));
const { choice } = await initBackend();
const frame = (k: number) => {
  const img = studioBackdrop(DEFAULT_LAYOUT);
  for (let i = 0; i < 8; i++)
    fillCircle(img, 60 + 140 * i + 2 * k, 200 + 40 * (i % 3), 25, [40 + 25 * i, 80, 200 - 20 * i]);
  return img;
};
const reader = await createReader({ joints: Array.from({ length: 34 }, (_, i) => `j${i}`) });
await saveReader(reader, path.join(dir, 'reader'));
reader.dispose();
await writePng(path.join(dir, 'ref.png'), frame(0));
await encodeVideo(
  path.join(dir, 'clip.mp4'),
  Array.from({ length: 48 }, (_, k) => frame(k)),
  { fps: 24, preset: 'veryfast' },
);
const t0 = performance.now();
estimateCalib(frame(3), frame(0));
const calibS = (performance.now() - t0) / 1000;
const r = await detectClip({
  clip: path.join(dir, 'clip.mp4'),
  reader: path.join(dir, 'reader'),
  ref: path.join(dir, 'ref.png'),
});
const n = r.detections.frames;
console.log(
  `detect on ${choice}: ${n} frames in ${r.seconds.toFixed(2)} s = ${(n / r.seconds).toFixed(2)} two-view frames/s, calib fit included ` +
    `(the fit alone: ${calibS.toFixed(2)} s once per clip; ${(n / (r.seconds - calibS)).toFixed(2)} frames/s without it)`,
);
await rm(dir, { recursive: true, force: true });
