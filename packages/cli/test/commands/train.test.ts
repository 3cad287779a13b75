import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout } from '@mocap/layout';
import { createReader, saveReader, writeBlobDataset } from '@mocap/reader';
import { QUARTER_LAYOUT as layoutInput } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

describe('mocap train', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-train-'));
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ layout: layoutInput }));
    await writeBlobDataset(path.join(dir, 'runs', 'dataset'), {
      samples: 4,
      layout: Layout.parse(layoutInput),
      radius: 10,
    });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('trains on runs/dataset, reports progress and held-out error, writes runs/reader', async () => {
    const r = await run(['train', '--creature', dir, '--steps', '3', '--batch', '2', '--input-size', '64']);
    expect(r.err).toContain('loaded 4 samples');
    expect(r.err).toMatch(/train \[#+\] 3\/3 loss/);
    expect(r.err).toMatch(/held-out error \(1 samples, layout px\): front mean/);
    expect(r.err).toContain('backend wasm');
    // The start says which backend trains and why the native ones did not load (not installed here).
    expect(r.err).toMatch(/train: backend wasm \(not loaded: tfjs-node-gpu: .+; tfjs-node: .+\)/);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(path.join(dir, 'runs', 'reader'));
    const model = JSON.parse(await readFile(path.join(dir, 'runs', 'reader', 'model.json'), 'utf8'));
    expect(model.joints).toEqual(['head', 'tail', 'lfoot', 'rfoot']);
    expect(model.config.inputSize).toBe(64);
    expect(model.training.step).toBe(3);
  });

  it('builds the U-Net of the shipped reader from --widths, --skips, --head-channels, --upsample, --peak-weight', async () => {
    const out = path.join(dir, 'runs', 'unet');
    const r = await run([
      'train',
      '--creature',
      dir,
      '--out',
      out,
      '--steps',
      '2',
      '--batch',
      '2',
      '--input-size',
      '32',
      '--widths',
      '8,8,12',
      '--skips',
      '--head-channels',
      '8',
      '--upsample',
      '1',
      '--peak-weight',
      '20',
      '--fresh',
    ]);
    expect(r.err).not.toContain('Expected');
    expect(r.code).toBe(0);
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8'));
    expect(model.config.backbone).toEqual({ kind: 'cnn', widths: [8, 8, 12], skips: true });
    expect(model.config.head).toEqual({ channels: 8, upsample: 1 });
    expect(model.training.peakWeight).toBe(20);
  });

  it('fine-tunes from a trained reader with --init, taking its architecture', async () => {
    const from = path.join(dir, 'runs', 'unet');
    const out = path.join(dir, 'runs', 'tuned');
    const r = await run([
      'train',
      '--creature',
      dir,
      '--out',
      out,
      '--steps',
      '2',
      '--batch',
      '2',
      '--init',
      from,
      '--init-map',
      'name',
    ]);
    expect(r.err).toMatch(/starting from .*unet: \d+ parameters, 4 joints' heatmaps carried over/);
    expect(r.code).toBe(0);
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8'));
    const source = JSON.parse(await readFile(path.join(from, 'model.json'), 'utf8'));
    expect(model.config).toEqual(source.config);
    expect(model.training.init).toBe(from);
    const clash = await run([
      'train',
      '--creature',
      dir,
      '--out',
      path.join(dir, 'runs', 'clash'),
      '--steps',
      '1',
      '--input-size',
      '64',
      '--init',
      from,
      '--init-map',
      'name',
    ]);
    expect(clash.code).not.toBe(0);
    expect(clash.err).toMatch(/init .*unet\/model\.json: config\.\w+ is/);
  });

  it('--init with joints of other names: each starts from the source joint nearest it at rest (both rigs read)', async () => {
    /** rig_info.json with one bone per keypoint, the keypoint at the bone's head. */
    const rig = (joints: Record<string, [number, number, number]>) => {
      const names = Object.keys(joints);
      return {
        root: names[0],
        bones: names.map((name, i) => {
          const head = joints[name]!;
          return {
            name,
            parent: i === 0 ? null : names[0],
            head,
            tail: [head[0], head[1], head[2] + 0.1],
            roll: 0,
            length: 0.1,
            matrix_local: [
              [1, 0, 0, head[0]],
              [0, 1, 0, head[1]],
              [0, 0, 1, head[2]],
              [0, 0, 0, 1],
            ],
            limits_deg: [
              [-90, 90],
              [-90, 90],
              [-90, 90],
            ],
          };
        }),
        keypoints: names.map((name) => ({ name, bone: name, end: 'head' })),
      };
    };
    await mkdir(path.join(dir, 'runs', 'rigged'), { recursive: true });
    // this creature (the blob dataset's joints) and a source twice its size with other names
    await writeFile(
      path.join(dir, 'runs', 'rigged', 'rig_info.json'),
      JSON.stringify(
        rig({ head: [0, -0.5, 0.5], tail: [0, 0.5, 0.4], lfoot: [0.1, 0, 0], rfoot: [-0.1, 0, 0] }),
      ),
    );
    const sourceRig = path.join(dir, 'source-rig.json');
    await writeFile(
      sourceRig,
      JSON.stringify(
        rig({ 'paw.R': [-0.3, 0.1, 0], tailtip: [0, 1, 0.7], nose: [0, -1, 1], 'paw.L': [0.3, 0.1, 0] }),
      ),
    );
    const from = path.join(dir, 'runs', 'named');
    const src = await createReader({
      inputSize: 32,
      backbone: { kind: 'cnn', widths: [4, 8] },
      head: { channels: 4, upsample: 1 },
      joints: ['nose', 'tailtip', 'paw.L', 'paw.R'],
      seed: 1,
    });
    await saveReader(src, from);
    src.dispose();
    const out = path.join(dir, 'runs', 'mapped');
    const args = ['train', '--creature', dir, '--out', out, '--steps', '1', '--batch', '2', '--init', from];
    const r = await run([...args, '--init-rig', sourceRig]);
    expect(r.err).toContain(
      "0 joints' heatmaps carried over; 4 from the source joint nearest at rest (head <- nose, tail <- tailtip, lfoot <- paw.L, rfoot <- paw.R)",
    );
    expect(r.code).toBe(0);
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8'));
    expect(model.training.initMap).toEqual({ head: 'nose', tail: 'tailtip', lfoot: 'paw.L', rfoot: 'paw.R' });
    // without the source's rig (none beside the reader, none given): refused, naming it and the way out
    const missing = await run([...args, '--out', path.join(dir, 'runs', 'unmapped')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(
      /--init-map rest: .*runs\/runs\/rigged\/rig_info\.json not found \(the rest pose of the source reader's creature.*--init-map name/,
    );
    const plain = await run([...args, '--out', path.join(dir, 'runs', 'unmapped'), '--init-map', 'name']);
    expect(plain.err).toContain('new joints head, tail, lfoot, rfoot');
    expect(plain.code).toBe(0);
    const bad = await run([...args, '--init-rig', path.join(dir, 'nope.json')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('nope.json not found');
    for (const [extra, message] of [
      [['--init-rig', sourceRig], '--init-rig and --init-map need --init DIR'],
      [['--init', from, '--init-map', 'nearest'], '--init-map: Expected rest or name, got "nearest"'],
      [['--init', from, '--init-map', 'name', '--init-rig', sourceRig], '--init-rig needs --init-map rest'],
    ] as const) {
      expect((await run(['train', '--creature', dir, ...extra])).err).toContain(message);
    }
  });

  it('explains bad U-Net arguments', async () => {
    const cases: [string[], string][] = [
      [['--widths', '16,x'], '--widths: Expected 1 to 6 comma-separated whole numbers > 0'],
      [['--widths', '1,2,3,4,5,6,7'], '--widths: Expected 1 to 6'],
      [['--widths', '16,32,48', '--input-size', '36'], '--input-size: Expected a multiple of 8'],
      [['--upsample', '5'], '--upsample: Expected a whole number in [0, 4], got "5"'],
      [['--head-channels', '0'], '--head-channels: Expected a whole number > 0'],
      [['--peak-weight=-1'], '--peak-weight: Expected a number >= 0, got "-1"'],
      [['--backbone', 'dinov2', '--skips'], '--widths and --skips need --backbone cnn'],
    ];
    for (const [args, message] of cases) {
      const r = await run(['train', '--creature', dir, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(message);
    }
  });

  it('explains bad arguments', async () => {
    expect((await run(['train'])).err).toContain('no creature');
    const bad = await run(['train', '--creature', dir, '--backbone', 'resnet']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--backbone: Expected cnn or dinov2, got "resnet"');
    expect((await run(['train', '--creature', dir, '--steps', '1.5'])).err).toContain(
      '--steps: Expected a whole number',
    );
    const missing = await run([
      'train',
      '--creature',
      dir,
      '--dataset',
      path.join(dir, 'nope'),
      '--steps',
      '1',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/mocap train: loadDataset: .*nope: cannot read the dataset folder/);
  });
});
