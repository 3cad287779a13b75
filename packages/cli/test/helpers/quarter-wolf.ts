// The bundled wolf at a quarter-size layout, for the CLI's end-to-end tests with real Blender.
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderDataset } from '@mocap/blender-bridge';
import { creaturePaths } from '@mocap/layout';
import { trainReader } from '@mocap/reader';
import { creatureDir, QUARTER_LAYOUT } from '@mocap/test-utils';

const WOLF = creatureDir('wolf');

/**
 * Copies the wolf into a fresh temporary folder named `<prefix>XXXXXX`: its creature.json with
 * `QUARTER_LAYOUT` (@mocap/test-utils: Blender and the reader stay quick), rig.json and model.glb. Resolves to the folder.
 */
export async function copyQuarterWolf(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const json = JSON.parse(await readFile(path.join(WOLF, 'creature.json'), 'utf8'));
  await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ ...json, layout: QUARTER_LAYOUT }));
  for (const f of ['rig.json', 'model.glb']) await copyFile(path.join(WOLF, f), path.join(dir, f));
  return dir;
}

/**
 * Renders 4 dataset samples (seed 1) of a prepped and rigged creature and trains a tiny reader on
 * them into runs/reader (an 8-8 CNN at 64 px, 2 steps): enough to run the chain, not to read well.
 */
export async function trainTinyReader(creature: string): Promise<void> {
  const p = creaturePaths(creature);
  await renderDataset({ creature, count: 4, seed: 1 });
  await trainReader({
    dataset: p.dataset,
    out: path.join(p.runs, 'reader'),
    layout: QUARTER_LAYOUT,
    model: { inputSize: 64, backbone: { kind: 'cnn', widths: [8, 8] } },
    steps: 2,
    batchSize: 2,
    heldOut: 0.25,
    seed: 1,
  });
}
