import { Document, NodeIO } from '@gltf-transform/core';
import type { RigJson } from '@mocap/layout';
import { type CoatColours, furTexture } from './fur-texture.js';
import { addMembrane, addTube, MeshBuilder, type TubePoint } from './mesh-builder.js';

type V3 = [number, number, number];

/** Which animal to shape: joint names follow the bundled wolf and dragon rigs. */
export type CreatureKind = 'wolf' | 'dragon';

/** Options of {@link creatureMesh}. */
export interface CreatureMeshOptions {
  kind: CreatureKind;
  /** The creature's length along y (creature.json `prep.length_m`): the mesh spans exactly -L/2..L/2. */
  lengthM: number;
  /** Seed of the coat texture. @default 1 */
  seed?: number;
}

const COATS: Record<CreatureKind, CoatColours> = {
  wolf: { back: [96, 92, 88], belly: [196, 190, 178], stripes: 0.18, speckle: 0.12 },
  dragon: { back: [52, 104, 58], belly: [186, 176, 112], stripes: 0.3, speckle: 0.08 },
};

/**
 * A procedural, textured, unrigged mesh shaped like the animal around its rig.json (body, head,
 * jaw, ears or horns, legs, tail; wings for the dragon), in Blender's frame (metres, -Y forward,
 * Z up). Clamped so it spans exactly -L/2..L/2 in y, is symmetric in x and rests on z = 0, so
 * prep_mesh leaves it where the rig expects it. Deterministic.
 *
 * ```ts
 * const mb = creatureMesh(rig, { kind: 'wolf', lengthM: 1.72 });
 * ```
 */
export function creatureMesh(rig: Pick<RigJson, 'joints'>, opts: CreatureMeshOptions): MeshBuilder {
  const J = (name: string, off: V3 = [0, 0, 0]): V3 => {
    const p = rig.joints[name];
    if (!p) throw new Error(`creatureMesh: rig.json has no joint "${name}" (needed for the ${opts.kind}).`);
    return [p[0] + off[0], p[1] + off[1], p[2] + off[2]];
  };
  const k = opts.kind === 'dragon' ? 1.5 : 1;
  const mb = new MeshBuilder();
  const tube = (pts: TubePoint[], sides: number, capStart = 0, capEnd = 0) =>
    addTube(mb, pts, { sides, step: 0.03 * k, capStart, capEnd, vScale: 1 / (k * 1.2) });
  const spine = opts.kind === 'dragon' ? ['spine1', 'spine2', 'spine3'] : ['spine1', 'spine2', 'spine3'];
  const drop = 0.1 * k;
  tube(
    [
      { p: J('tailbase', [0, 0, -0.04 * k]), r: 0.07 * k, aspect: 1 },
      { p: J('pelvis', [0, 0, -drop * 0.8]), r: 0.12 * k, aspect: 1.1 },
      ...spine.map((n, i) => ({
        p: J(n, [0, 0, -drop * (0.95 + 0.1 * i)]),
        r: (0.13 + 0.01 * i) * k,
        aspect: 1.25,
      })),
      { p: J('withers', [0, 0, -drop * 1.1]), r: 0.14 * k, aspect: 1.3 },
    ],
    14,
    0.03 * k,
    0.06 * k,
  );
  const necks = opts.kind === 'dragon' ? ['neck1', 'neck2', 'neck3'] : ['neck'];
  tube(
    [
      { p: J('withers', [0, 0.04 * k, -0.03 * k]), r: 0.11 * k, aspect: 1.1 },
      ...necks.map((n, i) => ({ p: J(n), r: (0.085 - 0.01 * i) * k, aspect: 1.1 })),
      { p: J('skull'), r: 0.075 * k, aspect: 1 },
      { p: J('nose', [0, 0.03 * k, 0]), r: 0.03 * k, aspect: 0.8 },
    ],
    12,
    0,
    0.05 * k,
  );
  tube(
    [
      { p: J('jawhinge'), r: 0.04 * k, aspect: 0.6 },
      { p: J('chin'), r: 0.02 * k, aspect: 0.6 },
    ],
    8,
    0.01,
    0.02 * k,
  );
  for (const x of [1, -1]) {
    // Ears (wolf) or horns (dragon): cones on the skull.
    const base = J('skull', [x * 0.035 * k, 0.02 * k, 0.03 * k]);
    const tip: V3 =
      opts.kind === 'dragon'
        ? [base[0] + x * 0.06, base[1] + 0.2, base[2] + 0.12]
        : [base[0] + x * 0.015, base[1] + 0.02, base[2] + 0.09];
    tube(
      [
        { p: base, r: 0.028 * k },
        { p: tip, r: 0.004 * k },
      ],
      6,
      0,
      0.005,
    );
  }
  const tails = opts.kind === 'dragon' ? ['tail1', 'tail2', 'tail3', 'tail4'] : ['tail1', 'tail2'];
  const tailR = opts.kind === 'dragon' ? [0.09, 0.07, 0.055, 0.04, 0.03] : [0.045, 0.06, 0.065, 0.05];
  tube(
    [
      { p: J('tailbase'), r: 0.05 * k },
      ...tails.map((n, i) => ({ p: J(n), r: tailR[i]! * (opts.kind === 'dragon' ? 1 : 1) })),
      { p: J('tailtip'), r: 0.012 * k },
    ],
    10,
    0,
    0.06 * k,
  );
  for (const s of ['L', 'R']) {
    const x = s === 'L' ? 1 : -1;
    tube(
      [
        { p: J(`shoulder.${s}`, [-x * 0.02 * k, 0, 0.06 * k]), r: 0.075 * k },
        { p: J(`elbow.${s}`), r: 0.045 * k },
        { p: J(`fwrist.${s}`), r: 0.03 * k },
        { p: J(`fpaw.${s}`), r: 0.032 * k, aspect: 0.8 },
        { p: J(`ftoe.${s}`, [0, 0, 0.015 * k]), r: 0.025 * k, aspect: 0.7 },
      ],
      10,
      0,
      0.02 * k,
    );
    tube(
      [
        { p: J(`hip.${s}`, [-x * 0.02 * k, 0, 0.05 * k]), r: 0.085 * k },
        { p: J(`knee.${s}`), r: 0.055 * k },
        { p: J(`hock.${s}`), r: 0.032 * k },
        { p: J(`hpaw.${s}`), r: 0.032 * k, aspect: 0.8 },
        { p: J(`htoe.${s}`, [0, 0, 0.015 * k]), r: 0.025 * k, aspect: 0.7 },
      ],
      10,
      0,
      0.02 * k,
    );
    if (opts.kind === 'dragon') {
      tube(
        [
          { p: J(`wingroot.${s}`), r: 0.045 },
          { p: J(`welbow.${s}`), r: 0.035 },
          { p: J(`wwrist.${s}`), r: 0.025 },
          { p: J(`wknuckle.${s}`), r: 0.02 },
          { p: J(`wtip1.${s}`), r: 0.006 },
        ],
        8,
        0,
        0.01,
      );
      tube(
        [
          { p: J(`wknuckle.${s}`), r: 0.018 },
          { p: J(`wtip2.${s}`), r: 0.006 },
        ],
        6,
        0,
        0.01,
      );
      const attach = J('spine1', [x * 0.12, 0, 0.02]);
      addMembrane(
        mb,
        [
          J(`wknuckle.${s}`),
          J(`wtip1.${s}`),
          J(`wtip2.${s}`),
          attach,
          J(`wingroot.${s}`),
          J(`welbow.${s}`),
          J(`wwrist.${s}`),
        ],
        0.006,
        (p) => [0.5, p[1] * 0.5 + 0.5],
      );
    }
  }
  fitExtent(mb, opts.lengthM);
  return mb;
}

/** Clamps to y in [-L/2, L/2] and z >= 0, stretching the extreme tips out to the bounds if short. */
function fitExtent(mb: MeshBuilder, lengthM: number): void {
  const half = lengthM / 2;
  const p = mb.positions;
  let minI = 0;
  let maxI = 0;
  for (let i = 0; i < p.length; i += 3) {
    p[i + 1] = Math.max(-half, Math.min(half, p[i + 1]!));
    p[i + 2] = Math.max(0, p[i + 2]!);
    if (p[i + 1]! < p[minI + 1]!) minI = i;
    if (p[i + 1]! > p[maxI + 1]!) maxI = i;
  }
  p[minI + 1] = -half;
  p[maxI + 1] = half;
}

/**
 * Packs a {@link creatureMesh} into a binary glTF (one mesh, one textured material, Y up as glTF
 * wants it): the bundled creatures' model.glb.
 *
 * ```ts
 * await writeFile('creatures/wolf/model.glb', await creatureGlb(rig, { kind: 'wolf', lengthM: 1.72 }));
 * ```
 */
export async function creatureGlb(
  rig: Pick<RigJson, 'joints'>,
  opts: CreatureMeshOptions,
): Promise<Uint8Array> {
  const mb = creatureMesh(rig, opts);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const n = mb.vertexCount;
  const pos = new Float32Array(n * 3);
  const nrm = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    // Blender (x, y, z) -> glTF (x, z, -y).
    pos.set([mb.positions[3 * i]!, mb.positions[3 * i + 2]!, -mb.positions[3 * i + 1]!], 3 * i);
    nrm.set([mb.normals[3 * i]!, mb.normals[3 * i + 2]!, -mb.normals[3 * i + 1]!], 3 * i);
  }
  const uv = new Float32Array(mb.uvs.map((v, i) => (i % 2 === 1 ? 1 - v : v)));
  const acc = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array | Uint32Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const indices = n < 65536 ? new Uint16Array(mb.indices) : new Uint32Array(mb.indices);
  const texture = doc
    .createTexture(`${opts.kind}_coat`)
    .setMimeType('image/png')
    .setImage(furTexture(COATS[opts.kind], opts.seed ?? 1));
  const material = doc
    .createMaterial(`${opts.kind}_coat`)
    .setBaseColorTexture(texture)
    .setRoughnessFactor(0.9)
    .setMetallicFactor(0);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', pos))
    .setAttribute('NORMAL', acc('VEC3', nrm))
    .setAttribute('TEXCOORD_0', acc('VEC2', uv))
    .setIndices(acc('SCALAR', indices))
    .setMaterial(material);
  const mesh = doc.createMesh(opts.kind).addPrimitive(prim);
  const node = doc.createNode(opts.kind).setMesh(mesh);
  doc.createScene('scene').addChild(node);
  return new NodeIO().writeBinary(doc);
}
