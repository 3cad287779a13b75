import { execFileSync } from 'node:child_process';
import { codeVersion } from '@mocap/queue';
import { describe, expect, it } from 'vitest';

describe('codeVersion', () => {
  it('is the package version plus a 12-hex hash of the code that runs jobs', () => {
    expect(codeVersion()).toMatch(/^@mocap\/queue@\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
  });

  it('is the same in another process running the same code (what a worker compares)', () => {
    const other = execFileSync(
      process.execPath,
      [
        '--conditions=@mocap/source',
        '--import',
        'tsx',
        '-e',
        "import('@mocap/queue').then((m) => process.stdout.write(m.codeVersion()))",
      ],
      { encoding: 'utf8' },
    );
    expect(other).toBe(codeVersion());
  });
});
