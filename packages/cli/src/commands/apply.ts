import path from 'node:path';
import { applyMotion } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';

function frames(v: string): 'all' | number[] {
  if (v === 'all') return 'all';
  if (v === 'none') return [];
  const list = v.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new UsageError(`--frames: Expected all, none or a list like 0,10,20, got "${v}".`);
  }
  return list;
}

/** `mocap apply`: keys the rig from motion.json; joints.json, renders, animation.glb/.bvh/.fbx. */
export const applyCommand: Command = {
  name: 'apply',
  summary: 'Key the rig from motion.json; joints.json, renders, glTF, BVH, FBX (Blender)',
  usage:
    'mocap apply [--creature DIR] --motion FILE [--out DIR] [--frames all|none|0,5,...] [--aa 8] [--showcase WxH] [--no-bvh] [--no-fbx] [--timeout SEC]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      motion: { type: 'string' },
      out: { type: 'string' },
      frames: { type: 'string', default: 'all' },
      aa: { type: 'string', default: '8' },
      showcase: { type: 'string' },
      'no-bvh': { type: 'boolean', default: false },
      'no-fbx': { type: 'boolean', default: false },
      runs: { type: 'string' },
      timeout: { type: 'string' },
    });
    const creature = requireCreature(values.creature, ctx);
    if (!values.motion) throw new UsageError('--motion FILE is required.');
    let showcase: { width: number; height: number } | undefined;
    if (values.showcase !== undefined) {
      const m = /^(\d+)x(\d+)$/.exec(values.showcase);
      if (!m)
        throw new UsageError(`--showcase: Expected WIDTHxHEIGHT like 960x720, got "${values.showcase}".`);
      showcase = { width: Number(m[1]), height: Number(m[2]) };
    }
    const bar = blenderProgress(ctx.stderr);
    try {
      const r = await applyMotion({
        creature,
        motion: path.resolve(ctx.cwd, values.motion),
        renders: frames(values.frames),
        aa: values.aa,
        ...(showcase ? { showcase } : {}),
        formats: { glb: true, bvh: !values['no-bvh'], fbx: !values['no-fbx'] },
        out: values.out ? path.resolve(ctx.cwd, values.out) : undefined,
        runs: values.runs ? path.resolve(ctx.cwd, values.runs) : undefined,
        ...blenderOptions(ctx, values.timeout, bar.onProgress),
      });
      bar.end();
      ctx.stdout.write(`${r.frames} frames applied\n`);
      for (const f of [r.joints, r.glb, r.bvh, r.fbx, r.renders]) if (f) ctx.stdout.write(`${f}\n`);
      return 0;
    } finally {
      bar.end();
    }
  },
};
