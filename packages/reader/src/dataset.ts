import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DatasetMeta, DEFAULT_LAYOUT, type Layout, readJsonFile } from '@mocap/layout';
import { crop, type RgbImage, readPng } from '@mocap/media';
import { viewToInput } from './view-input.js';
import { type ViewName, type ViewTransform, viewTransform } from './view-transform.js';

/** One view of one dataset sample, ready for the reader: its input pixels and true joints. */
export interface DatasetItem {
  /** The sample's index in the dataset (its `<i>_meta.json`). */
  sample: number;
  view: ViewName;
  /** Input pixels, `inputSize`^2 x 3 bytes. */
  pixels: Uint8Array;
  /** 1 where the input shows the studio backdrop (or padding), 0 on the creature. */
  background: Uint8Array;
  /** True joints in full-frame layout px, u, v per joint. */
  uv: Float32Array;
  /** Whether each joint is visible in this view (all true when the meta does not say). */
  visible: boolean[];
  /** The view's transform to input and heatmap px. */
  transform: ViewTransform;
}

/** A loaded dataset: joint names and one item per view per sample. */
export interface Dataset {
  names: string[];
  items: DatasetItem[];
  /** Number of samples (items / 2). */
  samples: number;
}

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** The frame layout the renders follow. @default DEFAULT_LAYOUT */
  layout?: Layout;
  /** Reader input size. @default 256 */
  inputSize?: number;
  /** Reader heatmap size. @default 64 */
  heatmapSize?: number;
  /** Called after each sample loads. */
  onProgress?: (loaded: number, total: number) => void;
}

const OP = 'loadDataset';
/** Max colour distance (per channel) to count a pixel as the studio wall or floor. */
const KEY_TOLERANCE = 6;

function backgroundMask(img: RgbImage, layout: Layout): Uint8Array {
  const { wall, floor } = layout.colours;
  const out = new Uint8Array(img.width * img.height);
  const d = img.data;
  for (let i = 0; i < out.length; i++) {
    const r = d[3 * i]!;
    const g = d[3 * i + 1]!;
    const b = d[3 * i + 2]!;
    const near = (c: readonly number[]) =>
      Math.abs(r - c[0]!) <= KEY_TOLERANCE &&
      Math.abs(g - c[1]!) <= KEY_TOLERANCE &&
      Math.abs(b - c[2]!) <= KEY_TOLERANCE;
    out[i] = near(wall) || near(floor) ? 1 : 0;
  }
  return out;
}

async function loadView(
  file: string,
  view: ViewName,
  layout: Layout,
  inputSize: number,
): Promise<{ pixels: Uint8Array; background: Uint8Array }> {
  let img = await readPng(file);
  const width = view === 'front' ? layout.W_FRONT : layout.W_SIDE;
  if (img.width === layout.WIDTH && img.height === layout.HEIGHT && width !== layout.WIDTH) {
    img = crop(img, view === 'front' ? 0 : layout.W_FRONT, 0, width, layout.HEIGHT);
  }
  if (img.width !== width || img.height !== layout.HEIGHT) {
    throw new Error(
      `${OP}: ${file}: the ${view} view is ${img.width} x ${img.height}, the layout wants ${width} x ${layout.HEIGHT}.`,
    );
  }
  const pixels = viewToInput(img, inputSize, layout.colours.wall).data;
  // Backdrop where the shrunk pixel still has the wall or floor colour (area averages of pure
  // backdrop stay exact; the padding is wall).
  return {
    pixels,
    background: backgroundMask({ width: inputSize, height: inputSize, data: pixels }, layout),
  };
}

/**
 * Loads a dataset folder of `<i>_meta.json` (validated with {@link DatasetMeta}) and their view
 * PNGs (one image per view, or full frames), prepared at the reader's input size.
 *
 * ```ts
 * const ds = await loadDataset('runs/wolf/dataset', { layout });
 * ```
 */
export async function loadDataset(dir: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const inputSize = options.inputSize ?? 256;
  const heatmapSize = options.heatmapSize ?? 64;
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => /^\d+_meta\.json$/.test(f));
  } catch (err) {
    throw new Error(`${OP}: ${dir}: cannot read the dataset folder (${(err as Error).message}).`, {
      cause: err,
    });
  }
  files.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  if (files.length === 0) throw new Error(`${OP}: ${dir}: no <i>_meta.json samples.`);
  const items: DatasetItem[] = [];
  let names: string[] | undefined;
  for (const [k, f] of files.entries()) {
    const file = path.join(dir, f);
    const meta = await readJsonFile(OP, file, DatasetMeta);
    if (!names) names = meta.names;
    else if (meta.names.join() !== names.join()) {
      throw new Error(
        `${OP}: ${file}: names differ from the first sample's (${JSON.stringify(meta.names)}).`,
      );
    }
    for (const view of ['front', 'side'] as const) {
      const { pixels, background } = await loadView(
        path.join(dir, meta.images[view]),
        view,
        layout,
        inputSize,
      );
      const uv = new Float32Array((view === 'front' ? meta.front_uv : meta.side_uv).flat());
      const visible = meta.visible?.[view] ?? names.map(() => true);
      const transform = viewTransform(layout, view, inputSize, heatmapSize);
      items.push({ sample: meta.index, view, pixels, background, uv, visible, transform });
    }
    options.onProgress?.(k + 1, files.length);
  }
  return { names: names!, items, samples: files.length };
}
