import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atomicWrite, atomicWriteJson } from '@mocap/layout';
import { describe, expect, it } from 'vitest';

describe('atomicWrite', () => {
  it('creates folders and replaces the whole file, leaving no temporary file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mocap-atomic-'));
    const file = path.join(dir, 'a', 'b', 'out.json');
    await atomicWriteJson(file, { a: 1 });
    await atomicWrite(file, 'second');
    expect(await readFile(file, 'utf8')).toBe('second');
    expect(await readdir(path.dirname(file))).toEqual(['out.json']);
  });

  it('keeps the old file and removes its temporary file when the write fails', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mocap-atomic-'));
    const file = path.join(dir, 'out.txt');
    await writeFile(file, 'old');
    // a folder where the file should go makes the rename fail after the temp file was written
    const blocked = path.join(dir, 'sub');
    await atomicWrite(path.join(blocked, 'x'), 'x');
    await expect(atomicWrite(blocked, 'new')).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('old');
    expect((await readdir(dir)).sort()).toEqual(['out.txt', 'sub']);
  });
});
