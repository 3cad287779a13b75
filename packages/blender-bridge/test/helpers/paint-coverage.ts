import { NodeIO, type Primitive } from '@gltf-transform/core';
import type { PaintGroup } from '@mocap/layout';

/** How one paint group's limb shows in a glTF. */
interface GroupCoverage {
  name: string;
  /** glTF vertices whose skin weights belong mostly (>= 0.5) to the group's bones. */
  limb: number;
  /** Of those, how many a renderer shows in the group's colour (untextured, colour = paint). */
  shown: number;
  share: number;
  /** Of those, how many have the group's colour as multiplier, shown or under a texture. */
  tinted: number;
}

/** What a glTF renderer shows of the limb paint, per glTF vertex. */
export interface PaintCoverage {
  groups: GroupCoverage[];
  /** Vertices of no group (the body) whose colour multiplier is any group's paint colour. */
  body: { vertices: number; painted: number; share: number };
  /** Textured vertices whose multiplier (baseColorFactor x COLOR_0) darkens the texture. */
  texture: { vertices: number; darkened: number; share: number };
  /** Whether any primitive carries COLOR_0. */
  colour0: boolean;
}

const io = new NodeIO();

function linearToSrgb255(c: number): number {
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, s)) * 255);
}

/** A paint colour matches when every sRGB channel is within 3 of it (COLOR_0 may be quantised). */
function isColour(rgb255: number[], paint: readonly number[]): boolean {
  return rgb255.every((c, i) => Math.abs(c - paint[i]!) <= 3);
}

/**
 * Reads a glb as a glTF renderer would: per vertex, the colour multiplier is the material's
 * baseColorFactor times COLOR_0 (when present), over its base-colour texture (when present).
 * Limb vertices are labelled with build_rig.py's rule (the group whose bones carry the most
 * skin weight, if at least 0.5), read from JOINTS_0 / WEIGHTS_0.
 */
export async function paintCoverage(glb: string, paint: readonly PaintGroup[]): Promise<PaintCoverage> {
  const doc = await io.read(glb);
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getSkin() && n.getMesh());
  if (!node) throw new Error(`paintCoverage: ${glb}: nodes: no node with a skinned mesh.`);
  const jointNames = node
    .getSkin()!
    .listJoints()
    .map((j) => j.getName());
  const jointGroup = jointNames.map((n) => paint.findIndex((g) => g.bones.includes(n)));
  const groups = paint.map((g) => ({ name: g.name, limb: 0, shown: 0, share: 0, tinted: 0 }));
  const body = { vertices: 0, painted: 0, share: 0 };
  const texture = { vertices: 0, darkened: 0, share: 0 };
  let colour0 = false;
  const sums = new Float64Array(paint.length);
  const j4: number[] = [];
  const w4: number[] = [];
  const c4: number[] = [];
  for (const p of node.getMesh()!.listPrimitives()) {
    const { factor, textured } = materialOf(p);
    const joints = p.getAttribute('JOINTS_0');
    const weights = p.getAttribute('WEIGHTS_0');
    const colours = p.getAttribute('COLOR_0');
    if (!joints || !weights) throw new Error(`paintCoverage: ${glb}: a primitive has no JOINTS_0/WEIGHTS_0.`);
    if (colours) colour0 = true;
    for (let v = 0; v < joints.getCount(); v++) {
      joints.getElement(v, j4);
      weights.getElement(v, w4);
      sums.fill(0);
      for (let k = 0; k < 4; k++) {
        const g = jointGroup[j4[k]!]!;
        if (g >= 0) sums[g] += w4[k]!;
      }
      let best = 0;
      for (let g = 1; g < paint.length; g++) if (sums[g]! > sums[best]!) best = g;
      const label = paint.length && sums[best]! >= 0.5 ? best : -1;
      const m = [factor[0]!, factor[1]!, factor[2]!];
      if (colours) {
        colours.getElement(v, c4);
        for (let i = 0; i < 3; i++) m[i]! *= c4[i]!;
      }
      const srgb = m.map(linearToSrgb255);
      if (textured) {
        texture.vertices++;
        if (srgb.some((c) => c < 252)) texture.darkened++;
      }
      if (label >= 0) {
        groups[label]!.limb++;
        if (isColour(srgb, paint[label]!.colour)) {
          groups[label]!.tinted++;
          if (!textured) groups[label]!.shown++;
        }
      } else {
        body.vertices++;
        if (paint.some((g) => isColour(srgb, g.colour))) body.painted++;
      }
    }
  }
  for (const g of groups) g.share = g.limb ? g.shown / g.limb : 0;
  body.share = body.vertices ? body.painted / body.vertices : 0;
  texture.share = texture.vertices ? texture.darkened / texture.vertices : 0;
  return { groups, body, texture, colour0 };
}

function materialOf(p: Primitive): { factor: number[]; textured: boolean } {
  const mat = p.getMaterial();
  if (!mat) return { factor: [1, 1, 1], textured: false };
  return { factor: mat.getBaseColorFactor().slice(0, 3), textured: mat.getBaseColorTexture() !== null };
}
