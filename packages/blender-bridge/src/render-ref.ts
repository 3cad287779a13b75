import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite, creaturePaths, type Layout, resolveCreature, withOutputLock } from '@mocap/layout';
import { z } from 'zod';
import { checkReadable } from './check-file.js';
import { composeFrame } from './compose-frame.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';

/** Options of {@link renderRef}. */
export interface RenderRefOptions extends BlenderRunOptions {
  creature: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** Output file. @default `<runs>/ref/ref.png` */
  out?: string | undefined;
  /** Workbench anti-aliasing samples (`OFF`, `FXAA`, `5`, `8`, `11`, `16`, `32`). @default '8' */
  aa?: string;
}

/**
 * ref: the rigged creature in its rest pose from both cameras over the studio (wall, floor band
 * below the ground row, divider) -> `ref.png`, WIDTH x HEIGHT (1280 x 720 by default). Its folder
 * is locked meanwhile (lockOutput): a second run is refused, naming the first.
 *
 * ```ts
 * const { file } = await renderRef({ creature: 'creatures/wolf' });
 * ```
 */
export async function renderRef(opts: RenderRefOptions): Promise<{ file: string; layout: Layout }> {
  const out = opts.out ?? creaturePaths(opts.creature, opts.runs).refPng;
  return withOutputLock(path.dirname(out), { operation: 'ref', signal: opts.signal }, () =>
    renderRefInto(opts, out),
  );
}

async function renderRefInto(opts: RenderRefOptions, out: string): Promise<{ file: string; layout: Layout }> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const { layout } = await resolveCreature({ creature: opts.creature });
  await checkReadable('ref', paths.riggedBlend, 'rigged creature (run `mocap rig` first)');
  const dir = path.dirname(out);
  await mkdir(dir, { recursive: true });
  const tag = `${process.pid}-${Date.now()}`;
  const front = path.join(dir, `.front-${tag}.png`);
  const side = path.join(dir, `.side-${tag}.png`);
  try {
    await runBlenderScript(
      'render_ref.py',
      { rigged: paths.riggedBlend, layout, front, side, aa: opts.aa ?? '8' },
      z.object({ front: z.string(), side: z.string() }),
      opts,
    );
    await atomicWrite(out, composeFrame(await readFile(front), await readFile(side), layout));
    return { file: out, layout };
  } finally {
    await rm(front, { force: true });
    await rm(side, { force: true });
  }
}
