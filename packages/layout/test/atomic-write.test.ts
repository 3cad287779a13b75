import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite, atomicWriteJson } from '@mocap/layout';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

const temp = tempDirs();

describe('atomicWrite', () => {
  it('creates folders and replaces the whole file, leaving no temporary file', async () => {
    const dir = await temp.make('mocap-atomic-');
    const file = path.join(dir, 'a', 'b', 'out.json');
    await atomicWriteJson(file, { a: 1 });
    await atomicWrite(file, 'second');
    expect(await readFile(file, 'utf8')).toBe('second');
    expect(await readdir(path.dirname(file))).toEqual(['out.json']);
  });

  it('keeps what was at the path and removes its temporary file when the write fails', async () => {
    const dir = await temp.make('mocap-atomic-');
    // A folder at the target path makes the rename fail after the temporary file was written.
    const target = path.join(dir, 'out');
    await atomicWrite(path.join(target, 'x'), 'old');
    await expect(atomicWrite(target, 'new')).rejects.toThrow(/out/);
    expect(await readFile(path.join(target, 'x'), 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['out']);
    expect(await readdir(target)).toEqual(['x']);
  });
});
