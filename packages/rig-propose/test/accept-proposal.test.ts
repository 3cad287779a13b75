import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptProposal } from '@mocap/rig-propose';
import { proposalPaths } from '@mocap/rig-propose/internal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const WOLF_RIG = fileURLToPath(new URL('../template/wolf-rig.json', import.meta.url));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'accept-proposal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function propose(): string {
  const file = proposalPaths(dir).rig;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, readFileSync(WOLF_RIG));
  return file;
}

describe('acceptProposal', () => {
  it('copies rig.proposed.json to rig.json', async () => {
    const from = propose();
    const to = await acceptProposal({ creature: dir });
    expect(to).toBe(path.join(dir, 'rig.json'));
    expect(JSON.parse(readFileSync(to, 'utf8'))).toEqual({
      ...JSON.parse(readFileSync(from, 'utf8')),
      roll_deg: {},
    });
  });

  it('refuses to replace a rig.json unless forced, naming it', async () => {
    propose();
    writeFileSync(path.join(dir, 'rig.json'), '{"hand": "placed"}');
    await expect(acceptProposal({ creature: dir })).rejects.toThrow(
      `rig accept: ${path.join(dir, 'rig.json')}: the creature already has a rig.json; pass --force to replace it.`,
    );
    expect(readFileSync(path.join(dir, 'rig.json'), 'utf8')).toBe('{"hand": "placed"}');
    await acceptProposal({ creature: dir, force: true });
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'rig.json'), 'utf8')).joints)).toHaveLength(34);
  });

  it('refuses without a proposal, naming the file it looked for', async () => {
    await expect(acceptProposal({ creature: dir })).rejects.toThrow(
      `rig accept: ${proposalPaths(dir).rig}: no proposal; run \`mocap rig --propose --creature ${dir}\` first.`,
    );
  });

  it('refuses a proposal that is no valid rig.json, naming the field', async () => {
    const file = propose();
    writeFileSync(file, JSON.stringify({ joints: {}, bones: [] }));
    await expect(acceptProposal({ creature: dir })).rejects.toThrow(
      /rig accept: .*rig\.proposed\.json.*bones/,
    );
  });
});
