import type { SkinnedMesh } from './skinned-mesh.js';

/** Pixel / vertex label of the backdrop. */
export const LABEL_BACKDROP = 0;
/** Label of the creature's unpainted body (skin, fur). */
export const LABEL_BODY = 1;
/** Label of paint group `g` (creature.json `paint[g]`) is `LABEL_GROUP0 + g`. */
export const LABEL_GROUP0 = 2;

/** A paint group as the refinement needs it: its name and the joints (bones) it colours. */
export interface PaintJoints {
  name: string;
  /** Joint (bone) names whose weights carry the group's colour. */
  bones: string[];
  /** The group's paint colour, RGB 0-255 (creature.json `paint[].colour`), when known. */
  colour?: [number, number, number] | undefined;
}

/**
 * One label per vertex, the rule build_rig.py paints `legpaint` with: the paint group whose
 * bones carry the largest summed weight, if that sum is at least 0.5 (label
 * `LABEL_GROUP0 + g`); otherwise the body (`LABEL_BODY`). Bones not in the skin throw.
 *
 * ```ts
 * const labels = vertexPaintLabels(mesh, creature.paint);
 * ```
 */
export function vertexPaintLabels(mesh: SkinnedMesh, groups: readonly PaintJoints[]): Uint8Array {
  const jointGroup = new Int32Array(mesh.jointNames.length).fill(-1);
  groups.forEach((g, gi) => {
    g.bones.forEach((b, bi) => {
      const j = mesh.jointNames.indexOf(b);
      if (j < 0) {
        throw new Error(
          `vertexPaintLabels: paint[${gi}].bones[${bi}]: "${b}" is not a joint of the skinned mesh.`,
        );
      }
      jointGroup[j] = gi;
    });
  });
  const out = new Uint8Array(mesh.vertexCount);
  const sums = new Float64Array(groups.length);
  for (let v = 0; v < mesh.vertexCount; v++) {
    sums.fill(0);
    for (let k = 0; k < 4; k++) {
      const g = jointGroup[mesh.joints[4 * v + k]];
      if (g >= 0) sums[g] += mesh.weights[4 * v + k];
    }
    let best = -1;
    for (let g = 0; g < groups.length; g++) if (best < 0 || sums[g] > sums[best]) best = g;
    out[v] = best >= 0 && sums[best] >= 0.5 ? LABEL_GROUP0 + best : LABEL_BODY;
  }
  return out;
}

/** One label per triangle: the label most of its three vertices carry (the first vertex's on a three-way tie). */
export function faceLabels(indices: Uint32Array, vertexLabels: Uint8Array): Uint8Array {
  const f = indices.length / 3;
  const out = new Uint8Array(f);
  for (let t = 0; t < f; t++) {
    const a = vertexLabels[indices[3 * t]];
    const b = vertexLabels[indices[3 * t + 1]];
    const c = vertexLabels[indices[3 * t + 2]];
    out[t] = b === c ? b : a;
  }
  return out;
}
