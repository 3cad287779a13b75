// What a glTF renderer shows of the limb paint in the exported glb (issue 19), real Blender:
//   pnpm --filter @mocap/blender-bridge bench:gltf-paint [creature ...] [--keep DIR]
// Defaults: wolf fox dragon fox-rigged. Each creature is copied, prepped and rigged; ref.png is rendered;
// rigged.glb (riggedGlb) and an animation.glb (apply, 4 frames, no renders) are exported, validated
// with the Khronos validator and measured by test/helpers/paint-coverage.ts. Prints one JSON line
// per glb and ref.png's sha256; --keep copies each ref.png to DIR/<creature>-ref.png.

import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { applyMotion, buildRig, prepMesh, renderRef, riggedGlb, validateGltf } from '@mocap/blender-bridge';
import { atomicWriteJson, CreatureJson, readJsonFile } from '@mocap/layout';
import { copyCreature } from '@mocap/test-utils';
import { randomMotion } from '../test/helpers/creature.js';
import { paintCoverage } from '../test/helpers/paint-coverage.js';

const args = process.argv.slice(2);
const k = args.indexOf('--keep');
const keep = k >= 0 ? args.splice(k, 2)[1] : undefined;
const names = args.length ? args : ['wolf', 'fox', 'dragon', 'fox-rigged'];
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

for (const name of names) {
  const dir = await copyCreature(name);
  try {
    await prepMesh({ creature: dir });
    const rig = await buildRig({ creature: dir });
    const ref = await renderRef({ creature: dir });
    const sha = createHash('sha256')
      .update(await readFile(ref.file))
      .digest('hex');
    if (keep) {
      await mkdir(keep, { recursive: true });
      await copyFile(ref.file, path.join(keep, `${name}-ref.png`));
    }
    console.log(JSON.stringify({ creature: name, ref: sha.slice(0, 16) }));
    const creature = await readJsonFile('bench', path.join(dir, 'creature.json'), CreatureJson);
    const motion = path.join(dir, 'runs', 'capture', 'bench', 'motion.json');
    await atomicWriteJson(motion, randomMotion(rig.info, 4, 11));
    const apply = await applyMotion({
      creature: dir,
      motion,
      renders: [],
      formats: { glb: true, bvh: false, fbx: false },
    });
    for (const [what, glb] of [
      ['rigged.glb', await riggedGlb(dir)],
      ['animation.glb', apply.glb as string],
    ] as const) {
      const c = await paintCoverage(glb, creature.paint);
      const v = await validateGltf(glb);
      console.log(
        JSON.stringify({
          creature: name,
          glb: what,
          limbs: Object.fromEntries(
            c.groups.map((g) => [g.name, `${g.shown}/${g.limb} ${pct(g.share)} (tinted ${g.tinted})`]),
          ),
          body: `${c.body.painted}/${c.body.vertices} ${pct(c.body.share)}`,
          darkened: `${c.texture.darkened}/${c.texture.vertices}`,
          colour0: c.colour0,
          errors: v.errors,
          warnings: v.warnings,
        }),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
