import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DemoEvent, type DemoResult, defaultReader, prepareCreature, runDemo } from '@mocap/pipeline';
import { examCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress } from './blender-progress.js';
import { captureProgress } from './capture.js';
import { examSummary } from './exam.js';

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

/** Progress on stderr: a line per set-up stage and per part, Blender's bar, the capture's stages. */
function demoProgress(stderr: NodeJS.WritableStream) {
  const bar = blenderProgress(stderr);
  const capture = captureProgress(stderr);
  let rendering = false;
  return {
    onEvent(e: DemoEvent) {
      if (e.kind === 'prepare') {
        bar.end();
        stderr.write(e.done ? `${e.stage}: done already (${e.file})\n` : `${e.stage}: ${e.file}\n`);
      } else if (e.kind === 'render') {
        if (!rendering) stderr.write(`render: ${e.frames} frames of the seeded gait (seed ${e.seed})\n`);
        rendering = true;
        if (e.blender) bar.onProgress(e.blender);
      } else if (e.kind === 'capture') {
        bar.end();
        capture.onEvent(e);
      } else {
        capture.end();
        stderr.write('score...\n');
      }
    },
    end() {
      bar.end();
      capture.end();
    },
  };
}

/** The demo's result in words: the score, each part's seconds, where its files are. */
export function demoSummary(r: DemoResult): string {
  const c = r.capture.seconds;
  const s = r.seconds;
  const f = (v: number) => `${v.toFixed(1)} s`;
  return (
    examSummary(r.report) +
    `seconds: prepare ${f(s.prepare)}, render ${f(s.render)}, capture ${f(c.total)} (detect ${f(c.detect)}, refine ${f(c.refine)}, ` +
    `solve ${f(c.solve)}, apply ${f(c.apply)}, showcase ${f(c.showcase)}), total ${f(s.total)}\n` +
    `animation: ${r.capture.glb}\n` +
    (r.capture.bvh ? `bvh:       ${r.capture.bvh}\n` : '') +
    (r.capture.fbx ? `fbx:       ${r.capture.fbx}\n` : '') +
    `showcase:  ${r.capture.showcase}\n` +
    `report:    ${r.reportFile}\n`
  );
}

/** `mocap demo`: the known clip of the bundled wolf through the whole capture, scored ({@link runDemo}). */
export const demoCommand: Command = {
  name: 'demo',
  summary:
    'Offline end to end on the bundled wolf: a rendered known clip through capture (animation.glb, showcase.mp4), scored',
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
    const progress = demoProgress(ctx.stderr);
    const blender = blenderOptions(ctx, values.timeout, () => {});
    try {
      const reader = defaultReader(creature);
      if (!existsSync(path.join(reader, 'model.json'))) {
        await prepareCreature(creature, blender, (e) => progress.onEvent({ kind: 'prepare', ...e }));
        ctx.stderr.write(
          `no trained reader at ${reader}: running the synthetic exam; the capture needs ` +
            `\`mocap dataset --creature ${creature}\` then \`mocap train --creature ${creature}\` first.\n`,
        );
        const report = await examCreature(
          creature,
          { frames, seed, noisePx: 2, outliers: 0.05 },
          ctx.env,
          ctx.cwd,
        );
        ctx.stdout.write(values.json ? `${JSON.stringify(report)}\n` : examSummary(report));
        return 0;
      }
      const r = await runDemo(
        { creature, frames, seed, reader, env: ctx.env, signal: ctx.signal, timeoutMs: blender.timeoutMs },
        progress.onEvent,
      );
      progress.end();
      ctx.stdout.write(values.json ? `${JSON.stringify(r, null, 2)}\n` : demoSummary(r));
      return 0;
    } finally {
      progress.end();
    }
  },
};
