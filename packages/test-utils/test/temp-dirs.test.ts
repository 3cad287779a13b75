import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../src/temp-dirs.js';

describe('tempDirs', () => {
  const temp = tempDirs();
  const seen: string[] = [];

  it('makes empty folders under the temporary folder with the prefix', async () => {
    const a = await temp.make('mocap-temp-');
    const b = await temp.make('mocap-temp-');
    expect(a).not.toBe(b);
    expect(path.dirname(a)).toBe(tmpdir());
    expect(path.basename(a)).toMatch(/^mocap-temp-\w{6}$/);
    await writeFile(path.join(a, 'x.txt'), 'x');
    seen.push(a, b);
  });

  it('removeAll removes them, contents included', async () => {
    const c = await temp.make('mocap-temp-');
    await writeFile(path.join(c, 'y.txt'), 'y');
    await temp.removeAll();
    for (const d of [...seen, c]) expect(existsSync(d)).toBe(false);
  });

  let inner = '';
  describe('in a describe block', () => {
    const own = tempDirs();
    it('keeps its folders while the block runs', async () => {
      inner = await own.make('mocap-temp-');
      await writeFile(path.join(inner, 'z.txt'), 'z');
      expect(existsSync(inner)).toBe(true);
    });
  });

  it("removes them once the block's tests are done", () => {
    expect(inner).not.toBe('');
    expect(existsSync(inner)).toBe(false);
  });
});
