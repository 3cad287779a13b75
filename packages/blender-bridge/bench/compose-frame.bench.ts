import { composeFrame } from '@mocap/blender-bridge';
import { creatureMesh } from '@mocap/blender-bridge/internal';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { PNG } from 'pngjs';
import { bench, describe } from 'vitest';

function view(w: number, h: number): Buffer {
  const p = new PNG({ width: w, height: h, colorType: 2 });
  p.data.fill(128);
  return PNG.sync.write(p, { colorType: 2 });
}

const front = view(DEFAULT_LAYOUT.W_FRONT, DEFAULT_LAYOUT.HEIGHT);
const side = view(DEFAULT_LAYOUT.W_SIDE, DEFAULT_LAYOUT.HEIGHT);

describe('bridge helpers', () => {
  bench('composeFrame 1280 x 720 (decode two views, divider, encode)', () => {
    composeFrame(front, side, DEFAULT_LAYOUT);
  });
  bench('creatureMesh wolf', () => {
    creatureMesh(
      {
        joints: Object.fromEntries(
          [
            'tailbase',
            'pelvis',
            'spine1',
            'spine2',
            'spine3',
            'withers',
            'neck',
            'skull',
            'nose',
            'jawhinge',
            'chin',
            'tail1',
            'tail2',
            'tailtip',
          ]
            .map((n, i) => [n, [0, 0.8 - i * 0.1, 0.8] as [number, number, number]])
            .concat(
              ['L', 'R'].flatMap((s) =>
                ['shoulder', 'elbow', 'fwrist', 'fpaw', 'ftoe', 'hip', 'knee', 'hock', 'hpaw', 'htoe'].map(
                  (n, i) =>
                    [`${n}.${s}`, [s === 'L' ? 0.1 : -0.1, i < 5 ? -0.3 : 0.4, 0.6 - (i % 5) * 0.15]] as [
                      string,
                      [number, number, number],
                    ],
                ),
              ),
            ),
        ),
      },
      { kind: 'wolf', lengthM: 1.72 },
    );
  });
});
