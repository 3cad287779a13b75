import type { CreatureJson } from '@mocap/layout';
import type { z } from 'zod';
import { boneSides } from './bone-sides.js';
import type { CreatureSkeleton, SkeletonBone } from './creature-skeleton.js';

/** Paint colours per left/right pair (the wolf's and dragon's first), with their names for the prompt. */
const PALETTE: [string, [number, number, number]][][] = [
  [
    ['red', [220, 40, 40]],
    ['blue', [40, 90, 230]],
  ],
  [
    ['green', [40, 190, 70]],
    ['yellow', [235, 205, 30]],
  ],
  [
    ['magenta', [220, 60, 220]],
    ['cyan', [40, 210, 220]],
  ],
  [
    ['orange', [240, 140, 30]],
    ['purple', [130, 70, 210]],
  ],
  [
    ['brown', [140, 80, 40]],
    ['white', [245, 245, 245]],
  ],
  [
    ['pink', [250, 150, 180]],
    ['teal', [20, 120, 120]],
  ],
];

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** Options of {@link proposeCreature}. */
export interface ProposeCreatureOptions {
  /** The creature's name (its folder's). */
  name: string;
  /** Feet lie within this fraction of their limb's height above the ground. @default 0.1 */
  footBand?: number;
}

/** What {@link proposeCreature} returns: creature.json as proposed, and what a person should check. */
export interface CreatureProposal {
  /** creature.json as written (defaults left to the schema). */
  creature: z.input<typeof CreatureJson>;
  /** One line per guess a person should review. */
  notes: string[];
}

/** A limb chain: a connected run of same-side bones below a middle bone, parents first. */
function chains(bones: SkeletonBone[], side: Map<string, 'left' | 'right'>): string[][] {
  const out: string[][] = [];
  const of = new Map<string, string[]>();
  for (const b of bones) {
    const s = side.get(b.name);
    if (!s) continue;
    const up = b.parent && side.get(b.parent) === s ? of.get(b.parent) : undefined;
    const chain = up ?? [];
    if (!up) out.push(chain);
    chain.push(b.name);
    of.set(b.name, chain);
  }
  return out;
}

/**
 * Proposes creature.json for a skeleton with any bone names, for a person to review:
 * left/right pairs ({@link boneSides}: names, else mirrored positions) as the `mirror` map; one
 * paint group per limb chain (same-side bones joined to the body), legs first front to back
 * (`front_left`, `front_right`, `hind_left`, ... in the wolf's colours), then other limbs; feet,
 * the leaf keypoints within `footBand` of their limb's height above the ground and the keypoints
 * above them still within it; the prompt words from those, the length from the skeleton's extent.
 *
 * ```ts
 * const { creature, notes } = proposeCreature(rigJsonSkeleton(rig), { name: 'wolf' });
 * ```
 */
export function proposeCreature(
  skeleton: CreatureSkeleton,
  options: ProposeCreatureOptions,
): CreatureProposal {
  const band = options.footBand ?? 0.1;
  const { bones, keypoints, ground } = skeleton;
  const byName = new Map(bones.map((b) => [b.name, b]));
  const { pairs, side, unpaired } = boneSides(skeleton);
  const partner = new Map(pairs.flatMap((p) => [[p.left, p.right] as const, [p.right, p.left] as const]));
  const all = chains(bones, side);
  const chainOf = new Map(all.flatMap((c) => c.map((b) => [b, c] as const)));
  const top = Math.max(...keypoints.map((k) => k.at[2]));
  const height = (z: number) => z - ground;
  const parentBones = new Set(bones.map((b) => b.parent));
  const headKey = (b: SkeletonBone) =>
    keypoints.find(
      (q) => (q.bone === b.name && q.end === 'head') || (q.bone === b.parent && q.end === 'tail'),
    );
  const feet = new Set<string>();
  const lowCentre: string[] = [];
  for (const k of keypoints) {
    if (k.end !== 'tail' || parentBones.has(k.bone)) continue;
    const c = chainOf.get(k.bone);
    const h = band * height(c ? byName.get(c[0]!)!.head[2] : top);
    if (height(k.at[2]) > h) continue;
    // A leaf on the body's middle (a tail tip) may drag but is no foot; a person decides.
    if (!c) {
      lowCentre.push(k.name);
      continue;
    }
    feet.add(k.name);
    for (
      let b = byName.get(k.bone);
      b && height(b.head[2]) <= h;
      b = b.parent ? byName.get(b.parent) : undefined
    ) {
      const q = headKey(b);
      if (q) feet.add(q.name);
    }
  }
  const leftChains = all.filter((c) => side.get(c[0]!) === 'left');
  const limbPairs = leftChains.flatMap((l) => {
    const r = chainOf.get(partner.get(l[0]!) ?? '');
    return r ? [{ left: l, right: r }] : [];
  });
  const footBones = new Set(keypoints.filter((k) => feet.has(k.name)).map((k) => k.bone));
  const isLeg = (c: string[]) => c.some((b) => footBones.has(b));
  const y = (c: string[]) => byName.get(c[0]!)!.head[1];
  const legs = limbPairs.filter((p) => isLeg(p.left)).sort((a, b) => y(a.left) - y(b.left));
  const others = limbPairs.filter((p) => !isLeg(p.left)).sort((a, b) => y(a.left) - y(b.left));
  const legNames =
    legs.length === 2 ? ['front', 'hind'] : legs.length === 1 ? ['leg'] : legs.map((_, i) => `leg${i + 1}`);
  const otherNames = others.length === 1 ? ['limb'] : others.map((_, i) => `limb${i + 1}`);
  const named = [
    ...legs.map((p, i) => ({
      ...p,
      name: legNames[i]!,
      words: legs.length === 2 ? `${legNames[i]} legs` : legs.length === 1 ? 'legs' : `legs ${i + 1}`,
    })),
    ...others.map((p, i) => ({
      ...p,
      name: otherNames[i]!,
      words: others.length === 1 ? 'the other limbs' : `limbs ${i + 1}`,
    })),
  ];
  const paint: { name: string; colour: [number, number, number]; bones: string[] }[] = [];
  const code: string[] = [];
  named.forEach((p, i) => {
    const [[ln, lc], [rn, rc]] = PALETTE[i % PALETTE.length]! as [
      [string, [number, number, number]],
      [string, [number, number, number]],
    ];
    paint.push({ name: `${p.name}_left`, colour: lc, bones: p.left });
    paint.push({ name: `${p.name}_right`, colour: rc, bones: p.right });
    code.push(`${p.words}${i === 0 ? ' painted' : ''} ${ln} (left) and ${rn} (right)`);
  });
  const notes: string[] = [];
  const byPos = pairs.filter((p) => p.by === 'position');
  if (byPos.length > 0)
    notes.push(
      `mirror: ${byPos.length} pairs from mirrored positions (names say no side), +X taken as left: ${byPos.map((p) => `${p.left}/${p.right}`).join(', ')}.`,
    );
  if (unpaired.length > 0) notes.push(`mirror: names give a side but no partner: ${unpaired.join(', ')}.`);
  for (const c of all) {
    if (!named.some((p) => p.left === c || p.right === c))
      notes.push(`paint: the chain ${c.join(', ')} has no mirrored partner chain and is not painted.`);
  }
  if (lowCentre.length > 0)
    notes.push(
      `feet: ${lowCentre.join(', ')} lie near the ground but on no limb; add them if they touch it.`,
    );
  if (skeleton.source.endsWith('.glb'))
    notes.push('limits_deg: none proposed; the skin rig gives bones it does not cover wide limits.');
  if (feet.size === 0)
    notes.push(`feet: no leaf joint lies within ${band} of its limb's height above the ground.`);
  if (legs.length > 2 || others.length > 0)
    notes.push(`paint: group names (${named.map((p) => p.name).join(', ')}) are positional; rename them.`);
  notes.push(
    `prep.length_m: ${skeleton.length.toPrecision(4)} is the model's length in its own units (from ${skeleton.source}); set the creature's real length in metres.`,
  );
  notes.push('noun, describe, limbs: words for the prompt; check them.');
  const nLegs = 2 * legs.length;
  const nOther = 2 * others.length;
  const count = (n: number) => WORDS[n] ?? `${n}`;
  const limbs = [nLegs > 0 ? `${count(nLegs)} legs` : '', nOther > 0 ? `${count(nOther)} other limbs` : '']
    .filter(Boolean)
    .join(' and ');
  const orderedFeet = keypoints.filter((k) => feet.has(k.name)).map((k) => k.name);
  const mirror = Object.fromEntries(pairs.map((p) => [p.left, p.right]));
  const creature: z.input<typeof CreatureJson> = {
    name: options.name,
    noun: options.name,
    describe: `a ${options.name}`,
    colour_code: code.join(', ') || 'no painted limbs',
    count: 'one',
    flank: 'right flank',
    limbs: limbs || 'no limbs found',
    prep: { length_m: Number(skeleton.length.toPrecision(4)), rotz_deg: 0, axis: 'y' },
    layout: {},
    paint,
    feet: orderedFeet,
    mirror,
  };
  return { creature, notes };
}
