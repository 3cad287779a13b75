import { readFile } from 'node:fs/promises';
import { makeCreature, removeCreatures } from '@mocap/test-utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

afterAll(removeCreatures);

describe('mocap prompt', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await makeCreature();
  });

  it('writes prompts/<move>.txt and prints the prompt', async () => {
    const r = await run(['prompt', '--creature', dir, '--move', 'sit', 'sits down']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('The timber wolf sits down.');
    expect(await readFile(`${dir}/prompts/sit.txt`, 'utf8')).toBe(r.out);
  });

  it('asks for the sentence', async () => {
    const r = await run(['prompt', '--creature', dir, '--move', 'sit']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('give exactly one action sentence');
  });
});
