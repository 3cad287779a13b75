// The Khronos glTF sample model Fox. Credits: CC0 low poly fox by PixelMannen
// (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and animation by @tomkranis
// on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc); glTF conversion
// by @AsoboStudio and @scurest.
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { mat4Invert } from '@mocap/anim-loop';
import { CreatureJson, RigJson } from '@mocap/layout';

/** Path of the Fox test asset: the byte copy of ../shared/fixtures/fox/Fox.glb in creatures/fox (credits in its README). */
export const FOX = fileURLToPath(new URL('../../../../creatures/fox/model.glb', import.meta.url));

/** The similarity a prep-like step applies to the Fox's bind heads: glTF Y up to Z up, scale, shift. */
export interface FoxPrep {
  /** Metres per file unit. */
  scale: number;
  /** Added after scaling, metres. */
  offset: [number, number, number];
}

/** A glTF (Y up) point as the rig's frame has it: Z up, scaled, shifted. */
export function toRig(p: ArrayLike<number>, prep: FoxPrep): [number, number, number] {
  const q = [p[0] as number, -(p[2] as number), p[1] as number];
  return q.map((v, c) => v * prep.scale + (prep.offset[c] as number)) as [number, number, number];
}

/**
 * A rig.json and creature.json for the Fox's own skeleton, made from its skin in the test (as
 * `mocap rig` makes rig_info.json for a skinned glb): one bone per joint from b_Hip_01 down (the
 * unweighted helpers above it dropped), heads at the bind heads carried through a prep-like
 * similarity (Z up, `scale` metres per unit, centred, lowest joint on the ground), tails at the
 * first child's head or, for leaves, half the parent's length further along the parent.
 */
export async function foxSkinRig(
  scale = 0.0065,
): Promise<{ rig: RigJson; creature: CreatureJson; prep: FoxPrep }> {
  const doc = await new NodeIO().read(FOX);
  const skin = doc.getRoot().listSkins()[0]!;
  const joints = skin.listJoints();
  const ibm = skin.getInverseBindMatrices()!.getArray()!;
  const keep = joints.slice(joints.findIndex((j) => j.getName() === 'b_Hip_01'));
  const bind = new Map(
    joints.map((j, i) => {
      const m = mat4Invert(new Float64Array(16), ibm.subarray(i * 16, i * 16 + 16));
      return [j.getName(), [m[12]!, m[13]!, m[14]!]];
    }),
  );
  const raw = keep.map((j) => toRig(bind.get(j.getName())!, { scale, offset: [0, 0, 0] }));
  const mean = [0, 1].map((c) => raw.reduce((s, p) => s + p[c]!, 0) / raw.length);
  const low = Math.min(...raw.map((p) => p[2]));
  const prep: FoxPrep = { scale, offset: [-mean[0]!, -mean[1]!, -low] };
  const names = new Set(keep.map((j) => j.getName()));
  const rig: RigJson = { joints: {}, bones: [], roll_deg: {}, limits_deg: {} };
  const head = new Map(keep.map((j) => [j.getName(), toRig(bind.get(j.getName())!, prep)]));
  for (const j of keep) {
    const name = j.getName();
    const parent = j.getParentNode();
    const parentName = parent && names.has(parent.getName()) ? parent.getName() : null;
    const child = j.listChildren().find((c) => names.has(c.getName()));
    const h = head.get(name)!;
    rig.joints[name] = h;
    let tail = child?.getName();
    if (!tail) {
      const ph = head.get(parentName!)!;
      tail = `${name}_end`;
      rig.joints[tail] = h.map((v, c) => v + (v - ph[c]!) * 0.5) as [number, number, number];
    }
    rig.bones.push([name, name, tail, parentName]);
  }
  const creature = CreatureJson.parse({
    name: 'fox-skin',
    noun: 'red fox',
    describe: 'the Khronos Fox on its own skeleton',
    colour_code: 'legs painted',
    limbs: 'four legs and a tail',
    prep: { length_m: 1.0, rotz_deg: 0, axis: 'y' },
    layout: { M_PER_PX: 0.002 },
    paint: [
      {
        name: 'front_left',
        colour: [220, 40, 40],
        bones: ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'],
      },
      {
        name: 'front_right',
        colour: [40, 90, 230],
        bones: ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
      },
      {
        name: 'hind_left',
        colour: [40, 190, 70],
        bones: ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018'],
      },
      {
        name: 'hind_right',
        colour: [235, 205, 30],
        bones: ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021', 'b_RightFoot02_022'],
      },
    ],
    feet: ['b_LeftHand_011_end', 'b_RightHand_08_end', 'b_LeftFoot02_018_end', 'b_RightFoot02_022_end'],
  });
  return { rig: RigJson.parse(rig), creature, prep };
}
