import { fit } from '@mocap/solver';
import { bench, describe } from 'vitest';
import { wolf, wolfDetections } from './wolf-setup.js';

const { model, layout, info } = wolf;
const d120 = wolfDetections(120);
const d480 = wolfDetections(480);

describe('fit the wolf (2 px noise, 5% outliers)', () => {
  bench(
    'T = 120',
    () => {
      fit(model, d120, { layout, creature: info });
    },
    // Two warm-up fits: under load the compiler is still busy during the second fit of a process.
    { iterations: 5, warmupIterations: 2 },
  );
  bench(
    'T = 480',
    () => {
      fit(model, d480, { layout, creature: info });
    },
    // Warmed up like T = 120, so the ratio compares compiled code with compiled code.
    { iterations: 3, warmupIterations: 2 },
  );
});
