import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanTemps } from '@mocap/blender-bridge/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('cleanTemps', () => {
  let dir = '';
  /** The pid of a process that has exited. */
  let dead = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mocap-temps-'));
    dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("removes a dead writer's temporaries and leaves a running writer's (another run's showcase)", async () => {
    const names = [
      `joints.tmp-${dead}.json`,
      `animation.tmp-${dead}.glb`,
      `.showcase.tmp-${dead}-0a0b0c0d.mp4`,
      `.showcase.tmp-${process.pid}-0a0b0c0d.mp4`,
      `animation.tmp-${process.pid}.glb`,
      'old.tmp-',
      'motion.json',
    ];
    for (const n of names) await writeFile(path.join(dir, n), 'x');
    expect(await cleanTemps(dir, ['joints', 'animation'])).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(
      [
        `.showcase.tmp-${dead}-0a0b0c0d.mp4`,
        `.showcase.tmp-${process.pid}-0a0b0c0d.mp4`,
        `animation.tmp-${process.pid}.glb`,
        'old.tmp-',
        'motion.json',
      ].sort(),
    );
    expect(await cleanTemps(dir)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(
      [`.showcase.tmp-${process.pid}-0a0b0c0d.mp4`, `animation.tmp-${process.pid}.glb`, 'motion.json'].sort(),
    );
  });

  it('is fine with a missing folder', async () => {
    expect(await cleanTemps(path.join(dir, 'none'))).toBe(0);
  });
});
