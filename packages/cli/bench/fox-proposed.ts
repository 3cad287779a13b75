/**
 * Issue 20's second fox line (the rendered exam with the proposed rig within 1.3x of the
 * hand-placed rig's): prepares a bare copy of a creature (default the fox) whose rig.json is the
 * proposed rig, accepted, as a user without a rig would get it:
 *
 * 1. copies model.glb and creature.json (not rig.json) to `--out DIR` (refused if it holds files);
 * 2. `mocap prep`, `mocap rig --propose`, `mocap rig --accept` on the copy (Blender);
 * 3. the copy's creature.json keeps the creature's own words, camera, layout and paint colours,
 *    with its paint groups' bones, feet and mirror taken from `mocap init`'s proposal for the
 *    accepted rig (the proposal carries the wolf's bone names: the fox's front paint gains
 *    `ftoe.L/R`, which the fox's own rig has no bone for);
 * 4. prints the creature's own stage scripts (its package.json: rig, ref, dataset, train,
 *    exam:render) rewritten for the copy, to run from the repository root: the same reader
 *    procedure for both rigs. Nothing is trained or rendered here.
 *
 *   pnpm --filter @mocap/cli exec node --conditions=@mocap/source --import tsx bench/fox-proposed.ts --out /tmp/fox-proposed [--creature creatures/fox]
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { atomicWriteJson, CreatureJson } from '@mocap/layout';
import { initCreature } from '@mocap/solver';
import { main } from '../src/main.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const { values } = parseArgs({
  options: { out: { type: 'string' }, creature: { type: 'string', default: 'creatures/fox' } },
});
if (!values.out)
  throw new Error('fox-proposed: pass --out DIR (a folder outside git, e.g. /tmp/fox-proposed).');
const out = path.resolve(values.out);
const src = path.resolve(ROOT, values.creature);
if (existsSync(out) && readdirSync(out).length) {
  throw new Error(`fox-proposed: ${out}: not empty; name a new folder.`);
}
mkdirSync(out, { recursive: true });
for (const f of ['model.glb', 'creature.json']) copyFileSync(path.join(src, f), path.join(out, f));

const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: ROOT };
for (const argv of [
  ['prep', '--creature', out],
  ['rig', '--propose', '--creature', out],
  ['rig', '--accept', '--creature', out],
]) {
  const code = await main(argv, io);
  if (code !== 0) throw new Error(`fox-proposed: mocap ${argv.join(' ')} exited ${code}.`);
}

const own = CreatureJson.parse(JSON.parse(readFileSync(path.join(src, 'creature.json'), 'utf8')));
const init = (await initCreature(out, { dryRun: true })).creature;
const creature = CreatureJson.parse({
  ...own,
  paint: own.paint.map((g) => ({
    ...g,
    bones: init.paint?.find((p) => p.name === g.name)?.bones ?? g.bones,
  })),
  feet: init.feet,
  mirror: init.mirror,
});
await atomicWriteJson(path.join(out, 'creature.json'), creature);
console.log(`${path.join(out, 'creature.json')}: paint bones, feet and mirror for the accepted rig`);
for (const g of creature.paint) console.log(`  paint ${g.name}: ${g.bones.join(', ')}`);
console.log(`  feet: ${creature.feet.join(', ')}`);

// The creature's own stage scripts, for the copy: paths relative to the creature made absolute.
const scripts: Record<string, string> = JSON.parse(
  readFileSync(path.join(src, 'package.json'), 'utf8'),
).scripts;
console.log(`\nFrom ${ROOT}, the stages as ${values.creature}'s package.json runs them:`);
for (const stage of ['rig', 'ref', 'dataset', 'train', 'exam:render']) {
  const cmd = scripts[stage];
  if (!cmd) continue;
  const words = cmd
    .split(' ')
    .map((w, i, all) =>
      all[i - 1] === '--creature' && w === '.' ? out : w.startsWith('../') ? path.resolve(src, w) : w,
    );
  console.log(words.join(' '));
}
