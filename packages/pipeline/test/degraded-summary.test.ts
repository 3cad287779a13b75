import { ExamReport } from '@mocap/layout';
import { type DegradedExam, degradedSummary } from '@mocap/pipeline';
import { describeDegrade } from '@mocap/pipeline/internal';
import { describe, expect, it } from 'vitest';

const stats = (mean: number) => ({ mean, median: mean * 0.8, p95: mean * 3, max: mean * 9 });
function report(mean: number, frames = 120): ExamReport {
  return ExamReport.parse({
    creature: 'wolf',
    mode: 'render',
    frames,
    seed: 1,
    noise_px: 0,
    outliers: 0,
    swaps: 0,
    lag_frames: 0,
    error_cm: stats(mean),
    per_joint: { nose: stats(mean) },
    per_group: { head: stats(mean) },
    fit_seconds: 1.5,
  });
}

/** A 24 fps degraded read, calibrated exactly, with the frame timing the fit found. */
function at24(preset: 'fps' | 'all', timing: DegradedExam['timing'], mean: number): DegradedExam {
  return {
    preset,
    params: { fps: { fps: 24 } },
    frames: 96,
    fps: 24,
    width: 1280,
    height: 720,
    calibration: null,
    calibErrorPx: { mean: 0, max: 0 },
    views: { fade: [], viewLag: 0, gapPx: [3, 1, 3] },
    timing,
    report: report(mean, 96),
    error: null,
  };
}

describe('degradedSummary', () => {
  it('lists each preset beside the clean read: errors, calibration error, what was drawn', () => {
    const runs: DegradedExam[] = [
      {
        preset: 'codec',
        params: { codec: { crf: 31, blurSigma: 0.93, noise: 5.1 } },
        frames: 120,
        fps: 30,
        width: 1280,
        height: 720,
        calibration: null,
        calibErrorPx: { mean: 0.29, max: 0.31 },
        views: { fade: [], viewLag: 0, gapPx: [3, 1, 3] },
        timing: null,
        report: report(0.99),
        error: null,
      },
      {
        preset: 'lag',
        params: { lag: { view: 'side', frames: 2 } },
        frames: 120,
        fps: 30,
        width: 1280,
        height: 720,
        calibration: null,
        calibErrorPx: { mean: 0, max: 0 },
        views: { fade: [0, 0, 0.4], viewLag: 2, gapPx: [3, 1, 3] },
        timing: null,
        report: report(0.8),
        error: null,
      },
      at24('fps', { sourceFps: 30, right: true }, 0.86),
      at24('all', { sourceFps: 60, right: false }, 1.7),
      {
        preset: 'fps',
        params: { fps: { fps: 16 } },
        frames: 64,
        fps: 16,
        width: 1280,
        height: 720,
        calibration: null,
        calibErrorPx: null,
        views: null,
        timing: null,
        report: null,
        error: 'detect: clip.mp4: no calibration to the layout fits',
      },
    ];
    const text = degradedSummary(report(0.66), runs);
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe(
      'degraded (seed 1): error cm     mean  median     p95     max  calib px mean/max; drawn',
    );
    expect(lines[1]).toBe('  clean      0.660   0.528   1.980   5.940  120 frames');
    expect(lines[2]).toBe(
      '  codec      0.990   0.792   2.970   8.910  0.29/0.31; 120 frames 1280 x 720 @ 30; crf 31, blur 0.93 px, noise 5.10',
    );
    expect(lines[3]).toBe(
      '  lag        0.800   0.640   2.400   7.200  0.00/0.00; 120 frames 1280 x 720 @ 30; side view 2 frames behind; found fade 3 frames, view lag 2',
    );
    expect(lines[4]).toBe(
      '  fps        0.860   0.688   2.580   7.740  0.00/0.00; 96 frames 1280 x 720 @ 24; 24 fps; found 30 fps source timing',
    );
    expect(lines[5]).toBe(
      '  all        1.700   1.360   5.100  15.300  0.00/0.00; 96 frames 1280 x 720 @ 24; 24 fps; found 60 fps source timing (not the one drawn)',
    );
    expect(lines[6]).toBe('  fps      failed: detect: clip.mp4: no calibration to the layout fits  (16 fps)');
  });

  it('describes every preset it drew', () => {
    const text = describeDegrade({
      resize: { width: 832, height: 480 },
      reframe: { scale: 0.92, shiftX: 0.01, shiftY: -0.02 },
      drift: { zoom: 0.015, slideX: -0.01, slideY: 0 },
      colour: {
        from: { saturation: 0.8, brightness: 0.04, gamma: 1.1, hue: 8 },
        to: { saturation: 1, brightness: 0, gamma: 1, hue: 0 },
      },
      ghost: { blend: 0.3 },
      lag: { view: 'side', frames: 2 },
      fade: { frames: 7 },
    });
    expect(text).toBe(
      '832 x 480; scale 0.920, shift +1.0%, -2.0%; drift zoom +1.5%, slide -1.0%, +0.0%; colour sat 0.80 bri +0.04 gam 1.10 hue 8.0 -> sat 1.00 bri +0.00 gam 1.00 hue 0.0; ghost 0.30; side view 2 frames behind; fade over 7 frames',
    );
  });
});
