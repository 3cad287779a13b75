import {
  CreatureJson,
  DatasetMeta,
  ExamReport,
  MotionJson,
  parseFileData,
  RigInfo,
  RigJson,
} from '@mocap/layout';
import { describe, expect, it } from 'vitest';
import { creatureJson, datasetMeta, examReport, motionJson, rigInfo, rigJson } from './examples.js';

const clone = <T>(v: T): T => structuredClone(v);

/** Each case: a schema, a valid example, and malformed variants with the field path their error must name. */
const cases = [
  {
    file: 'creature.json',
    schema: CreatureJson,
    valid: creatureJson,
    bad: [
      {
        edit: (c: typeof creatureJson) => {
          Object.assign(c.prep, { length_m: -1 });
        },
        field: 'prep.length_m',
        value: '-1',
      },
      {
        edit: (c: typeof creatureJson) => {
          (c.paint[1] as { colour: unknown }).colour = [1, 2, 300];
        },
        field: 'paint[1].colour[2]',
        value: '300',
      },
      {
        edit: (c: typeof creatureJson) => {
          Object.assign(c.layout, { W_FRONT: 'wide' });
        },
        field: 'layout.W_FRONT',
        value: '"wide"',
      },
      {
        edit: (c: typeof creatureJson) => {
          Object.assign(c, { colour: 'red' });
        },
        field: '(root)',
        value: 'colour',
      },
    ],
  },
  {
    file: 'rig.json',
    schema: RigJson,
    valid: rigJson,
    bad: [
      {
        edit: (r: typeof rigJson) => {
          (r.bones[1] as unknown[])[3] = 'spine9';
        },
        field: 'bones[1][3]',
        value: 'spine9',
      },
      {
        edit: (r: typeof rigJson) => {
          (r.bones[2] as unknown[])[2] = 'hoof';
        },
        field: 'bones[2][2]',
        value: 'hoof',
      },
      {
        edit: (r: typeof rigJson) => {
          (r.joints as Record<string, unknown>).paw = [0, Number.NaN, 0];
        },
        field: 'joints.paw[1]',
        value: 'null',
      },
      {
        edit: (r: typeof rigJson) => {
          (r.limits_deg.neck as unknown[])[0] = [30, -30];
        },
        field: 'limits_deg.neck[0]',
        value: '[30,-30]',
      },
    ],
  },
  {
    file: 'rig_info.json',
    schema: RigInfo,
    valid: rigInfo,
    bad: [
      {
        edit: (r: typeof rigInfo) => {
          (r.bones[1] as { parent: string }).parent = 'spine9';
        },
        field: 'bones[1].parent',
        value: 'spine9',
      },
      {
        edit: (r: typeof rigInfo) => {
          (r.keypoints[0] as { end: string }).end = 'middle';
        },
        field: 'keypoints[0].end',
        value: 'middle',
      },
      {
        edit: (r: typeof rigInfo) => {
          (r.bones[0] as { matrix_local: unknown }).matrix_local = [[1, 0, 0]];
        },
        field: 'bones[0].matrix_local',
        value: '',
      },
    ],
  },
  {
    file: 'motion.json',
    schema: MotionJson,
    valid: motionJson,
    bad: [
      { edit: (m: typeof motionJson) => void m.root_quat.pop(), field: 'root_quat', value: '' },
      { edit: (m: typeof motionJson) => void (m.euler[1] as unknown[]).pop(), field: 'euler[1]', value: '' },
      { edit: (m: typeof motionJson) => void Object.assign(m, { fps: 0 }), field: 'fps', value: '0' },
      {
        edit: (m: typeof motionJson) =>
          void Object.assign(m, { frame_timing: { source_fps: 30, source_frames: [0] } }),
        field: 'frame_timing',
        value: '',
      },
      {
        edit: (m: typeof motionJson) => {
          Object.assign(m.sync, { warped: 'no' });
        },
        field: 'sync.warped',
        value: '"no"',
      },
    ],
  },
  {
    file: '3_meta.json',
    schema: DatasetMeta,
    valid: datasetMeta,
    bad: [
      { edit: (m: typeof datasetMeta) => void m.front_uv.pop(), field: 'front_uv', value: '' },
      {
        edit: (m: typeof datasetMeta) => {
          Object.assign(m.images, { side: 7 });
        },
        field: 'images.side',
        value: '7',
      },
    ],
  },
  {
    file: 'exam.json',
    schema: ExamReport,
    valid: examReport,
    bad: [
      {
        edit: (r: typeof examReport) => {
          Object.assign(r, { outliers: 1.5 });
        },
        field: 'outliers',
        value: '1.5',
      },
      {
        edit: (r: typeof examReport) => {
          Object.assign(r, { mode: 'guess' });
        },
        field: 'mode',
        value: '"guess"',
      },
    ],
  },
] as const;

describe('file schemas', () => {
  for (const c of cases) {
    it(`${c.file}: the valid example parses`, () => {
      expect(() => parseFileData('test', c.file, clone(c.valid), c.schema)).not.toThrow();
    });
    c.bad.forEach((b, i) => {
      it(`${c.file}: malformed example ${i + 1} names ${b.field}`, () => {
        const data = clone(c.valid);
        (b.edit as (d: unknown) => void)(data);
        let err: Error & { file?: string; field?: string } = new Error('none');
        try {
          parseFileData('test', c.file, data, c.schema);
        } catch (e) {
          err = e as Error;
        }
        expect(err.name).toBe('FileError');
        expect(err.message).toContain(`test: ${c.file}: ${b.field}`);
        expect(err.message).toContain(b.value);
        expect(err.file).toBe(c.file);
      });
    });
  }

  it('fills creature.json defaults: the wolf layout, count, flank', () => {
    const c = CreatureJson.parse({ ...clone(creatureJson), layout: undefined });
    expect(c.layout.W_FRONT).toBe(420);
    expect(c.count).toBe('one');
    expect(c.flank).toBe('right flank');
  });
});
