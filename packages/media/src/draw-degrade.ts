import { seededRandom } from '@mocap/anim-loop';
import {
  DEGRADE_PRESETS,
  DEGRADE_RANGES,
  type DegradeParams,
  type DegradePreset,
} from './degrade-presets.js';

/** The clip a degradation is drawn for. */
export interface DegradeSource {
  width: number;
  height: number;
  fps: number;
}

/**
 * Draws the parameters of each preset from {@link DEGRADE_RANGES} with a seed (`all` draws every
 * preset): the same presets, seed and source give the same parameters. Each preset draws from its
 * own stream (seed and preset name), so adding a preset to a list leaves the others' draws as they
 * were.
 *
 * ```ts
 * drawDegrade(['codec'], 1, { width: 1280, height: 720, fps: 30 }); // { codec: { crf: 31, blurSigma: 0.93, noise: 5.1 } }
 * ```
 */
export function drawDegrade(
  presets: readonly DegradePreset[],
  seed: number,
  src: DegradeSource,
): DegradeParams {
  const wanted = new Set(presets.includes('all') ? DEGRADE_PRESETS : presets);
  const R = DEGRADE_RANGES;
  const p: DegradeParams = {};
  const rng = (name: string) => {
    let h = seed >>> 0;
    for (const ch of name) h = (Math.imul(h ^ ch.charCodeAt(0), 0x9e3779b1) + 0x7f4a7c15) >>> 0;
    return seededRandom(h);
  };
  const range = (r: ReturnType<typeof rng>, [lo, hi]: readonly number[]) => r.uniform(lo!, hi!);
  const sign = (r: ReturnType<typeof rng>) => (r.next() < 0.5 ? -1 : 1);
  if (wanted.has('codec')) {
    const r = rng('codec');
    p.codec = {
      crf: Math.round(range(r, R.codec.crf)),
      blurSigma: range(r, R.codec.blurSigma),
      noise: range(r, R.codec.noise),
    };
  }
  if (wanted.has('resize')) {
    const r = rng('resize');
    const m = R.resize.multiple;
    const aspect = range(r, R.resize.aspect);
    const height = Math.max(m, Math.round((range(r, R.resize.scale) * src.height) / m) * m);
    p.resize = { width: Math.max(m, Math.round((height * aspect) / m) * m), height };
  }
  if (wanted.has('reframe')) {
    const r = rng('reframe');
    p.reframe = {
      scale: range(r, R.reframe.scale),
      shiftX: r.uniform(-R.reframe.shift, R.reframe.shift),
      shiftY: r.uniform(-R.reframe.shift, R.reframe.shift),
    };
  }
  if (wanted.has('drift')) {
    const r = rng('drift');
    const a = R.drift.amount;
    // At least half the range, so the drift is there to follow.
    p.drift = {
      zoom: sign(r) * r.uniform(a / 2, a),
      slideX: sign(r) * r.uniform(a / 2, a),
      slideY: r.uniform(-a / 2, a / 2),
    };
  }
  if (wanted.has('colour')) {
    const r = rng('colour');
    const c = R.colour;
    const one = () => ({
      saturation: range(r, c.saturation),
      brightness: range(r, c.brightness),
      gamma: range(r, c.gamma),
      hue: range(r, c.hue),
    });
    p.colour = { from: one(), to: one() };
  }
  if (wanted.has('fps')) {
    const r = rng('fps');
    const rates = R.fps.rates.filter((f) => f < src.fps);
    if (rates.length > 0) p.fps = { fps: rates[r.int(rates.length)]! };
  }
  if (wanted.has('ghost')) p.ghost = { blend: range(rng('ghost'), R.ghost.blend) };
  if (wanted.has('lag')) {
    const r = rng('lag');
    p.lag = {
      view: r.next() < 0.5 ? 'front' : 'side',
      frames: R.lag.frames[0]! + r.int(R.lag.frames[1]! - R.lag.frames[0]! + 1),
    };
  }
  if (wanted.has('fade')) {
    const r = rng('fade');
    p.fade = { frames: R.fade.frames[0]! + r.int(R.fade.frames[1]! - R.fade.frames[0]! + 1) };
  }
  return p;
}
