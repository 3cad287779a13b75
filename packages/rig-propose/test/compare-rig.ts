import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RigJson } from '@mocap/layout';
import { CHAINS, CORRESPONDENCE } from './rig-correspondence.js';

const CREATURES = new URL('../../../creatures/', import.meta.url);
const FIXTURES = new URL('./fixtures/', import.meta.url);

/**
 * The creature's hand-placed rig: the fox now ships its proposed rig, so its hand rig is kept as a
 * fixture; the others' rig.json is still the hand-placed one.
 */
export function handRig(creature: string): RigJson {
  const kept = fileURLToPath(new URL(`${creature}-hand-rig.json`, FIXTURES));
  const file = existsSync(kept) ? kept : fileURLToPath(new URL(`${creature}/rig.json`, CREATURES));
  return RigJson.parse(JSON.parse(readFileSync(file, 'utf8')));
}

type Joints = Record<string, readonly number[]>;

/** Distance per compared rig joint (metres), keyed by the rig's joint name. */
export function compareRig(creature: string, proposed: Joints, rig: Joints): Record<string, number> {
  const map = CORRESPONDENCE[creature] ?? {};
  const out: Record<string, number> = {};
  const dist = (a: readonly number[], b: readonly number[]) =>
    Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
  for (const [name, p] of Object.entries(proposed)) {
    const target = name in map ? map[name] : name;
    if (target == null || !rig[target]) continue;
    out[target] = dist(p, rig[target]);
  }
  for (const chain of CHAINS[creature] ?? []) {
    const pts = chain.proposed.map((n) => proposed[n] as readonly number[]);
    const rigPts = chain.rig.map((n) => rig[n] as readonly number[]);
    const cum = (ps: (readonly number[])[]) => {
      const c = [0];
      for (let i = 1; i < ps.length; i++) c.push(c[i - 1]! + dist(ps[i]!, ps[i - 1]!));
      return c;
    };
    const cp = cum(pts);
    const cr = cum(rigPts);
    for (let i = 1; i < rigPts.length - 1; i++) {
      if (chain.rig[i]! in out) continue;
      const s = (cr[i]! / cr[cr.length - 1]!) * cp[cp.length - 1]!;
      let k = 0;
      while (k < cp.length - 2 && cp[k + 1]! < s) k++;
      const a = (s - cp[k]!) / (cp[k + 1]! - cp[k]!);
      const q = [0, 1, 2].map((d) => pts[k]![d]! + a * (pts[k + 1]![d]! - pts[k]![d]!));
      out[chain.rig[i]!] = dist(q, rigPts[i]!);
    }
  }
  return out;
}
