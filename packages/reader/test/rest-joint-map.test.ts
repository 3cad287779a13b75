import type { RigInfo } from '@mocap/layout';
import { type RestJoints, restJointMap, restJoints } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

/** A quadruped's joints at rest: x to its left, y toward the tail, z up; `s` scales it, `leg` its legs' length. */
function quadruped(names: Record<string, string>, s = 1, leg = 1): RestJoints {
  const at = (x: number, y: number, z: number): [number, number, number] => [s * x, s * y, s * z];
  const top = 0.5 * leg + 0.2;
  const rest: RestJoints = {
    [names.pelvis!]: at(0, 0.4, top),
    [names.withers!]: at(0, -0.3, top + 0.05),
    [names.nose!]: at(0, -0.7, top + 0.25),
    [names.tailtip!]: at(0, 0.9, top - 0.1),
  };
  for (const [side, x] of [
    ['L', 0.12],
    ['R', -0.12],
  ] as const) {
    rest[`${names.shoulder}${side}`] = at(x, -0.3, top - 0.05);
    rest[`${names.fpaw}${side}`] = at(x, -0.3, 0);
    rest[`${names.hip}${side}`] = at(x, 0.4, top - 0.05);
    rest[`${names.hpaw}${side}`] = at(x, 0.45, 0);
  }
  return rest;
}

const wolf = quadruped({
  pelvis: 'pelvis',
  withers: 'withers',
  nose: 'nose',
  tailtip: 'tailtip',
  shoulder: 'shoulder.',
  fpaw: 'fpaw.',
  hip: 'hip.',
  hpaw: 'hpaw.',
});

describe('restJointMap', () => {
  it('maps a skeleton of other names, size and proportions joint for joint, each on its own side', () => {
    const fox = quadruped(
      {
        pelvis: 'b_Hip',
        withers: 'b_Spine02',
        nose: 'b_Head_end',
        tailtip: 'b_Tail_end',
        shoulder: 'b_UpperArm_',
        fpaw: 'b_Hand_end_',
        hip: 'b_Leg01_',
        hpaw: 'b_Foot_end_',
      },
      0.4,
      1.6,
    );
    expect(restJointMap(fox, wolf)).toEqual({
      b_Hip: 'pelvis',
      b_Spine02: 'withers',
      b_Head_end: 'nose',
      b_Tail_end: 'tailtip',
      b_UpperArm_L: 'shoulder.L',
      b_Hand_end_L: 'fpaw.L',
      b_Leg01_L: 'hip.L',
      b_Foot_end_L: 'hpaw.L',
      b_UpperArm_R: 'shoulder.R',
      b_Hand_end_R: 'fpaw.R',
      b_Leg01_R: 'hip.R',
      b_Foot_end_R: 'hpaw.R',
    });
  });

  it('keeps the side even where another side is nearer, and falls back to any joint when a side has none', () => {
    // a right paw drawn close to the midline still maps to a right paw, not the centre chin
    const target: RestJoints = { paw: [-0.04, -0.3, 0], spine: [0, 0, 0.7], widest: [0.2, 0, 0.3] };
    const source: RestJoints = {
      chin: [0, -0.3, 0.05],
      'fpaw.R': [-0.12, -0.3, 0],
      'fpaw.L': [0.12, -0.3, 0],
      back: [0, 0, 0.7],
    };
    expect(restJointMap(target, source).paw).toBe('fpaw.R');
    // a source of centre joints only (a snake): a leg maps to the nearest of them
    const snake: RestJoints = { head: [0, -1, 0.1], mid: [0, -0.1, 0.1], tail: [0, 1, 0] };
    expect(restJointMap(wolf, snake)['fpaw.L']).toBe('mid');
    expect(() => restJointMap(wolf, {})).toThrow(/no joints/);
  });
});

describe('restJoints', () => {
  it("reads each keypoint at its bone's head or tail", () => {
    const bone = (name: string, parent: string | null, head: number[], tail: number[]) => ({
      name,
      parent,
      head,
      tail,
      roll: 0,
      length: 1,
      matrix_local: [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
      limits_deg: {},
    });
    const info = {
      armature: 'Armature',
      root: 'hips',
      bones: [
        bone('hips', null, [0, 0.4, 0.8], [0, 0.2, 0.8]),
        bone('tail', 'hips', [0, 0.4, 0.8], [0, 0.9, 0.6]),
      ],
      keypoints: [
        { name: 'pelvis', bone: 'hips', end: 'head' },
        { name: 'tailtip', bone: 'tail', end: 'tail' },
      ],
    } as unknown as RigInfo;
    expect(restJoints(info)).toEqual({ pelvis: [0, 0.4, 0.8], tailtip: [0, 0.9, 0.6] });
  });
});
