import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout, readDetections } from '@mocap/layout';
import { encodeVideo, fillCircle, studioBackdrop, writePng } from '@mocap/media';
import { createReader, saveReader } from '@mocap/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

const layoutInput = {
  WIDTH: 320,
  HEIGHT: 180,
  W_FRONT: 106,
  W_SIDE: 214,
  GROUND_V: 160,
  M_PER_PX: 1.9 / 180,
};
const layout = Layout.parse(layoutInput);

function frame(k: number) {
  const img = studioBackdrop(layout);
  fillCircle(img, 50 + k, 90, 10, [200, 40, 40]);
  fillCircle(img, 200 + 2 * k, 100, 12, [40, 60, 200]);
  return img;
}

describe('mocap detect', () => {
  let dir = '';
  let clip = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-detect-'));
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ layout: layoutInput }));
    const reader = await createReader({
      joints: ['a', 'b'],
      inputSize: 64,
      backbone: { kind: 'cnn', widths: [8, 8] },
    });
    await saveReader(reader, path.join(dir, 'runs', 'reader'));
    reader.dispose();
    await writePng(path.join(dir, 'runs', 'ref', 'ref.png'), frame(0));
    clip = path.join(dir, 'clip.mp4');
    await encodeVideo(clip, [0, 1, 2, 3, 4, 5, 6, 7].map(frame), { fps: 12 });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes det.npz beside the clip and reports the calibration, its drift and frames/s', async () => {
    const r = await run(['detect', clip, '--creature', dir]);
    expect(r.err).toMatch(
      /calib: 320 x 180 clip -> layout u = 1\.0000 u [+-]0\.\d\d, v = 1\.0000 v [+-]0\.\d\d \(scale from the frame's size(; ref\.png agrees to [\d.]+% on frame \d+)?; 8 of 8 frames measured fit\)\ndrift: none/,
    );
    expect(r.err).toMatch(/8 frames in [\d.]+ s \([\d.]+ two-view frames\/s on wasm\)/);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(path.join(dir, 'det.npz'));
    const det = await readDetections(path.join(dir, 'det.npz'));
    expect(det).toMatchObject({ names: ['a', 'b'], frames: 8, fps: 12 });
    const json = JSON.parse((await run(['detect', clip, '--creature', dir, '--json'])).out);
    expect(json.calibration).toMatchObject({ size: [320, 180], drifts: false, measured: 8, skipped: [] });
  });

  it('refuses a clip of 3 frames and a picture with no studio, saying what it measured', async () => {
    const short = path.join(dir, 'short.mp4');
    await encodeVideo(short, [0, 1, 2].map(frame), { fps: 12 });
    const a = await run(['detect', short, '--creature', dir]);
    expect(a.code).toBe(1);
    expect(a.err).toMatch(/mocap detect: detect: .*short\.mp4: the clip has 3 frames .*8 frames or more/);
    const grey = path.join(dir, 'grey.mp4');
    await encodeVideo(
      grey,
      Array.from({ length: 8 }, () => studioBackdrop({ ...layout, DIVIDER_PX: 0 })),
      { fps: 12 },
    );
    const b = await run(['detect', grey, '--creature', dir]);
    expect(b.code).toBe(1);
    expect(b.err).toMatch(
      /grey\.mp4: no calibration to the layout fits \(320 x 180, 8 frames measured.*frame 0: no divider/,
    );
  });

  it('explains bad arguments', async () => {
    expect((await run(['detect', '--creature', dir])).err).toContain('give exactly one clip');
    expect((await run(['detect', clip, '--creature', dir, '--calib', '1,2'])).err).toContain(
      '--calib: Expected auto, identity or sx,sy,tx,ty, got "1,2"',
    );
    expect((await run(['detect', clip, '--creature', dir, '--creature-zoom', 'on'])).err).toContain(
      '--creature-zoom: Expected follow, report or apply, got "on"',
    );
    const noRef = await run(['detect', clip, '--creature', dir, '--ref', path.join(dir, 'none.png')]);
    expect(noRef.code).toBe(1);
    expect(noRef.err).toMatch(/mocap detect: readPng: .*none\.png/);
  });
});
