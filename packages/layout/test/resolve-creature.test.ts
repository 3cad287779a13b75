import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { creatureDir, DEFAULT_LAYOUT, resolveCreature } from '@mocap/layout';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

const temp = tempDirs();

async function creature(json: unknown): Promise<string> {
  const dir = await temp.make('mocap-creature-');
  await writeFile(path.join(dir, 'creature.json'), typeof json === 'string' ? json : JSON.stringify(json));
  return dir;
}

describe('resolveCreature', () => {
  it('falls back to the wolf layout without --creature or MOCAP_CREATURE', async () => {
    const r = await resolveCreature({ env: {} });
    expect(r.dir).toBeNull();
    expect(r.layout).toEqual(DEFAULT_LAYOUT);
  });

  it('prefers --creature over MOCAP_CREATURE, resolving relative paths against cwd', async () => {
    const a = await creature({ layout: { W_FRONT: 480, W_SIDE: 800 } });
    const b = await creature({ layout: { GROUND_V: 600 } });
    const both = await resolveCreature({
      creature: path.basename(a),
      env: { MOCAP_CREATURE: b },
      cwd: path.dirname(a),
    });
    expect(both.dir).toBe(a);
    expect(both.layout.W_FRONT).toBe(480);
    const env = await resolveCreature({ env: { MOCAP_CREATURE: b } });
    expect(env.layout.GROUND_V).toBe(600);
    expect(env.layout.W_FRONT).toBe(420);
    expect(creatureDir({ env: { MOCAP_CREATURE: '' } })).toBeNull();
  });

  it('names the file, field and value of a bad layout', async () => {
    const dir = await creature({ layout: { M_PER_PX: -2 } });
    await expect(resolveCreature({ creature: dir })).rejects.toThrow(
      /creature: .*creature\.json: layout\.M_PER_PX: .*\(got -2\)/,
    );
  });

  it('names the file when it is missing or not JSON', async () => {
    await expect(resolveCreature({ creature: '/nonexistent/wolf' })).rejects.toThrow(
      /\/nonexistent\/wolf\/creature\.json: cannot read \(ENOENT\)/,
    );
    const dir = await creature('{ nope');
    await expect(resolveCreature({ creature: dir })).rejects.toThrow(/creature\.json: not valid JSON/);
  });
});
