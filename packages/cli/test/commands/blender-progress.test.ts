import { copyFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { blenderProgress, progressLine } from '../../src/commands/blender-progress.js';
import { runCli as run } from '../helpers/run-cli.js';

const temp = tempDirs();

const FOX = fileURLToPath(new URL('../../../../creatures/fox/', import.meta.url));

describe('mocap prep / rig / ref / dataset / apply', () => {
  it('are listed in --help', async () => {
    const r = await run(['--help']);
    for (const c of ['prep', 'rig', 'ref', 'dataset', 'apply'])
      expect(r.out).toMatch(new RegExp(`^  ${c} `, 'm'));
  });

  it('need a creature, and dataset/apply their required options', async () => {
    expect((await run(['prep'])).err).toContain('no creature: pass --creature DIR or set MOCAP_CREATURE');
    const d = await run(['dataset', '--creature', FOX]);
    expect(d.code).toBe(2);
    expect(d.err).toContain('--count N is required');
    const a = await run(['apply', '--creature', FOX]);
    expect(a.code).toBe(2);
    expect(a.err).toContain('--motion FILE is required');
    const sc = await run(['apply', '--creature', FOX, '--motion', 'm.json', '--showcase', 'big']);
    expect(sc.code).toBe(2);
    expect(sc.err).toContain('--showcase: Expected WIDTHxHEIGHT like 960x720, got "big"');
    expect((await run(['dataset', '--creature', FOX, '--count', 'many'])).err).toContain(
      '--count: Expected a whole number >= 1, got "many"',
    );
  });

  it('prep and rig the fox in Blender with progress bars (MOCAP_CREATURE)', async () => {
    const dir = await temp.make('mocap-cli-fox-');
    for (const f of ['creature.json', 'rig.json', 'model.glb'])
      await copyFile(path.join(FOX, f), path.join(dir, f));
    const p = await run(['prep'], { MOCAP_CREATURE: dir });
    expect(p.code).toBe(0);
    expect(p.out).toContain('static.blend');
    expect(p.err).toMatch(/\[#{24}\] 3\/3 {2}save/);
    const r = await run(['rig', '--creature', dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/rig_info\.json: 27 bones, 34 joints, weights: heat/);
    expect((await stat(path.join(dir, 'runs', 'rigged', 'rigged.blend'))).size).toBeGreaterThan(0);
  }, 120_000);

  it('reports a missing rig stage as an error naming the file', async () => {
    const dir = await temp.make('mocap-cli-fox-');
    for (const f of ['creature.json', 'rig.json', 'model.glb'])
      await copyFile(path.join(FOX, f), path.join(dir, f));
    const r = await run(['ref', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('rigged.blend: cannot read the rigged creature (run `mocap rig` first) (ENOENT)');
  });
});

describe('blenderProgress', () => {
  it('draws the bar with the rate and the time left', () => {
    expect(progressLine({ script: 'apply.py', stage: 'frames', done: 3, total: 12 })).toBe(
      '[######------------------]  3/12  frames',
    );
    expect(
      progressLine({ script: 'apply.py', stage: 'frames', done: 3, total: 12 }, ', 2.0/s, eta 0:05'),
    ).toBe('[######------------------]  3/12  frames, 2.0/s, eta 0:05');
  });

  it("in a log, a line per tenth with the stage's rate and time left once it has run a second", () => {
    let out = '';
    let ms = 0;
    const stderr = { write: (x: string) => (out += x) } as unknown as NodeJS.WritableStream;
    const bar = blenderProgress(stderr, () => ms);
    // keying: 20 items in 50 ms (no rate shown), then renders at 2 a second
    for (let i = 0; i <= 20; i++) {
      bar.onProgress({ script: 'apply.py', stage: 'frames', done: i, total: 40 });
      ms += 2.5;
    }
    for (let i = 21; i <= 40; i++) {
      bar.onProgress({ script: 'apply.py', stage: 'render', done: i, total: 40 });
      ms += 500;
    }
    bar.end();
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe('[------------------------]  0/40  frames');
    expect(lines[1]).toBe('[##----------------------]  4/40  frames');
    expect(lines).toContain('[##############----------] 24/40  render, 2.0/s, eta 0:08');
    expect(lines.at(-1)).toBe('[########################] 40/40  render');
  });
});
