import path from 'node:path';
import { atomicWrite, CreatureJson, creaturePaths, readJsonFile } from '@mocap/layout';
import { z } from 'zod';

/** A move name: letters, digits, `-` and `_`, used in file names (`prompts/<move>.txt`). */
export const MoveName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be letters, digits, "-" or "_" (it names files)');

function sentenceCase(s: string): string {
  const t = s.trim().replace(/\s+/g, ' ');
  const c = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(c) ? c : `${c}.`;
}

/**
 * The video prompt for one move, built only from creature.json's words and one action
 * sentence; the same inputs always give the same text.
 *
 * ```ts
 * makePrompt(creature, 'trots forward, then sits down') // "One timber wolf, ... Trots forward, ..."
 * ```
 */
export function makePrompt(creature: CreatureJson, action: string): string {
  const sentence = action.trim();
  if (!sentence) throw new TypeError('prompt: Expected a non-empty action sentence, got "".');
  if (/[\r\n]/.test(sentence))
    throw new TypeError(`prompt: Expected one action sentence on one line, got ${JSON.stringify(action)}.`);
  const c = creature;
  return [
    `${sentenceCase(`${c.count} ${c.noun}: ${c.describe}`).slice(0, -1)}; ${c.colour_code}.`,
    /^(the|a|an|it|its)\b/i.test(sentence)
      ? sentenceCase(sentence)
      : sentenceCase(`the ${c.noun} ${sentence}`),
    `Two views side by side in one 16:9 frame, both orthographic, same scale, same height: on the left a front view with the ${c.noun} facing the camera; on the right a side view of its ${c.flank}, head to the right.`,
    `Its ${c.limbs} stay fully visible in both views, the whole body in frame.`,
    'Plain grey studio wall, lighter grey floor band, a dark vertical divider between the views; static cameras, no camera motion, no cuts, even lighting.',
  ].join(' ');
}

/** Where a move's prompt lives: `<creature>/prompts/<move>.txt`. */
export function promptPath(creatureDir: string, move: string): string {
  return path.join(creaturePaths(creatureDir).prompts, `${MoveName.parse(move)}.txt`);
}

/**
 * Reads `<creature>/creature.json`, builds the prompt with {@link makePrompt} and writes it
 * atomically to `<creature>/prompts/<move>.txt`. Resolves to the file and the text.
 *
 * ```ts
 * await writePrompt('creatures/wolf', 'trot', 'trots forward at an easy pace');
 * ```
 */
export async function writePrompt(
  creatureDir: string,
  move: string,
  action: string,
): Promise<{ file: string; text: string }> {
  const m = MoveName.safeParse(move);
  if (!m.success)
    throw new TypeError(`prompt: --move ${JSON.stringify(move)} ${m.error.issues[0]?.message}.`);
  const creature = await readJsonFile('prompt', path.join(creatureDir, 'creature.json'), CreatureJson);
  const text = makePrompt(creature, action);
  const file = promptPath(creatureDir, move);
  await atomicWrite(file, `${text}\n`);
  return { file, text };
}
