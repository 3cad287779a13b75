import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';
import {
  atomicWriteJson,
  type DatasetMeta,
  DEFAULT_LAYOUT,
  type Layout,
  worldToFront,
  worldToSide,
} from '@mocap/layout';
import { fillCircle, splitFrame, studioBackdrop, writePng } from '@mocap/media';

/** Options of {@link writeBlobDataset}. */
export interface BlobDatasetOptions {
  /** Number of samples. */
  samples: number;
  /** @default 0 */
  seed?: number;
  /** @default DEFAULT_LAYOUT */
  layout?: Layout;
  /** Blob radius in layout px. @default 40 */
  radius?: number;
}

/** The blob dataset's joints and their colours. */
export const BLOB_JOINTS = [
  { name: 'head', colour: [200, 40, 40] },
  { name: 'tail', colour: [40, 170, 60] },
  { name: 'lfoot', colour: [40, 60, 200] },
  { name: 'rfoot', colour: [220, 200, 40] },
] as const;

/**
 * Writes a synthetic dataset in the render_dataset layout (`<i>_front.png`, `<i>_side.png`,
 * `<i>_meta.json` valid against DatasetMeta): one coloured disc per joint at a random world
 * point, drawn on the studio backdrop in both views. For tests and benchmarks of training without
 * Blender.
 *
 * ```ts
 * await writeBlobDataset('/tmp/blobs', { samples: 24, seed: 1 });
 * ```
 */
export async function writeBlobDataset(dir: string, options: BlobDatasetOptions): Promise<void> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const radius = options.radius ?? 40;
  const seed = options.seed ?? 0;
  const rng = seededRandom(seed);
  const span = (layout.HEIGHT * layout.M_PER_PX) / 2;
  for (let i = 0; i < options.samples; i++) {
    const frame = studioBackdrop(layout);
    const joints = BLOB_JOINTS.map(
      () =>
        [
          rng.uniform(-0.35, 0.35) * ((layout.W_FRONT * layout.M_PER_PX) / 1.1),
          rng.uniform(-0.4, 0.4) * ((layout.W_SIDE * layout.M_PER_PX) / 1.1),
          rng.uniform(0.15, 1.75) * (span / 0.95),
        ] as [number, number, number],
    );
    const front = joints.map((p) => worldToFront(p, layout));
    const side = joints.map((p) => worldToSide(p, layout));
    BLOB_JOINTS.forEach((j, k) => {
      fillCircle(frame, front[k]![0], front[k]![1], radius, [...j.colour]);
      fillCircle(frame, side[k]![0], side[k]![1], radius, [...j.colour]);
    });
    const views = splitFrame(frame, layout);
    const images = { front: `${i}_front.png`, side: `${i}_side.png` };
    await writePng(path.join(dir, images.front), views.front);
    await writePng(path.join(dir, images.side), views.side);
    const meta: DatasetMeta = {
      index: i,
      seed,
      names: BLOB_JOINTS.map((j) => j.name),
      joints_m: joints,
      front_uv: front,
      side_uv: side,
      pose: { euler: {}, trans: [0, 0, 0], root_quat: [1, 0, 0, 0] },
      images,
    };
    await atomicWriteJson(path.join(dir, `${i}_meta.json`), meta);
  }
}
