// The Khronos glTF sample model Fox. Credits: CC0 low poly fox by PixelMannen
// (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and animation by @tomkranis
// on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc); glTF conversion
// by @AsoboStudio and @scurest.
import { fileURLToPath } from 'node:url';
import { Layout } from '@mocap/layout';
import { readSkinnedMesh, type SkinnedMesh } from '@mocap/reader';
import type { PaintJoints } from '@mocap/reader/internal';

/** Path of the Fox test asset: the byte copy of ../shared/fixtures/fox/Fox.glb in creatures/fox (credits in its README). */
export const FOX = fileURLToPath(new URL('../../../../creatures/fox/model.glb', import.meta.url));

/** The Fox's legs as four paint groups (left/right, front/hind), like creature.json `paint`. */
export const FOX_PAINT: PaintJoints[] = [
  { name: 'front_left', bones: ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'] },
  { name: 'front_right', bones: ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'] },
  {
    name: 'hind_left',
    bones: ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018'],
  },
  {
    name: 'hind_right',
    bones: ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021', 'b_RightFoot02_022'],
  },
  { name: 'tail', bones: ['b_Tail01_012', 'b_Tail02_013', 'b_Tail03_014'] },
];

/** A layout that frames the Fox (about 1.55 m long at 0.01 m per file unit). */
export const FOX_LAYOUT = Layout.parse({ M_PER_PX: 0.004, GROUND_V: 560 });

/** The Fox read in metres (file units are centimetre-like). */
export function readFox(): Promise<SkinnedMesh> {
  return readSkinnedMesh(FOX, { unitScale: 0.01 });
}
