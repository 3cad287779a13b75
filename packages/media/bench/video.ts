// Decode and encode speed of 1280 x 720 video through ffmpeg pipes, medians of repeated runs.
// Run from /work/main: pnpm --filter @mocap/media bench:video
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  decodeVideo,
  encodeVideo,
  fillCircle,
  findFfmpeg,
  probeVideo,
  type RgbImage,
  studioBackdrop,
} from '@mocap/media';
import { execa } from 'execa';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 120);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Studio frames with a moving textured blob in each view, like a render of a creature. */
function makeFrames(n: number): RgbImage[] {
  const rand = seededRandom(7);
  const bg = studioBackdrop(DEFAULT_LAYOUT);
  const out: RgbImage[] = [];
  for (let t = 0; t < n; t++) {
    const img = { width: bg.width, height: bg.height, data: bg.data.slice() };
    for (let k = 0; k < 12; k++) {
      const x = 210 + 120 * Math.sin(0.1 * t + k);
      const y = 300 + 20 * k + 10 * Math.cos(0.2 * t);
      fillCircle(img, x, y, 30, [90 + 10 * k, 70, 50]);
      fillCircle(img, 800 + 200 * Math.sin(0.05 * t + k) + 15 * k, y, 40, [90 + 10 * k, 70, 50]);
    }
    for (let i = 0; i < img.data.length; i++) {
      img.data[i] = Math.max(0, Math.min(255, (img.data[i] as number) + Math.round((rand.next() - 0.5) * 6)));
    }
    out.push(img);
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

async function timeRuns(label: string, frames: number, run: () => Promise<unknown>): Promise<void> {
  const fps: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await run();
    fps.push(frames / ((performance.now() - t0) / 1000));
  }
  const row = `| ${label} | ${median(fps).toFixed(1)} | ${Math.min(...fps).toFixed(1)}-${Math.max(...fps).toFixed(1)} |`;
  console.log(row);
}

const dir = await mkdtemp(path.join(tmpdir(), 'mocap-media-bench-'));
try {
  const frames = makeFrames(FRAMES);
  const clip = path.join(dir, 'clip.mp4');
  await encodeVideo(clip, frames, { fps: 24, crf: 18, preset: 'medium' });
  const ffmpeg = findFfmpeg();
  console.log(`${FRAMES} frames 1280 x 720, ${RUNS} runs each; fps median, range`);
  console.log('| what | fps (median) | range |\n|---|---|---|');
  await timeRuns('decodeVideo (RGB frames into JS)', FRAMES, async () => {
    let n = 0;
    for await (const f of decodeVideo(clip)) n += f.data.length > 0 ? 1 : 0;
    if (n !== FRAMES) throw new Error(`decoded ${n} frames, expected ${FRAMES}`);
  });
  const info = await probeVideo(clip);
  await timeRuns('decodeVideo, probe result passed in (`info`)', FRAMES, async () => {
    for await (const _ of decodeVideo(clip, { info })) {
      // drain
    }
  });
  await timeRuns('ffmpeg to a pipe, Node drains the bytes (no frames)', FRAMES, async () => {
    const sub = execa(
      ffmpeg,
      ['-nostdin', '-v', 'error', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      {
        buffer: { stdout: false },
      },
    );
    for await (const _ of sub.stdout as AsyncIterable<Buffer>) {
      // drain
    }
    await sub;
  });
  await timeRuns('ffmpeg alone, rgb24 to /dev/null (reference)', FRAMES, () =>
    execa(ffmpeg, ['-v', 'error', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', '/dev/null']),
  );
  await timeRuns('decodeVideo at 640 x 360 (area scale in ffmpeg)', FRAMES, async () => {
    for await (const _ of decodeVideo(clip, { size: { width: 640, height: 360 } })) {
      // drain
    }
  });
  for (const preset of ['veryfast', 'medium'] as const) {
    await timeRuns(`encodeVideo crf 18 preset ${preset}`, FRAMES, () =>
      encodeVideo(path.join(dir, `out-${preset}.mp4`), frames, { fps: 24, crf: 18, preset }),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
