import path from 'node:path';
import { acceptProposal, proposeRig } from '@mocap/rig-propose';
import type { CommandContext } from '../command.js';
import { blenderOptions, blenderProgress } from './blender-progress.js';

/** `mocap rig --propose` / `--accept`'s parsed flags. */
interface ProposeFlags {
  creature: string;
  runs: string | undefined;
  timeout: string | undefined;
  force: boolean;
}

/** `mocap rig --propose`: fits the quadruped template, prints the three files, confidences and unassigned regions. */
export async function runRigPropose(ctx: CommandContext, f: ProposeFlags): Promise<number> {
  const bar = blenderProgress(ctx.stderr);
  try {
    const r = await proposeRig({
      creature: f.creature,
      runs: f.runs ? path.resolve(ctx.cwd, f.runs) : undefined,
      force: f.force,
      ...blenderOptions(ctx, f.timeout, bar.onProgress),
    });
    bar.end();
    const joints = Object.entries(r.proposal.joints);
    const low = joints
      .filter(([, j]) => j.confidence < 0.5)
      .map(([n, j]) => `${n} ${j.confidence.toFixed(2)}`);
    const mean = joints.reduce((a, [, j]) => a + j.confidence, 0) / joints.length;
    ctx.stdout.write(
      `${r.rigFile}: ${joints.length} joints, ${r.rig.bones.length} bones (the wolf's names)\n`,
    );
    ctx.stdout.write(
      `${r.proposalFile}: mean confidence ${mean.toFixed(2)}${low.length ? `; low: ${low.join(', ')}` : ''}\n`,
    );
    const regions = r.proposal.unassigned.map(
      (u) => `${u.name} (${(100 * u.share).toFixed(0)}% of the surface, at ${u.attach})`,
    );
    ctx.stdout.write(`unassigned regions: ${regions.length ? regions.join(', ') : 'none'}\n`);
    ctx.stdout.write(`${r.pictureFile}: review it, then \`mocap rig --accept --creature ${f.creature}\`\n`);
    return 0;
  } finally {
    bar.end();
  }
}

/** `mocap rig --accept`: copies rig.proposed.json to rig.json. */
export async function runRigAccept(ctx: CommandContext, f: ProposeFlags): Promise<number> {
  const file = await acceptProposal({
    creature: f.creature,
    runs: f.runs ? path.resolve(ctx.cwd, f.runs) : undefined,
    force: f.force,
  });
  ctx.stdout.write(`${file}\n`);
  return 0;
}
