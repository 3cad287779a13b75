import { describeFrameTiming, solveFiles } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

/** `mocap solve`: det.npz + rig -> motion.json. */
export const solveCommand: Command = {
  name: 'solve',
  summary: 'Fit the rig to two-view detections (det.npz -> motion.json)',
  usage: 'mocap solve --det det.npz --rig <rig_info.json|rig.json> [--creature DIR] --out motion.json',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      det: { type: 'string' },
      rig: { type: 'string' },
      creature: { type: 'string' },
      out: { type: 'string' },
    });
    if (!values.det || !values.rig || !values.out)
      throw new UsageError('solve needs --det, --rig and --out.');
    const motion = await solveFiles({
      det: values.det,
      rig: values.rig,
      out: values.out,
      creature: values.creature,
      env: ctx.env,
      cwd: ctx.cwd,
    });
    const s = motion.sync;
    ctx.stdout.write(
      `${values.out}: ${motion.trans.length} frames, reprojection ${motion.reproj_px.mean.toFixed(2)} px, ` +
        `lag ${s.lag_frames}${s.warped ? ' (warped)' : ''}, swaps fixed ${s.swaps_fixed.front}+${s.swaps_fixed.side}, ` +
        `fit ${(motion.fit?.seconds ?? 0).toFixed(2)} s\n`,
    );
    if (motion.frame_timing) ctx.stdout.write(`${describeFrameTiming(motion.frame_timing)}\n`);
    return 0;
  },
};
