import type { ExamReport } from '@mocap/layout';
import type { DegradeParams } from '@mocap/media';
import type { DegradedExam } from './degraded-exam.js';

const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

/** The drawn parameters in a few words per preset, as the exam prints them. */
export function describeDegrade(p: DegradeParams): string {
  const parts: string[] = [];
  if (p.codec) parts.push(`crf ${p.codec.crf}, blur ${f2(p.codec.blurSigma)} px, noise ${f2(p.codec.noise)}`);
  if (p.resize) parts.push(`${p.resize.width} x ${p.resize.height}`);
  if (p.reframe)
    parts.push(
      `scale ${p.reframe.scale.toFixed(3)}, shift ${pct(p.reframe.shiftX)}, ${pct(p.reframe.shiftY)}`,
    );
  if (p.drift)
    parts.push(`drift zoom ${pct(p.drift.zoom)}, slide ${pct(p.drift.slideX)}, ${pct(p.drift.slideY)}`);
  if (p.colour) {
    const c = (s: typeof p.colour.from) =>
      `sat ${f2(s.saturation)} bri ${s.brightness >= 0 ? '+' : ''}${f2(s.brightness)} gam ${f2(s.gamma)} hue ${s.hue.toFixed(1)}`;
    parts.push(`colour ${c(p.colour.from)} -> ${c(p.colour.to)}`);
  }
  if (p.fps) parts.push(`${p.fps.fps} fps`);
  if (p.ghost) parts.push(`ghost ${f2(p.ghost.blend)}`);
  if (p.lag) parts.push(`${p.lag.view} view ${p.lag.frames} frame${p.lag.frames > 1 ? 's' : ''} behind`);
  if (p.fade) parts.push(`fade over ${p.fade.frames} frames`);
  return parts.join('; ');
}

/**
 * The degraded reads beside the clean one, as `mocap exam --render --degrade` prints them: per
 * preset the error in cm (mean, median, p95, max), how far detect's calibration was from the
 * degradation's truth, and what was drawn.
 *
 * ```ts
 * process.stdout.write(degradedSummary(report, report.degraded));
 * ```
 */
export function degradedSummary(clean: ExamReport, runs: readonly DegradedExam[]): string {
  const row = (name: string, e: ExamReport['error_cm'], tail: string) =>
    `  ${name.padEnd(8)} ${f3(e.mean).padStart(7)} ${f3(e.median).padStart(7)} ${f3(e.p95).padStart(7)} ${f3(e.max).padStart(7)}  ${tail}\n`;
  let text = `degraded (seed ${clean.seed}): error cm     mean  median     p95     max  calib px mean/max; drawn\n`;
  text += row('clean', clean.error_cm, `${clean.frames} frames`);
  for (const r of runs) {
    const drawn = describeDegrade(r.params);
    if (!r.report) {
      text += `  ${r.preset.padEnd(8)} failed: ${r.error}  (${drawn})\n`;
      continue;
    }
    const cal = r.calibErrorPx ? `${f2(r.calibErrorPx.mean)}/${f2(r.calibErrorPx.max)}` : '-';
    const v = r.views;
    const found = !v
      ? ''
      : [
          v.fade.length > 0 ? `fade ${v.fade.length} frames` : '',
          v.viewLag !== 0 ? `view lag ${v.viewLag}` : '',
          r.timing
            ? `${r.timing.sourceFps} fps source timing${r.timing.right ? '' : ' (not the one drawn)'}`
            : '',
        ]
          .filter((x) => x)
          .join(', ');
    text += row(
      r.preset,
      r.report.error_cm,
      `${cal}; ${r.frames} frames ${r.width} x ${r.height} @ ${r.fps}; ${drawn}${found ? `; found ${found}` : ''}`,
    );
  }
  return text;
}
