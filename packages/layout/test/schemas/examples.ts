// Valid examples of every file the pipeline passes, shared by the schema tests.

export const creatureJson = {
  name: 'wolf',
  noun: 'timber wolf',
  describe: 'a grey timber wolf with a bushy tail',
  colour_code: 'front legs red and blue, hind legs green and yellow',
  limbs: 'four legs and a tail',
  prep: { length_m: 1.3, rotz_deg: 90, axis: 'y' },
  layout: { W_FRONT: 420, W_SIDE: 860 },
  paint: [
    { name: 'front.L', colour: [220, 40, 40], bones: ['upperarm.L', 'forearm.L'] },
    { name: 'front.R', colour: [40, 80, 220], bones: ['upperarm.R', 'forearm.R'] },
  ],
  feet: ['fpaw.L', 'fpaw.R'],
  camera: { location: [2, -3, 1.2], target: [0, 0, 0.5] },
  mirror: { 'upperarm.L': 'upperarm.R' },
};

export const rigJson = {
  joints: { hips: [0, 0.3, 0.8], chest: [0, -0.3, 0.85], head: [0, -0.6, 0.9], paw: [0.1, -0.3, 0] },
  bones: [
    ['spine', 'hips', 'chest', null],
    ['neck', 'chest', 'head', 'spine'],
    ['leg.L', 'chest', 'paw', 'spine'],
  ],
  roll_deg: { neck: 5 },
  limits_deg: {
    neck: [
      [-30, 30],
      [-10, 10],
      [-20, 20],
    ],
    leg: [
      [-60, 60],
      [-5, 5],
      [-10, 10],
    ],
  },
};

const I = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
const L = [
  [-45, 45],
  [-45, 45],
  [-45, 45],
];

export const rigInfo = {
  root: 'spine',
  bones: [
    {
      name: 'spine',
      parent: null,
      head: [0, 0, 0.8],
      tail: [0, -0.6, 0.8],
      roll: 0,
      length: 0.6,
      matrix_local: I,
      limits_deg: L,
    },
    {
      name: 'neck',
      parent: 'spine',
      head: [0, -0.6, 0.8],
      tail: [0, -0.8, 0.9],
      roll: 0,
      length: 0.22,
      matrix_local: I,
      limits_deg: L,
    },
  ],
  keypoints: [
    { name: 'hips', bone: 'spine', end: 'head' },
    { name: 'head', bone: 'neck', end: 'tail' },
  ],
};

export const motionJson = {
  fps: 30,
  bones: ['spine', 'neck'],
  names: ['hips', 'head'],
  trans: [
    [0, 0, 0],
    [0, -0.01, 0],
  ],
  root_quat: [
    [1, 0, 0, 0],
    [1, 0, 0, 0],
  ],
  euler: [
    [
      [0, 0, 0],
      [0.1, 0, 0],
    ],
    [
      [0, 0, 0],
      [0.2, 0, 0],
    ],
  ],
  joints: [
    [
      [0, 0, 0.8],
      [0, -0.8, 0.9],
    ],
    [
      [0, -0.01, 0.8],
      [0, -0.81, 0.92],
    ],
  ],
  reproj_px: { mean: 1.2, front: 1.1, side: 1.3, per_frame: [1.2, 1.2] },
  sync: {
    paw_agreement: 0.95,
    height_gap_px: 1.5,
    lag_frames: 0,
    warped: false,
    height_gap_after_px: 1.5,
    swaps_fixed: { front: 0, side: 1 },
  },
};

export const datasetMeta = {
  index: 3,
  seed: 42,
  names: ['hips', 'head'],
  joints_m: [
    [0, 0, 0.8],
    [0, -0.8, 0.9],
  ],
  front_uv: [
    [210, 337],
    [210, 299],
  ],
  side_uv: [
    [850, 337],
    [1153, 299],
  ],
  pose: { euler: { neck: [0.1, 0, 0] }, trans: [0, 0, 0], root_quat: [1, 0, 0, 0] },
  images: { front: '3_front.png', side: '3_side.png' },
};

const stats = { mean: 0.3, median: 0.25, p95: 0.7, max: 1.4 };
export const examReport = {
  creature: 'wolf',
  mode: 'synthetic',
  frames: 120,
  seed: 1,
  noise_px: 2,
  outliers: 0.05,
  swaps: 0,
  error_cm: stats,
  per_group: { 'front.L': stats },
  per_joint: { hips: stats },
  fit_seconds: 0.2,
};
