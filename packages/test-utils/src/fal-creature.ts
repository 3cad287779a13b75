import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** creature.json words of a wolf (the prompt fields plus the required prep). */
export const WOLF_WORDS = {
  name: 'wolf',
  noun: 'timber wolf',
  describe: 'grey fur with a pale belly',
  colour_code: 'front legs painted red and blue, hind legs green and yellow',
  count: 'one',
  flank: 'right flank',
  limbs: 'four legs and a tail',
  prep: { length_m: 1.6 },
};

/** The 8-byte PNG signature plus a little payload: a stand-in ref.png to upload. */
export const REF_PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8,
]);

/** The folders {@link makeCreature} made that {@link removeCreatures} has not removed yet. */
const made: string[] = [];

/**
 * A temporary creature folder with creature.json, prompts/<move>.txt and runs/ref/ref.png; a test
 * file removes them all with `afterAll(removeCreatures)`.
 */
export async function makeCreature(
  move = 'trot',
  prompt = 'One timber wolf trots forward.',
): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fal-creature-'));
  made.push(dir);
  await writeFile(path.join(dir, 'creature.json'), JSON.stringify(WOLF_WORDS));
  await mkdir(path.join(dir, 'prompts'), { recursive: true });
  await writeFile(path.join(dir, 'prompts', `${move}.txt`), `${prompt}\n`);
  await mkdir(path.join(dir, 'runs', 'ref'), { recursive: true });
  await writeFile(path.join(dir, 'runs', 'ref', 'ref.png'), REF_PNG);
  return dir;
}

/** Removes every folder {@link makeCreature} made (in this test file's process). */
export async function removeCreatures(): Promise<void> {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
}
