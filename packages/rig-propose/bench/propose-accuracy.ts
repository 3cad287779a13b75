// Issue 20's acceptance figures: each bundled creature copied without its rig.json (model.glb
// and creature.json only), prepped, proposed, and compared with its hand-placed rig (handRig:
// the fox's is a test fixture now) through test/rig-correspondence.ts. Prints one table row per
// creature and joint group (cm).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepMesh } from '@mocap/blender-bridge';
import { proposeRig } from '@mocap/rig-propose';
import { quadrupedTemplate } from '@mocap/rig-propose/internal';
import { compareRig, handRig } from '../test/compare-rig.js';

const CREATURES = fileURLToPath(new URL('../../../creatures/', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'propose-accuracy-'));
const template = await quadrupedTemplate();
const groups: Record<string, (n: string) => boolean> = {
  legs: (n) => /\.(L|R)$/.test(n),
  body: (n) => /^(pelvis|spine\d|withers)$/.test(n),
  'neck+head': (n) => /^(neck\d?|skull|nose|jawhinge|chin)$/.test(n),
  tail: (n) => /^tail/.test(n),
};
// The dragon's acceptance covers body, legs, neck and tail: its head joints (nose, jaw) are left out.
const issueSet = (name: string, e: [string, number][]) =>
  e.filter(([n]) => name !== 'dragon' || !/^(nose|jawhinge|chin)$/.test(n)).map(([, v]) => v);
const fmt = (v: number[]) =>
  v.length
    ? `${((100 * v.reduce((a, b) => a + b, 0)) / v.length).toFixed(2)} / ${(100 * Math.max(...v)).toFixed(2)}`
    : '-';
try {
  console.log(
    '| creature | joints | all mean / max | issue set mean / max | legs | body | neck+head | tail | worst | unassigned | s |',
  );
  for (const name of ['fox', 'wolf', 'dragon']) {
    const dir = path.join(work, name);
    mkdirSync(dir);
    for (const f of ['model.glb', 'creature.json'])
      copyFileSync(path.join(CREATURES, name, f), path.join(dir, f));
    await prepMesh({ creature: dir });
    const t0 = performance.now();
    const r = await proposeRig({ creature: dir, template });
    const s = (performance.now() - t0) / 1000;
    const rig = handRig(name);
    const e = Object.entries(compareRig(name, r.rig.joints, rig.joints));
    const worst = e.reduce((a, b) => (b[1] > a[1] ? b : a));
    const cols = Object.values(groups).map((g) => fmt(e.filter(([n]) => g(n)).map(([, v]) => v)));
    const regions =
      r.proposal.unassigned.map((u) => `${u.name} ${(100 * u.share).toFixed(0)}%`).join(', ') || 'none';
    console.log(
      `| ${name} | ${e.length} | ${fmt(e.map(([, v]) => v))} | ${fmt(issueSet(name, e))} | ${cols.join(' | ')} | ${worst[0]} ${(100 * worst[1]).toFixed(1)} | ${regions} | ${s.toFixed(2)} |`,
    );
    if (process.env.VERBOSE)
      for (const [n, v] of e.sort((a, b) => b[1] - a[1])) console.log(`  ${n} ${(100 * v).toFixed(1)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
