import { rm } from 'node:fs/promises';
import path from 'node:path';
import { applyMotion, buildRig, prepMesh, riggedGlb, validateGltf } from '@mocap/blender-bridge';
import { atomicWriteJson, CreatureJson, readJsonFile } from '@mocap/layout';
import { copyCreature } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { randomMotion } from './helpers/creature.js';
import { paintCoverage } from './helpers/paint-coverage.js';

// What another glTF renderer shows from the .glb alone (issue 19): the paint on the painted
// bones' limbs, the coat texture unchanged elsewhere, as the Workbench renders of the .blend show.
describe.each(['wolf', 'fox', 'dragon', 'fox-rigged'])(
  '%s: the exported glTF shows the limb paint',
  (name) => {
    it('rigged.glb and animation.glb: >= 90% of each limb in its paint, < 2% of the body painted, the texture not darkened', async () => {
      const dir = await copyCreature(name);
      try {
        await prepMesh({ creature: dir });
        const rig = await buildRig({ creature: dir });
        const creature = await readJsonFile('test', path.join(dir, 'creature.json'), CreatureJson);
        const motion = path.join(dir, 'runs', 'capture', 'paint', 'motion.json');
        await atomicWriteJson(motion, randomMotion(rig.info, 3, 7));
        const apply = await applyMotion({
          creature: dir,
          motion,
          renders: [],
          formats: { glb: true, bvh: false, fbx: false },
        });
        for (const glb of [await riggedGlb(dir), apply.glb as string]) {
          expect((await validateGltf(glb)).errors).toBe(0);
          const c = await paintCoverage(glb, creature.paint);
          expect(c.groups.map((g) => g.name)).toEqual(creature.paint.map((g) => g.name));
          for (const g of c.groups) {
            expect(g.limb, `${glb}: ${g.name}`).toBeGreaterThan(20);
            expect(
              g.share,
              `${glb}: ${g.name}: ${g.shown} of ${g.limb} limb vertices`,
            ).toBeGreaterThanOrEqual(0.9);
          }
          expect(c.body.share, `${glb}: ${c.body.painted} of ${c.body.vertices} body vertices`).toBeLessThan(
            0.02,
          );
          expect(c.texture.darkened, `${glb}: textured vertices whose COLOR_0 is not white`).toBe(0);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 240_000);
  },
);
