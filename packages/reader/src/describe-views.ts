import type { ClipFade } from './unfade-frames.js';
import type { ViewLag } from './view-lag.js';

/**
 * What detect found of the clip's fade-in and of its views' timing, as the lines `mocap detect`
 * and `mocap capture` print.
 *
 * ```ts
 * for (const line of describeViews(r.fade, r.lag)) process.stderr.write(`${line}\n`);
 * // fade: frames 0-6 fade in (0-1 too faint: not read; 2-6 restored from 0.29-0.86 of full contrast)
 * // views: the side view runs 2 frames behind the front; read 2 frames ahead (row gap 5.1 px in step, 2.2 px at the lag)
 * ```
 */
export function describeViews(fade: ClipFade, lag: ViewLag): string[] {
  const v = fade.visibility;
  const lines: string[] = [];
  if (v.length === 0) lines.push('fade: none (the first frame shows the creature)');
  else {
    const unseen = v.filter((x) => x === 0).length;
    const seen = v.filter((x) => x > 0);
    const parts = [
      unseen > 0 ? `${range(0, unseen - 1)} too faint: not read` : '',
      seen.length > 0
        ? `${range(unseen, v.length - 1)} restored from ${Math.min(...seen).toFixed(2)}-${Math.max(...seen).toFixed(2)} of full contrast`
        : '',
    ].filter((p) => p);
    lines.push(
      `fade: ${v.length === 1 ? 'frame 0 fades' : `frames 0-${v.length - 1} fade`} in (${parts.join('; ')})`,
    );
  }
  const g = lag.gapPx;
  const at = (l: number) => g[(g.length - 1) / 2 + l]!.toFixed(1);
  const frames = `frames ${lag.window[0]}-${lag.window[1] - 1}`;
  if (lag.frames === 0 && !Number.isFinite(g[(g.length - 1) / 2]!))
    lines.push(`views: taken as in step (no keypoint confident in both views on ${frames})`);
  else if (lag.frames === 0) lines.push(`views: in step (row gap ${at(0)} px; ${frames} compared)`);
  else {
    const [late, early] = lag.frames > 0 ? ['side', 'front'] : ['front', 'side'];
    const n = Math.abs(lag.frames);
    lines.push(
      `views: the ${late} view runs ${n} frame${n > 1 ? 's' : ''} behind the ${early}; read ${n} ahead (row gap ${at(0)} px in step, ${at(lag.frames)} px at the lag; det.npz view_lag ${lag.frames})`,
    );
  }
  return lines;
}

function range(a: number, b: number): string {
  return a === b ? `frame ${a}` : `frames ${a}-${b}`;
}

/** The fade-in and view lag as JSON reports carry them. */
export function viewsSummary(fade: ClipFade, lag: ViewLag) {
  return {
    fade: fade.visibility.map((x) => Number(x.toFixed(3))),
    viewLag: lag.frames,
    gapPx: lag.gapPx.map((x) => (Number.isFinite(x) ? Number(x.toFixed(3)) : null)),
  };
}
