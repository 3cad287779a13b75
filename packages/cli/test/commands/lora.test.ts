import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeCreature, removeCreatures } from '@mocap/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { wolfMotion } from '../../../fal/test/helpers/wolf-motion.js';
import { runCli as run } from '../helpers/run-cli.js';

afterAll(removeCreatures);

describe('mocap lora', () => {
  it('--dry-run lists the clips (each with its mirror) and the exact trainer request, needing no key', async () => {
    const dir = await makeCreature();
    await mkdir(path.join(dir, 'runs', 'capture', 'trot'), { recursive: true });
    await writeFile(path.join(dir, 'runs', 'capture', 'trot', 'motion.json'), JSON.stringify(wolfMotion(1)));
    const r = await run(['lora', '--creature', dir, '--steps', '800', '--trigger', 'wolfy', '--dry-run']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out) as {
      clips: { name: string }[];
      url: string;
      input: Record<string, unknown>;
    };
    expect(plan.clips.map((c) => c.name)).toEqual(['trot', 'trot_mirrored']);
    expect(plan.url).toBe('https://queue.fal.run/fal-ai/wan-trainer');
    expect(plan.input).toMatchObject({
      number_of_steps: 800,
      trigger_phrase: 'wolfy',
      auto_scale_input: true,
    });
  });

  it('without FAL_KEY says what to set', async () => {
    const dir = await makeCreature();
    const r = await run(['lora', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('FAL_KEY is not set');
  });

  it('rejects a bad --steps with exit code 2', async () => {
    const dir = await makeCreature();
    const r = await run(['lora', '--creature', dir, '--steps', 'many', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--steps: Expected a number > 0, got "many"');
  });
});
