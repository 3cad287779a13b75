import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Into `out`: the joints of every unpainted subtree (a joint and all below it, no paint group
 * riding any of them) whose faces show fewer px in the front view than `ratio` x what they show in
 * the side view (`px`: per joint and view, {@link jointVisibility}), parents first.
 */
export function sideOnlyJoints(
  out: number[],
  mesh: SkinnedMesh,
  px: Float64Array,
  painted: Uint8Array,
  ratio: number,
): void {
  const J = mesh.jointNames.length;
  const sum = new Float64Array(2 * J);
  const paintBelow = Uint8Array.from(painted);
  for (let k = mesh.order.length - 1; k >= 0; k--) {
    const j = mesh.order[k];
    sum[2 * j] += px[2 * j];
    sum[2 * j + 1] += px[2 * j + 1];
    const p = mesh.parent[j];
    if (p < 0) continue;
    sum[2 * p] += sum[2 * j];
    sum[2 * p + 1] += sum[2 * j + 1];
    if (paintBelow[j]) paintBelow[p] = 1;
  }
  out.length = 0;
  const chosen = new Uint8Array(J);
  for (const j of mesh.order) {
    const p = mesh.parent[j];
    chosen[j] =
      (p >= 0 && chosen[p]) || (!paintBelow[j] && sum[2 * j + 1] > 0 && sum[2 * j] < ratio * sum[2 * j + 1])
        ? 1
        : 0;
    if (chosen[j]) out.push(j);
  }
}
