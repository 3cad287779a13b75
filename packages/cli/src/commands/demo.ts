import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRig, prepMesh } from '@mocap/blender-bridge';
import { creaturePaths } from '@mocap/layout';
import { defaultReader, type RenderExamResult, renderExam } from '@mocap/pipeline';
import { examCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress } from './blender-progress.js';
import { examSummary, renderExamProgress, renderExamSummary } from './exam.js';

/** The bundled wolf: `creatures/wolf` under the working directory, else beside this package. */
function bundledWolf(cwd: string): string {
  const here = path.resolve(cwd, 'creatures', 'wolf');
  if (existsSync(path.join(here, 'creature.json'))) return here;
  return fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));
}

function count(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= 2))
    throw new UsageError(`--${name}: Expected a whole number >= 2, got "${v}".`);
  return n;
}

/** `mocap demo`: prep + rig the bundled wolf if needed, then the rendered (or synthetic) exam. */
export const demoCommand: Command = {
  name: 'demo',
  summary:
    'Offline end to end on the bundled wolf: prep, rig, then the exam (rendered when a reader is trained)',
  usage: 'mocap demo [--creature DIR] [--frames T] [--seed N] [--timeout SEC] [--json]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      frames: { type: 'string' },
      seed: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    const creature = values.creature
      ? path.resolve(ctx.cwd, values.creature)
      : (ctx.env.MOCAP_CREATURE ?? bundledWolf(ctx.cwd));
    const frames = count('frames', values.frames, 60);
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed: Expected an integer, got "${values.seed}".`);
    const p = creaturePaths(creature);
    const bar = blenderProgress(ctx.stderr);
    const blender = blenderOptions(ctx, values.timeout, bar.onProgress);
    try {
      if (!existsSync(p.staticBlend)) {
        ctx.stderr.write(`prep: ${p.model}\n`);
        await prepMesh({ creature, ...blender });
        bar.end();
      } else ctx.stderr.write(`prep: done already (${p.staticBlend})\n`);
      if (!existsSync(p.rigInfo) || !existsSync(p.riggedBlend)) {
        ctx.stderr.write(`rig: ${p.rigJson}\n`);
        await buildRig({ creature, ...blender });
        bar.end();
      } else ctx.stderr.write(`rig: done already (${p.rigInfo})\n`);
    } finally {
      bar.end();
    }
    const reader = defaultReader(creature);
    let report: Awaited<ReturnType<typeof examCreature>> | RenderExamResult;
    if (existsSync(path.join(reader, 'model.json'))) {
      ctx.stderr.write(`exam --render: ${frames} frames, seed ${seed}, reader ${reader}\n`);
      report = await renderExam({
        creature,
        frames,
        seed,
        env: ctx.env,
        signal: ctx.signal,
        onStage: renderExamProgress(ctx.stderr),
      });
    } else {
      ctx.stderr.write(
        `no trained reader at ${reader}: running the synthetic exam; the rendered exam needs ` +
          `\`mocap dataset --creature ${creature}\` then \`mocap train --creature ${creature}\` first.\n`,
      );
      report = await examCreature(creature, { frames, seed, noisePx: 2, outliers: 0.05 }, ctx.env, ctx.cwd);
    }
    ctx.stdout.write(values.json ? `${JSON.stringify(report)}\n` : examSummary(report));
    if (!values.json && 'detectSeconds' in report)
      ctx.stdout.write(renderExamSummary(report as RenderExamResult));
    return 0;
  },
};
