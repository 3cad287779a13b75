// Sums the vitest JSON reports of every workspace package into one closing line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ['packages', 'apps', 'creatures', 'tooling']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const dir = path.join(group, name);
    const pkgFile = path.join(dir, 'package.json');
    if (!existsSync(pkgFile) || !JSON.parse(readFileSync(pkgFile, 'utf8')).scripts?.test) continue;
    const file = path.join(dir, 'test-results.json');
    if (!existsSync(file)) {
      missing.push(dir);
      continue;
    }
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
}
if (missing.length) console.log(`no test report from: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
