import type { SkinnedMesh } from '@mocap/reader';
import { sideOnlyJoints } from '@mocap/reader/internal';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFox } from './fox-fixture.js';

const TAIL = ['b_Tail01_012', 'b_Tail02_013', 'b_Tail03_014'];

describe('sideOnlyJoints', () => {
  let mesh: SkinnedMesh;
  let J: number;
  let tail: number[];
  let painted: Uint8Array;
  beforeAll(async () => {
    mesh = await readFox();
    J = mesh.jointNames.length;
    tail = TAIL.map((n) => mesh.jointNames.indexOf(n));
    // the legs carry paint, as the Fox's creature.json paints them
    painted = Uint8Array.from(mesh.jointNames, (n) => (/Leg|Foot|Arm|Hand/.test(n) ? 1 : 0));
  });

  /** px per joint and view: 100 in both views, then the given joints' front px. */
  const px = (front: Record<string, number>) => {
    const out = new Float64Array(2 * J).fill(100);
    for (const [n, v] of Object.entries(front)) out[2 * mesh.jointNames.indexOf(n)] = v;
    return out;
  };

  it('picks an unpainted subtree the front view shows under the ratio, parents first', () => {
    const out: number[] = [];
    sideOnlyJoints(out, mesh, px({ b_Tail01_012: 10, b_Tail02_013: 5, b_Tail03_014: 0 }), painted, 0.2);
    expect(out).toEqual(tail);
  });

  it('judges a joint by its whole subtree and takes every joint below a pick', () => {
    const out: number[] = [];
    // only the tip shows in front: 100 of the first joint's 300 side px, 100 of the second's 200
    sideOnlyJoints(out, mesh, px({ b_Tail01_012: 0, b_Tail02_013: 0 }), painted, 0.2);
    expect(out).toEqual([]);
    sideOnlyJoints(out, mesh, px({ b_Tail01_012: 0, b_Tail02_013: 0 }), painted, 0.4);
    expect(out).toEqual(tail);
  });

  it('never picks a painted joint or a joint above paint, and nothing at ratio 0', () => {
    const out: number[] = [];
    const hidden = Object.fromEntries(mesh.jointNames.map((n) => [n, 0]));
    sideOnlyJoints(out, mesh, px(hidden), painted, 0.2);
    for (const j of out) {
      expect(painted[j]).toBe(0);
      let below = false;
      for (let k = 0; k < J; k++)
        for (let p = k; p >= 0; p = mesh.parent[p]) if (p === j && painted[k]) below = true;
      expect(below).toBe(false);
    }
    expect(out.map((j) => mesh.jointNames[j])).toEqual(expect.arrayContaining([...TAIL, 'b_Head_05']));
    sideOnlyJoints(out, mesh, px(hidden), painted, 0);
    expect(out).toEqual([]);
  });
});
