import { mkdtemp, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';

/**
 * Links the samples trainReader holds out of a dataset folder (a seeded permutation of the
 * samples in index order, the first `fraction` of them) into a temporary folder, so that only
 * they are loaded. Returns the folder (the caller removes it) and the held-out count.
 */
export async function heldOutDir(dataset: string, seed: number, fraction: number) {
  const metas = (await readdir(dataset)).filter((f) => /^\d+_meta\.json$/.test(f));
  const samples = metas.map((f) => Number.parseInt(f, 10)).sort((a, b) => a - b);
  const order = seededRandom(seed).permutation(samples.length);
  const count = Math.max(1, Math.round(fraction * samples.length));
  const dir = await mkdtemp(path.join(tmpdir(), 'held-out-'));
  for (const k of order.slice(0, count)) {
    const stem = String(samples[k]).padStart(5, '0');
    for (const f of [`${stem}_meta.json`, `${stem}_front.png`, `${stem}_side.png`])
      await symlink(path.resolve(dataset, f), path.join(dir, f));
  }
  return { dir, count };
}
