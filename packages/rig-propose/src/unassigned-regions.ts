import type { RigBone } from '@mocap/layout';
import type { MeshFeatures } from './mesh-features.js';

/** A part of the mesh no proposed bone explains: a wing, a horn, a second tail. */
export interface UnassignedRegion {
  /** `wing.L`, `horn`, `tail`, `appendage.R`, ... (a number added when a name repeats). */
  name: string;
  /** Mean position of its surface cells, metres. */
  centroid: [number, number, number];
  /** Bounding box, metres. */
  min: [number, number, number];
  max: [number, number, number];
  /** Share of the mesh's surface cells it holds. */
  share: number;
  /** The proposed bone it is nearest to, where it would attach. */
  attach: string;
}

type Vec3 = [number, number, number];

function segmentDistance(p: Vec3, a: readonly number[], b: readonly number[]): number {
  const abx = (b[0] as number) - (a[0] as number);
  const aby = (b[1] as number) - (a[1] as number);
  const abz = (b[2] as number) - (a[2] as number);
  const l2 = abx * abx + aby * aby + abz * abz;
  const t =
    l2 > 0
      ? Math.max(
          0,
          Math.min(
            1,
            ((p[0] - (a[0] as number)) * abx +
              (p[1] - (a[1] as number)) * aby +
              (p[2] - (a[2] as number)) * abz) /
              l2,
          ),
        )
      : 0;
  return Math.hypot(
    p[0] - (a[0] as number) - t * abx,
    p[1] - (a[1] as number) - t * aby,
    p[2] - (a[2] as number) - t * abz,
  );
}

/**
 * The mesh's parts that no proposed bone explains, named. A surface cell is explained when it
 * lies within `reach` (default: the torso's greatest height, so a thick chest, belly or rump is
 * still the spine's) of some bone; the rest, grouped into connected pieces holding at least
 * `minShare` of the surface, become regions, named by the bone they hang from and where they
 * reach: from the head or neck a horn, from the tail or hips and behind them a tail, rising from the
 * back or shoulders a wing, else an appendage; `.L` / `.R` when off the mid-plane.
 *
 * ```ts
 * const regions = unassignedRegions(features, joints, rig.bones);
 * regions.map((r) => r.name); // ['wing.L', 'wing.R'] for the dragon
 * ```
 */
export function unassignedRegions(
  f: MeshFeatures,
  joints: Record<string, readonly number[]>,
  bones: readonly RigBone[],
  opts: { reach?: number; minShare?: number } = {},
): UnassignedRegion[] {
  const { nx, ny, nz, size, origin, cells } = f.grid;
  let thick = 0;
  const back = f.legs.filter((l) => l.leg.startsWith('hind'))[0]?.y.at(-1) ?? 0;
  const frontY = f.legs.filter((l) => l.leg.startsWith('front'))[0]?.y.at(-1) ?? 0;
  for (let j = 0; j < ny; j++) {
    const y = origin[1] + (j + 0.5) * size;
    if (y < frontY || y > back) continue;
    const t = (f.top[j] as number) - (f.bottom[j] as number);
    if (t > thick) thick = t;
  }
  const reach = opts.reach ?? thick;
  const minShare = opts.minShare ?? 0.03;
  const segs = bones.map((b) => ({
    name: b[0],
    a: joints[b[1]] as readonly number[],
    b: joints[b[2]] as readonly number[],
  }));
  const unexplained = new Uint8Array(cells.length);
  let total = 0;
  const at = (c: number): Vec3 => {
    const i = c % nx;
    const j = Math.floor(c / nx) % ny;
    const k = Math.floor(c / (nx * ny));
    return [origin[0] + (i + 0.5) * size, origin[1] + (j + 0.5) * size, origin[2] + (k + 0.5) * size];
  };
  for (let c = 0; c < cells.length; c++) {
    if (!cells[c]) continue;
    total++;
    const p = at(c);
    if (!segs.some((s) => segmentDistance(p, s.a, s.b) <= reach)) unexplained[c] = 1;
  }
  const seen = new Uint8Array(cells.length);
  const regions: UnassignedRegion[] = [];
  const counts = new Map<string, number>();
  for (let s = 0; s < cells.length; s++) {
    if (!unexplained[s] || seen[s]) continue;
    const members: number[] = [];
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const c = stack.pop() as number;
      members.push(c);
      const i = c % nx;
      const j = Math.floor(c / nx) % ny;
      const k = Math.floor(c / (nx * ny));
      for (let dk = -1; dk <= 1; dk++) {
        for (let dj = -1; dj <= 1; dj++) {
          for (let di = -1; di <= 1; di++) {
            const ii = i + di;
            const jj = j + dj;
            const kk = k + dk;
            if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) continue;
            const n = ii + nx * (jj + ny * kk);
            if (unexplained[n] && !seen[n]) {
              seen[n] = 1;
              stack.push(n);
            }
          }
        }
      }
    }
    if (members.length < minShare * total) continue;
    const min: Vec3 = [Infinity, Infinity, Infinity];
    const max: Vec3 = [-Infinity, -Infinity, -Infinity];
    const sum: Vec3 = [0, 0, 0];
    let nearest = { d: Infinity, bone: '' };
    for (const c of members) {
      const p = at(c);
      for (let d = 0; d < 3; d++) {
        sum[d] = (sum[d] as number) + (p[d] as number);
        min[d] = Math.min(min[d] as number, p[d] as number);
        max[d] = Math.max(max[d] as number, p[d] as number);
      }
      for (const sg of segs) {
        const d = segmentDistance(p, sg.a, sg.b);
        if (d < nearest.d) nearest = { d, bone: sg.name };
      }
    }
    const centroid = sum.map((v) => v / members.length) as Vec3;
    const base = regionKind(nearest.bone, centroid, joints, f);
    const dx = centroid[0] - f.centreX;
    const side = dx > f.halfTrack / 2 ? '.L' : dx < -f.halfTrack / 2 ? '.R' : '';
    const stem = `${base}${side}`;
    const n = (counts.get(stem) ?? 0) + 1;
    counts.set(stem, n);
    regions.push({
      name: n === 1 ? stem : `${stem}${n}`,
      centroid,
      min,
      max,
      share: members.length / total,
      attach: nearest.bone,
    });
  }
  return regions;
}

/** horn (head, neck), tail (tail, or hips and behind them), wing (back, shoulders, above the legs), else appendage. */
function regionKind(
  bone: string,
  c: Vec3,
  joints: Record<string, readonly number[]>,
  f: MeshFeatures,
): string {
  if (/^(head|jaw|neck)/.test(bone)) return 'horn';
  const pelvisY = (joints.pelvis?.[1] as number | undefined) ?? Infinity;
  if (/^tail/.test(bone) || (bone === 'hips' && c[1] > pelvisY)) return 'tail';
  const legTop = Math.max(...f.legs.map((l) => l.top));
  if (c[2] > legTop) return 'wing';
  return 'appendage';
}
