import { readFile } from 'node:fs/promises';
import { type Layout, worldToSide } from '@mocap/layout';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import type { PipelineRun } from './pipeline.js';

/** Reads a PNG into {width, height, at(x, y) -> [r, g, b]}. */
export async function readPng(file: string) {
  const p = PNG.sync.read(await readFile(file));
  return {
    width: p.width,
    height: p.height,
    at(x: number, y: number): [number, number, number] {
      const i = (y * p.width + x) * 4;
      return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!];
    },
  };
}

type Img = Awaited<ReturnType<typeof readPng>>;

/** Rows and columns of creature pixels (not wall, floor or divider) within columns [x0, x1). */
function creatureExtent(img: Img, layout: Layout, x0: number, x1: number) {
  const { wall, floor, divider } = layout.colours;
  const same = (a: number[], b: number[]) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
  let top = Infinity;
  let bottom = -Infinity;
  let left = Infinity;
  let right = -Infinity;
  for (let y = 0; y < img.height; y++) {
    for (let x = x0; x < x1; x++) {
      const c = img.at(x, y);
      if (same(c, wall) || same(c, floor) || same(c, divider)) continue;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      left = Math.min(left, x);
      right = Math.max(right, x);
    }
  }
  return { top, bottom, left, right };
}

/** The ref.png acceptance: studio colours at their pixels, the ground row, rows shared by the views. */
export async function checkRef(run: PipelineRun, lengthM: number) {
  const { layout } = run.ref;
  const img = await readPng(run.ref.file);
  expect([img.width, img.height]).toEqual([layout.WIDTH, layout.HEIGHT]);
  const { wall, floor, divider } = layout.colours;
  const g = Math.ceil(layout.GROUND_V);
  for (const x of [2, layout.W_FRONT - layout.DIVIDER_PX - 1, layout.W_FRONT + 2, layout.WIDTH - 1]) {
    expect(img.at(x, 0)).toEqual(wall);
    expect(img.at(x, layout.HEIGHT - 1)).toEqual(floor);
    expect(img.at(x, g)).toEqual(floor);
    expect(img.at(x, g - 1)).toEqual(wall);
  }
  // The outermost columns hold no creature: wall down to the ground row.
  for (const x of [2, layout.WIDTH - 1]) expect(img.at(x, g - 30)).toEqual(wall);
  for (let x = layout.W_FRONT - layout.DIVIDER_PX; x < layout.W_FRONT; x++) {
    for (const y of [0, 100, g, layout.HEIGHT - 1]) expect(img.at(x, y)).toEqual(divider);
  }
  const front = creatureExtent(img, layout, 0, layout.W_FRONT - layout.DIVIDER_PX);
  const side = creatureExtent(img, layout, layout.W_FRONT, layout.WIDTH);
  // The lowest point (z = 0) sits on the ground row: its pixels end at row GROUND_V.
  expect(Math.abs(front.bottom + 1 - layout.GROUND_V)).toBeLessThanOrEqual(1);
  expect(Math.abs(side.bottom + 1 - layout.GROUND_V)).toBeLessThanOrEqual(1);
  // The highest point sits on the same row in both views.
  expect(Math.abs(front.top - side.top)).toBeLessThanOrEqual(1);
  // prep centred the model's length on y = 0: its snout and tail end land on the side view's
  // frontmost and rearmost columns.
  const [uFront] = worldToSide([0, -lengthM / 2, 0], layout);
  const [uBack] = worldToSide([0, lengthM / 2, 0], layout);
  expect(Math.abs(side.right + 1 - uFront)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(side.left - uBack)).toBeLessThanOrEqual(1.5);
  return { front, side };
}
