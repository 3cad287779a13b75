import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ClipRenderer } from '@mocap/fal';
import type { MotionJson } from '@mocap/layout';

const run = promisify(execFile);

/**
 * A ClipRenderer for tests: a real (tiny) H.264 MP4 with one frame per motion frame, made by
 * ffmpeg, and the joints it was asked to pose from `pose` (the motion's own `joints` unless
 * given). Counts its calls.
 */
export function testRenderer(pose?: (m: MotionJson) => number[][][]): ClipRenderer & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'test renderer (ffmpeg, 64 x 36)',
    calls,
    async render({ motion, out, signal }) {
      calls.push(out);
      const t = motion.trans.length;
      await run(
        'ffmpeg',
        [
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          `color=c=0x808286:s=64x36:r=${motion.fps}`,
          '-frames:v',
          String(t),
          '-pix_fmt',
          'yuv420p',
          '-f',
          'mp4',
          '-y',
          out,
        ],
        { timeout: 30_000, ...(signal ? { signal } : {}) },
      );
      return { joints: pose ? pose(motion) : motion.joints.map((f) => f.map((j) => [...j])) };
    },
  };
}
