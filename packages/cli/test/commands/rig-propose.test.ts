import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RigJson } from '@mocap/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// `mocap rig --propose` / `--accept` through the command line (issue 20), on a bare copy of the
// fox (model.glb and creature.json: its rig.json set aside) prepped by `mocap prep` (Blender).
const FOX = fileURLToPath(new URL('../../../../creatures/fox', import.meta.url));
const run = (argv: string[]) => runCli(argv, process.env);
const work = mkdtempSync(path.join(tmpdir(), 'mocap-rig-propose-'));

/** A creature folder with creature.json (the fox's) and, if given, the model.glb bytes. */
function creature(name: string, model?: Buffer): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(FOX, 'creature.json'), path.join(dir, 'creature.json'));
  if (model) writeFileSync(path.join(dir, 'model.glb'), model);
  return dir;
}

/** A GLB of one box 0.3 x 0.3 x 1 m (glTF +Y up): a body with no legs; it lies on one footprint. */
function boxGlb(): Buffer {
  const [x, y, z] = [0.15, 0.3, 0.5];
  const pos = new Float32Array(24);
  for (let c = 0; c < 8; c++) pos.set([c & 4 ? x : -x, c & 2 ? y : 0, c & 1 ? z : -z], 3 * c);
  const quads = [
    [0, 1, 3, 2],
    [4, 6, 7, 5],
    [0, 4, 5, 1],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 5, 7, 3],
  ];
  const idx = new Uint16Array(quads.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]));
  const bin = Buffer.concat([Buffer.from(pos.buffer), Buffer.from(idx.buffer)]);
  const gltf = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 8, type: 'VEC3', min: [-x, 0, -z], max: [x, y, z] },
      { bufferView: 1, componentType: 5123, count: idx.length, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: pos.byteLength },
      { buffer: 0, byteOffset: pos.byteLength, byteLength: idx.byteLength },
    ],
    buffers: [{ byteLength: bin.length }],
  };
  let json = Buffer.from(JSON.stringify(gltf));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const body = Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + body.length, 8);
  const chunk = (data: Buffer, type: number) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(data.length, 0);
    h.writeUInt32LE(type, 4);
    return Buffer.concat([h, data]);
  };
  return Buffer.concat([header, chunk(json, 0x4e4f534a), chunk(body, 0x004e4942)]);
}

let fox = '';
beforeAll(async () => {
  fox = creature('fox', readFileSync(path.join(FOX, 'model.glb')));
  const prep = await run(['prep', '--creature', fox]);
  expect(prep.code, prep.err).toBe(0);
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('mocap rig --propose / --accept', () => {
  it('proposes into runs/propose/ and prints the files, confidences and unassigned regions; no rig.json', async () => {
    const r = await run(['rig', '--propose', '--creature', fox]);
    expect(r.code, r.err).toBe(0);
    const dir = path.join(fox, 'runs', 'propose');
    expect(r.out).toContain(
      `${path.join(dir, 'rig.proposed.json')}: 34 joints, 27 bones (the wolf's names)\n`,
    );
    expect(r.out).toMatch(new RegExp(`${path.join(dir, 'proposal.json')}: mean confidence [01]\\.\\d\\d`));
    expect(r.out).toContain('unassigned regions: none\n');
    expect(r.out).toContain(
      `${path.join(dir, 'proposal.png')}: review it, then \`mocap rig --accept --creature ${fox}\`\n`,
    );
    expect(
      Object.keys(
        RigJson.parse(JSON.parse(readFileSync(path.join(dir, 'rig.proposed.json'), 'utf8'))).joints,
      ),
    ).toHaveLength(34);
    expect(existsSync(path.join(fox, 'rig.json'))).toBe(false);
  });

  it('--accept copies the proposal to rig.json; a second --accept needs --force', async () => {
    const proposed = readFileSync(path.join(fox, 'runs', 'propose', 'rig.proposed.json'), 'utf8');
    const a = await run(['rig', '--accept', '--creature', fox]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toBe(`${path.join(fox, 'rig.json')}\n`);
    expect(JSON.parse(readFileSync(path.join(fox, 'rig.json'), 'utf8'))).toEqual(JSON.parse(proposed));
    const b = await run(['rig', '--accept', '--creature', fox]);
    expect(b.code).toBe(1);
    expect(b.err).toBe(
      `mocap rig: rig accept: ${path.join(fox, 'rig.json')}: the creature already has a rig.json; pass --force to replace it.\n`,
    );
    const c = await run(['rig', '--accept', '--force', '--creature', fox]);
    expect(c.code, c.err).toBe(0);
  });

  it('with a rig.json, --propose refuses unless --force, and --force leaves rig.json as it was', async () => {
    const rigJson = path.join(fox, 'rig.json');
    copyFileSync(path.join(FOX, 'rig.json'), rigJson);
    const before = readFileSync(rigJson, 'utf8');
    const a = await run(['rig', '--propose', '--creature', fox]);
    expect(a.code).toBe(1);
    expect(a.err).toBe(
      `mocap rig: rig propose: ${rigJson}: the creature already has a rig.json; pass --force to propose one beside it (rig.json is not overwritten).\n`,
    );
    const b = await run(['rig', '--propose', '--force', '--creature', fox]);
    expect(b.code, b.err).toBe(0);
    expect(readFileSync(rigJson, 'utf8')).toBe(before);
  });

  it('--propose and --accept together is a usage error', async () => {
    const r = await run(['rig', '--propose', '--accept', '--creature', fox]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--propose and --accept: Expected one of them, got both.');
  });
});

describe('mocap rig --propose / --accept refuse bad input, naming the file', () => {
  it('no mesh', async () => {
    const dir = creature('no-mesh');
    const r = await run(['rig', '--propose', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `mocap rig: rig propose: ${path.join(dir, 'model.glb')}: no mesh; the creature needs a model.glb.\n`,
    );
  });

  it('not prepped', async () => {
    const dir = creature('unprepped', readFileSync(path.join(FOX, 'model.glb')));
    const r = await run(['rig', '--propose', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `mocap rig: rig propose: ${path.join(dir, 'runs', 'prep', 'static.blend')}: no prepped mesh; run \`mocap prep --creature ${dir}\` first.\n`,
    );
  });

  it('a mesh with no legs reaching the ground', async () => {
    const dir = creature('legless', boxGlb());
    const prep = await run(['prep', '--creature', dir]);
    expect(prep.code, prep.err).toBe(0);
    const r = await run(['rig', '--propose', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `mocap rig: rig propose: ${path.join(dir, 'runs', 'propose', 'prepped.glb')}: no legs reaching the ground: found 0 foot on the ground on the left (+X) side`,
    );
    expect(existsSync(path.join(dir, 'runs', 'propose', 'rig.proposed.json'))).toBe(false);
  }, 240_000);

  it('--accept with no proposal', async () => {
    const dir = creature('no-proposal', readFileSync(path.join(FOX, 'model.glb')));
    const r = await run(['rig', '--accept', '--creature', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `mocap rig: rig accept: ${path.join(dir, 'runs', 'propose', 'rig.proposed.json')}: no proposal; run \`mocap rig --propose --creature ${dir}\` first.\n`,
    );
    expect(existsSync(path.join(dir, 'rig.json'))).toBe(false);
  });
});
