// `pnpm pack` gives a tarball whose exports resolve: install it beside its dependencies in an
// empty folder and import it by name, as a user of the published package would.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

const temp = tempDirs();

const pkgDir = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(pkgDir, 'package.json'));

describe('pnpm pack', () => {
  it('gives a tarball with dist, types and README whose exports resolve by name', async () => {
    expect(existsSync(path.join(pkgDir, 'dist/index.js')), 'build first: pnpm turbo run build').toBe(true);
    const out = await temp.make('mocap-pack-');
    execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: pkgDir, stdio: 'ignore' });
    const [tgz] = (await readdir(out)).filter((f) => f.endsWith('.tgz'));
    expect(tgz).toMatch(/^mocap-layout-\d+\.\d+\.\d+\.tgz$/);
    const listing = execFileSync('tar', ['-tzf', path.join(out, tgz as string)], { encoding: 'utf8' });
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/README.md');
    expect(listing).not.toContain('package/src/');

    const app = path.join(out, 'app');
    const target = path.join(app, 'node_modules/@mocap/layout');
    await mkdir(target, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(out, tgz as string), '-C', target, '--strip-components=1']);
    for (const dep of ['zod']) {
      const root = path.dirname(require.resolve(`${dep}/package.json`));
      await symlink(root, path.join(app, 'node_modules', dep));
    }
    const keys = execFileSync(
      'node',
      [
        '--input-type=module',
        '-e',
        "const m = await import('@mocap/layout'); console.log(JSON.stringify(Object.keys(m)))",
      ],
      { cwd: app, encoding: 'utf8' },
    );
    const names = JSON.parse(keys) as string[];
    for (const n of [
      'Layout',
      'DEFAULT_LAYOUT',
      'readNpz',
      'writeNpz',
      'triangulate',
      'projectPoints',
      'MotionJson',
      'RigInfo',
    ]) {
      expect(names).toContain(n);
    }
  });
});
