import type { CreatureSkeleton, SkeletonBone } from './creature-skeleton.js';

/** Which side a bone's name says it is on, and its name with the side taken out. */
interface NameSide {
  side: 'left' | 'right';
  /** The name with the side token replaced by `*`: partners share it. */
  stem: string;
}

const WORD = /(left|right)/i;
/** `L`/`R` alone: a prefix, between separators, a suffix; with the letter's offset in the match. */
const LETTER: [RegExp, number][] = [
  [/^[LR][._:-]/i, 0],
  [/[._:-][LR][._:-]/i, 1],
  [/[._:-][LR]$/i, 1],
];

/**
 * The side a bone's name gives: `Left`/`right` anywhere (any case), or an `L`/`R` letter standing
 * alone as a prefix (`L_arm`), a suffix (`arm.L`, `arm_r`) or between separators (`rig:L_arm`).
 * Null when the name says nothing.
 *
 * ```ts
 * nameSide('b_LeftLeg01_015'); // { side: 'left', stem: 'b_*Leg01_015' }
 * ```
 */
function nameSide(name: string): NameSide | null {
  const w = WORD.exec(name);
  if (w) {
    const side = w[1]!.toLowerCase() === 'left' ? 'left' : 'right';
    return { side, stem: `${name.slice(0, w.index)}*${name.slice(w.index + w[1]!.length)}` };
  }
  for (const [re, offset] of LETTER) {
    const m = re.exec(name);
    if (!m) continue;
    const at = m.index + offset;
    const side = name[at]!.toUpperCase() === 'L' ? 'left' : 'right';
    return { side, stem: `${name.slice(0, at)}*${name.slice(at + 1)}` };
  }
  return null;
}

/** A left/right bone pair and how it was found. */
interface BonePair {
  left: string;
  right: string;
  /** `name`: the names say the sides; `position`: mirrored positions (names say nothing). */
  by: 'name' | 'position';
}

/** The sides and partners {@link boneSides} finds. */
export interface BoneSides {
  pairs: BonePair[];
  /** Side per bone; bones on the middle plane or left unpaired are absent. */
  side: Map<string, 'left' | 'right'>;
  /** Bones whose name gives a side but no partner was found. */
  unpaired: string[];
}

const mid = (b: SkeletonBone, k: number) => (b.head[k]! + b.tail[k]!) / 2;

/**
 * Left/right bone pairs of a skeleton: first by name ({@link nameSide}: same stem, the other side;
 * failing that, the same stem once a trailing number is dropped, as in `b_LeftLeg01_015` /
 * `b_RightLeg01_019`; several candidates: the one nearest the mirrored position), then by mirrored
 * positions for bones whose names say nothing: off the middle plane (X = the mean joint X) by more
 * than `tol` of the skeleton's size, head and tail within `tol` of the other's mirror image, each
 * the other's nearest. +X is the creature's left (the layout's contract).
 *
 * ```ts
 * const { pairs } = boneSides(rigJsonSkeleton(rig)); // [{ left: 'fupper.L', right: 'fupper.R', by: 'name' }, ...]
 * ```
 */
export function boneSides(skeleton: Pick<CreatureSkeleton, 'bones'>, tol = 0.05): BoneSides {
  const bones = skeleton.bones;
  const xs = bones.flatMap((b) => [b.head[0], b.tail[0]]);
  const x0 = xs.reduce((a, b) => a + b, 0) / xs.length;
  const size = Math.max(
    ...[0, 1, 2].map((k) => {
      const v = bones.flatMap((b) => [b.head[k]!, b.tail[k]!]);
      return Math.max(...v) - Math.min(...v);
    }),
  );
  const eps = tol * size;
  const mirrorGap = (a: SkeletonBone, b: SkeletonBone) => {
    const m = (p: number[], q: number[]) => Math.hypot(2 * x0 - p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
    return Math.max(m(a.head, b.head), m(a.tail, b.tail));
  };
  const pairs: BonePair[] = [];
  const side = new Map<string, 'left' | 'right'>();
  const named = bones.flatMap((b) => {
    const s = nameSide(b.name);
    return s ? [{ bone: b, ...s }] : [];
  });
  const dropDigits = (s: string) => s.replace(/[._-]?\d+$/, '');
  const taken = new Set<string>();
  for (const l of named) {
    if (l.side !== 'left' || taken.has(l.bone.name)) continue;
    const rights = named.filter((r) => r.side === 'right' && !taken.has(r.bone.name));
    let cands = rights.filter((r) => r.stem === l.stem);
    if (cands.length === 0) cands = rights.filter((r) => dropDigits(r.stem) === dropDigits(l.stem));
    if (cands.length === 0) continue;
    const r = cands.reduce((a, b) => (mirrorGap(l.bone, b.bone) < mirrorGap(l.bone, a.bone) ? b : a));
    taken.add(l.bone.name);
    taken.add(r.bone.name);
    pairs.push({ left: l.bone.name, right: r.bone.name, by: 'name' });
    side.set(l.bone.name, 'left');
    side.set(r.bone.name, 'right');
  }
  const unpaired = named.flatMap((n) => (taken.has(n.bone.name) ? [] : [n.bone.name]));
  const free = bones.filter((b) => !nameSide(b.name) && Math.abs(mid(b, 0) - x0) > eps);
  const nearest = (b: SkeletonBone) => {
    let best: SkeletonBone | null = null;
    let gap = eps;
    for (const o of free) {
      if (o === b || Math.sign(mid(o, 0) - x0) === Math.sign(mid(b, 0) - x0)) continue;
      const g = mirrorGap(b, o);
      if (g <= gap) {
        gap = g;
        best = o;
      }
    }
    return best;
  };
  for (const b of free) {
    if (mid(b, 0) - x0 <= 0 || taken.has(b.name)) continue;
    const o = nearest(b);
    if (!o || nearest(o) !== b || taken.has(o.name)) continue;
    taken.add(b.name);
    taken.add(o.name);
    pairs.push({ left: b.name, right: o.name, by: 'position' });
    side.set(b.name, 'left');
    side.set(o.name, 'right');
  }
  const order = new Map(bones.map((b, i) => [b.name, i]));
  pairs.sort((a, b) => order.get(a.left)! - order.get(b.left)!);
  return { pairs, side, unpaired };
}
