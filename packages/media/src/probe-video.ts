import { stat } from 'node:fs/promises';
import { FileError } from '@mocap/layout';
import { execa } from 'execa';
import { z } from 'zod';
import { FfmpegError } from './ffmpeg-error.js';
import { findFfprobe } from './find-ffmpeg.js';
import { toFfmpegError } from './run-tool.js';

/** Options of {@link probeVideo}. */
export const ProbeOptions = z
  .object({
    /** Cancels the probe. */
    signal: z.instanceof(AbortSignal).optional(),
    /** Limit for each ffprobe run, ms. @default 60000 */
    timeout: z.number().int().positive().default(60_000),
  })
  .strict();
/** Options of {@link probeVideo}. */
export type ProbeOptions = z.input<typeof ProbeOptions>;

/** A video's first video stream, as {@link probeVideo} reports it. */
export interface VideoInfo {
  /** Frame width in px as {@link decodeVideo} returns frames: upright, rotation metadata applied. */
  width: number;
  height: number;
  /** The stream's own (coded) size, before rotation metadata: `width` and `height` swapped for 90 and 270 degrees. */
  coded: { width: number; height: number };
  /**
   * Degrees the player turns the coded frames to show them upright (display matrix side data, else
   * the `rotate` tag), one of 0, 90, 180, 270; ffmpeg (and so {@link decodeVideo}) applies it.
   */
  rotation: 0 | 90 | 180 | 270;
  /**
   * Whether the frames come at a variable rate: ffprobe's base rate (`r_frame_rate`) and its
   * average (`avg_frame_rate`) differ by more than 1%. {@link decodeVideo} then resamples the
   * frames to `fps`, the average, so each frame is 1 / fps seconds after the last.
   */
  vfr: boolean;
  /** Frames per second as a number, `fpsRational.num / fpsRational.den` (the average rate). */
  fps: number;
  /** Frames per second as ffprobe reports it, e.g. `{ num: 30000, den: 1001 }`. */
  fpsRational: { num: number; den: number };
  /** Number of frames (from the container, else by counting packets). */
  frames: number;
  /** Duration in seconds. */
  duration: number;
  /** Codec name, e.g. `h264`. */
  codec: string;
  /** Container format name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  format: string;
}

const Stream = z.object({
  codec_name: z.string().default('unknown'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  r_frame_rate: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  nb_frames: z.string().optional(),
  nb_read_packets: z.string().optional(),
  duration: z.string().optional(),
  tags: z.object({ rotate: z.string().optional() }).partial().optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() }).partial()).optional(),
});
const ProbeJson = z.object({
  streams: z.array(Stream.partial()).default([]),
  format: z.object({ format_name: z.string().optional(), duration: z.string().optional() }).default({}),
});

function rational(s: string | undefined): { num: number; den: number } | undefined {
  const m = /^(\d+)(?:\/(\d+))?$/.exec(s ?? '');
  if (!m) return undefined;
  const num = Number(m[1]);
  const den = m[2] === undefined ? 1 : Number(m[2]);
  return num > 0 && den > 0 ? { num, den } : undefined;
}

/** The quarter turn (0, 90, 180, 270) of the display matrix's rotation, else the `rotate` tag's. */
function quarterTurn(st: z.infer<typeof Stream>): 0 | 90 | 180 | 270 {
  const side = st.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const deg = side ?? Number(st.tags?.rotate ?? 0);
  if (!Number.isFinite(deg)) return 0;
  return ((((Math.round(deg / 90) * 90) % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}

const STILL_FORMATS = /(^|,)(image2|[a-z0-9]+_pipe|gif|apng|webp)(,|$)/;

async function ffprobe(file: string, args: string[], o: z.output<typeof ProbeOptions>) {
  const bin = findFfprobe();
  try {
    const { stdout } = await execa(bin, ['-v', 'error', ...args, '-of', 'json', file], {
      stdin: 'ignore',
      timeout: o.timeout,
      ...(o.signal ? { cancelSignal: o.signal } : {}),
    });
    return ProbeJson.parse(JSON.parse(stdout));
  } catch (err) {
    const e = toFfmpegError(`probeVideo: ${file}`, 'ffprobe', err, o.timeout);
    if (e instanceof FfmpegError && !e.aborted && !e.timedOut) {
      const why =
        e.stderrTail
          .split('\n')
          .pop()
          ?.replace(/^.*?: /, '') || 'ffprobe cannot read it';
      throw new FileError(`probeVideo: ${file}: not a video (${why}).`, file, '', { cause: e });
    }
    throw e;
  }
}

/**
 * Probes a video file's first video stream with ffprobe.
 * A missing file, a file that is not a video (text, audio only, a still image) is a FileError
 * naming it; a failed, aborted or timed-out ffprobe is an {@link FfmpegError}.
 *
 * ```ts
 * const info = await probeVideo('clip.mp4');
 * info.width; info.fps; info.frames; // 1280, 30, 120
 * ```
 */
export async function probeVideo(file: string, options: ProbeOptions = {}): Promise<VideoInfo> {
  const o = ProbeOptions.parse(options);
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new FileError(`probeVideo: ${file}: not a file.`, file);
  } catch (err) {
    if (err instanceof FileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileError(
      `probeVideo: ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}.`,
      file,
      '',
      {
        cause: err,
      },
    );
  }
  const entries =
    'stream=codec_name,width,height,r_frame_rate,avg_frame_rate,nb_frames,duration:stream_tags=rotate:stream_side_data=rotation:format=format_name,duration';
  const json = await ffprobe(file, ['-select_streams', 'v:0', '-show_entries', entries], o);
  const format = json.format.format_name ?? 'unknown';
  const parsed = Stream.safeParse(json.streams[0]);
  if (!parsed.success) {
    throw new FileError(
      `probeVideo: ${file}: not a video (no video stream; format ${format}).`,
      file,
      'streams',
    );
  }
  const st = parsed.data;
  if (STILL_FORMATS.test(format)) {
    throw new FileError(
      `probeVideo: ${file}: not a video (a still image, format ${format}).`,
      file,
      'format',
    );
  }
  const fpsRational = rational(st.avg_frame_rate) ?? rational(st.r_frame_rate);
  if (!fpsRational) {
    throw new FileError(
      `probeVideo: ${file}: frame rate: ffprobe reports ${st.avg_frame_rate} / ${st.r_frame_rate}.`,
      file,
      'r_frame_rate',
    );
  }
  const fps = fpsRational.num / fpsRational.den;
  const base = rational(st.r_frame_rate);
  const vfr = base !== undefined && Math.abs(base.num / base.den / fps - 1) > 0.01;
  let frames = Number(st.nb_frames);
  if (!(frames > 0)) {
    const counted = await ffprobe(
      file,
      ['-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets'],
      o,
    );
    frames = Number(counted.streams[0]?.nb_read_packets);
  }
  if (!(frames > 0)) throw new FileError(`probeVideo: ${file}: not a video (no frames).`, file, 'nb_frames');
  const dur = Number(st.duration ?? json.format.duration);
  const duration = dur > 0 ? dur : frames / fps;
  const rotation = quarterTurn(st);
  const turned = rotation === 90 || rotation === 270;
  return {
    width: turned ? st.height : st.width,
    height: turned ? st.width : st.height,
    coded: { width: st.width, height: st.height },
    rotation,
    vfr,
    fps,
    fpsRational,
    frames,
    duration,
    codec: st.codec_name,
    format,
  };
}
