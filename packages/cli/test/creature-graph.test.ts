// The per-creature Turbo task graph: every bundled creature is a workspace package whose stage
// scripts call the `mocap` CLI, chained in turbo.json (prep -> rig -> ref / dataset -> train).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const creatures = readdirSync(path.join(root, 'creatures')).filter((d) =>
  readdirSync(path.join(root, 'creatures', d)).includes('creature.json'),
);
const STAGES = ['prep', 'rig', 'ref', 'dataset', 'train', 'exam', 'exam:render'];

interface DryTask {
  taskId: string;
  task: string;
  command: string;
  dependencies: string[];
  outputs: string[] | null;
}

async function dryRun(task: string, creature: string): Promise<DryTask[]> {
  const { stdout } = await promisify(execFile)(
    'pnpm',
    ['exec', 'turbo', 'run', task, '--filter', `@mocap-creature/${creature}`, '--dry=json'],
    { cwd: root, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, maxBuffer: 1 << 26 },
  );
  return (JSON.parse(stdout) as { tasks: DryTask[] }).tasks;
}

describe('the per-creature task graph', () => {
  it('finds the bundled creatures', () => {
    expect(creatures).toEqual(expect.arrayContaining(['wolf', 'dragon', 'fox']));
  });

  it.each(creatures)('%s is a package with every stage script, each a mocap command on itself', (c) => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'creatures', c, 'package.json'), 'utf8'));
    expect(pkg.name).toBe(`@mocap-creature/${c}`);
    expect(pkg.devDependencies['@mocap/cli']).toBe('workspace:*');
    for (const s of STAGES)
      expect(pkg.scripts[s], s).toMatch(
        new RegExp(`^node \\.\\./\\.\\./packages/cli/dist/bin\\.js ${s.split(':')[0]} .*--creature \\.`),
      );
    // A proposed rig for review (runs/propose/), never written over the creature's rig.json.
    expect(pkg.scripts.propose).toBe(
      'node ../../packages/cli/dist/bin.js rig --propose --force --creature .',
    );
  });

  it('runs the rig proposal after prep, caching runs/propose/', async () => {
    const tasks = await dryRun('propose', 'dragon');
    const propose = tasks.find((x) => x.taskId === '@mocap-creature/dragon#propose');
    expect(propose?.dependencies).toContain('@mocap-creature/dragon#prep');
    expect(propose?.outputs).toEqual(['runs/propose/**']);
  });

  it.each(['wolf', 'fox', 'dragon', 'fox-rigged'])(
    'chains %s: build -> prep -> rig -> ref, caching runs/ outputs',
    async (c) => {
      const tasks = await dryRun('exam:render', c);
      const deps = (t: string) => tasks.find((x) => x.taskId === `@mocap-creature/${c}#${t}`)?.dependencies;
      const id = (t: string) => `@mocap-creature/${c}#${t}`;
      expect(deps('prep')).toEqual(['@mocap/cli#build']);
      expect(deps('rig')).toEqual([id('prep')]);
      expect(deps('ref')).toEqual([id('rig')]);
      // Only the wolf's reader ships in its graph's place: the others' rendered exams fine-tune the wolf's first (creatures/<c>/turbo.json).
      expect(deps('exam:render')?.sort()).toEqual(
        c === 'wolf' ? [id('ref'), id('rig')] : [id('ref'), id('rig'), id('train')],
      );
      const rig = tasks.find((x) => x.taskId === id('rig'));
      expect(rig?.command).toBe('node ../../packages/cli/dist/bin.js rig --creature .');
      expect(rig?.outputs).toEqual(['runs/rigged/**']);
      // The Blender scripts reach the stages' cache keys through the CLI's build.
      expect(tasks.map((t) => t.taskId)).toContain('@mocap/blender-bridge#build');
    },
  );

  it.each(['fox', 'dragon', 'fox-rigged'])(
    "fine-tunes %s's reader from the wolf's, on 600 renders of its own",
    async (c) => {
      const tasks = await dryRun('train', c);
      const train = tasks.find((x) => x.taskId === `@mocap-creature/${c}#train`);
      // fox-rigged's joints have names of their own: they start from the wolf's joints nearest at rest, read from the wolf's rig
      expect(train?.dependencies?.sort()).toEqual(
        c === 'fox-rigged'
          ? ['@mocap-creature/fox-rigged#dataset', '@mocap-creature/wolf#rig']
          : [`@mocap-creature/${c}#dataset`],
      );
      expect(train?.command).toContain('--init ../wolf/reader');
      expect(train?.command.includes('--init-map name')).toBe(c !== 'fox-rigged');
      expect(tasks.find((x) => x.taskId === `@mocap-creature/${c}#dataset`)?.command).toContain(
        '--count 600',
      );
    },
  );

  it('trains on its own dataset, rendered after the rig', async () => {
    const tasks = await dryRun('train', 'wolf');
    const deps = (t: string) => tasks.find((x) => x.taskId === `@mocap-creature/wolf#${t}`)?.dependencies;
    expect(deps('train')).toEqual(['@mocap-creature/wolf#dataset']);
    expect(deps('dataset')).toEqual(['@mocap-creature/wolf#rig']);
  });
});
