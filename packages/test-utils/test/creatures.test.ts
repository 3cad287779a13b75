import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { CREATURES, copyCreature, creatureDir } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

describe('bundled creatures', () => {
  it('creatureDir names files in the repository creatures folder', () => {
    expect(path.basename(CREATURES)).toBe('creatures');
    expect(existsSync(creatureDir('wolf', 'creature.json'))).toBe(true);
  });

  it('copyCreature copies the inputs (skipping a rig.json the creature lacks) into a fresh folder', async () => {
    const dir = await copyCreature('wolf', { prefix: 'test-utils-wolf-' });
    const small = await copyCreature('fox-rigged', { files: ['creature.json', 'rig.json'] });
    try {
      expect(path.basename(dir)).toMatch(/^test-utils-wolf-/);
      expect((await readdir(dir)).sort()).toEqual(['creature.json', 'model.glb', 'rig.json']);
      expect(await readFile(path.join(dir, 'rig.json'), 'utf8')).toBe(
        await readFile(creatureDir('wolf', 'rig.json'), 'utf8'),
      );
      expect(existsSync(creatureDir('fox-rigged', 'rig.json'))).toBe(false);
      expect(await readdir(small)).toEqual(['creature.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(small, { recursive: true, force: true });
    }
  });
});
