import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writePrompt } from '@mocap/fal';
import { makePrompt, promptPath } from '@mocap/fal/internal';
import { CreatureJson } from '@mocap/layout';
import { makeCreature, removeCreatures, WOLF_WORDS } from '@mocap/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

afterAll(removeCreatures);

const wolf = CreatureJson.parse(WOLF_WORDS);

describe('makePrompt', () => {
  it('uses every word of creature.json and the action sentence', () => {
    const p = makePrompt(wolf, 'trots forward, then sits down');
    for (const w of [wolf.noun, wolf.describe, wolf.colour_code, wolf.flank, wolf.limbs])
      expect(p).toContain(w);
    expect(p.startsWith('One timber wolf: grey fur with a pale belly; front legs painted red')).toBe(true);
    expect(p).toContain('The timber wolf trots forward, then sits down.');
    expect(p).toContain('side view of its right flank, head to the right');
  });

  it('is deterministic and keeps a sentence that names its subject', () => {
    expect(makePrompt(wolf, 'the wolf leaps.')).toBe(makePrompt(wolf, '  the wolf leaps.  '));
    expect(makePrompt(wolf, 'the wolf leaps.')).toContain(' The wolf leaps. ');
  });

  it('rejects an empty or multi-line sentence', () => {
    expect(() => makePrompt(wolf, '  ')).toThrow(/Expected a non-empty action sentence/);
    expect(() => makePrompt(wolf, 'runs\nthen stops')).toThrow(/one action sentence on one line/);
  });
});

describe('writePrompt', () => {
  it('writes prompts/<move>.txt from creature.json', async () => {
    const dir = await makeCreature();
    const { file, text } = await writePrompt(dir, 'sit', 'sits down slowly');
    expect(file).toBe(path.join(dir, 'prompts', 'sit.txt'));
    expect(file).toBe(promptPath(dir, 'sit'));
    expect(await readFile(file, 'utf8')).toBe(`${text}\n`);
  });

  it('names the file and field of a bad creature.json, and a bad move name', async () => {
    const dir = await makeCreature();
    await expect(writePrompt(dir, '../x', 'runs')).rejects.toThrow(/--move "\.\.\/x" must be letters/);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ ...WOLF_WORDS, noun: 3 }));
    await expect(writePrompt(dir, 'sit', 'sits')).rejects.toThrow(
      /prompt: .*creature\.json: noun: .*\(got 3\)/,
    );
  });
});
