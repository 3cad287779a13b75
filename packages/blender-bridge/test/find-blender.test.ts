import { chmod, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BlenderError, findBlender, parseBlenderVersion } from '@mocap/blender-bridge/internal';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

const temp = tempDirs();

async function fakeBlender(firstLine: string): Promise<string> {
  const dir = await temp.make('mocap-fake-blender-');
  const file = path.join(dir, 'blender');
  await writeFile(file, `#!/bin/sh\necho "${firstLine}"\n`);
  await chmod(file, 0o755);
  return file;
}

describe('findBlender', () => {
  it('finds the installed Blender on PATH and reads its version', async () => {
    const b = await findBlender({ env: {} });
    expect(b.path).toBe('blender');
    expect(b.version[0]).toBeGreaterThanOrEqual(3);
  });

  it('prefers the BLENDER environment variable', async () => {
    const fake = await fakeBlender('Blender 4.2.0');
    const b = await findBlender({ env: { BLENDER: fake } });
    expect(b).toEqual({ path: fake, version: [4, 2, 0] });
  });

  it('says so clearly when Blender is absent', async () => {
    const missing = path.join(tmpdir(), 'no-such-dir', 'blender');
    const e = await findBlender({ env: { BLENDER: missing } }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(BlenderError);
    expect((e as BlenderError).kind).toBe('not-found');
    expect((e as BlenderError).message).toContain(missing);
    expect((e as BlenderError).message).toContain('set BLENDER');
  });

  it('refuses a Blender that is too old, and a program that is not Blender', async () => {
    const old = await fakeBlender('Blender 2.79 (sub 7)');
    const e = await findBlender({ blender: old }).catch((err: unknown) => err);
    expect((e as BlenderError).kind).toBe('version');
    expect((e as BlenderError).message).toMatch(/is Blender 2\.79\.0; mocap needs 3\.4 or newer/);
    const other = await fakeBlender('hello');
    const e2 = await findBlender({ blender: other }).catch((err: unknown) => err);
    expect((e2 as BlenderError).kind).toBe('version');
    expect((e2 as BlenderError).message).toContain('does not look like Blender');
  });

  it('parses version lines', () => {
    expect(parseBlenderVersion('Blender 3.4.1\n\tbuild date')).toEqual([3, 4, 1]);
    expect(parseBlenderVersion('Blender 4.2')).toEqual([4, 2, 0]);
    expect(parseBlenderVersion('nope')).toBeNull();
  });
});
