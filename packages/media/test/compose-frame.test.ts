import { DEFAULT_LAYOUT, Layout } from '@mocap/layout';
import { composeFrame, createImage, floorRow, getPixel, splitFrame, studioBackdrop } from '@mocap/media';
import { viewRect } from '@mocap/media/internal';
import { describe, expect, it } from 'vitest';

const WALL = [128, 130, 134];
const FLOOR = [152, 154, 158];
const DIVIDER = DEFAULT_LAYOUT.colours.divider;

describe('studioBackdrop', () => {
  it('puts the exact studio colours at their pixels in the default layout', () => {
    const bg = studioBackdrop(DEFAULT_LAYOUT);
    expect([bg.width, bg.height]).toEqual([1280, 720]);
    expect(getPixel(bg, 0, 0)).toEqual(WALL);
    expect(getPixel(bg, 10, 639)).toEqual(WALL);
    expect(getPixel(bg, 10, 640)).toEqual(FLOOR);
    expect(getPixel(bg, 1279, 719)).toEqual(FLOOR);
    expect(getPixel(bg, 1000, 639)).toEqual(WALL);
    expect(getPixel(bg, 1000, 640)).toEqual(FLOOR);
    // The divider: the front view's last two columns, every row.
    expect(getPixel(bg, 417, 100)).toEqual(WALL);
    expect(getPixel(bg, 418, 100)).toEqual(DIVIDER);
    expect(getPixel(bg, 419, 700)).toEqual(DIVIDER);
    expect(getPixel(bg, 420, 100)).toEqual(WALL);
    // Nothing but the three colours anywhere.
    const counts = new Map<string, number>();
    for (let i = 0; i < bg.data.length; i += 3) {
      const k = `${bg.data[i]},${bg.data[i + 1]},${bg.data[i + 2]}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(counts.get(WALL.join(','))).toBe((1280 - 2) * 640);
    expect(counts.get(FLOOR.join(','))).toBe((1280 - 2) * 80);
    expect(counts.get(DIVIDER.join(','))).toBe(2 * 720);
  });

  it('follows a creature layout: fractional ground row, other widths and colours', () => {
    const layout = Layout.parse({
      WIDTH: 640,
      HEIGHT: 360,
      W_FRONT: 240,
      W_SIDE: 400,
      GROUND_V: 300.5,
      DIVIDER_PX: 3,
      colours: { wall: [10, 20, 30], floor: [40, 50, 60], divider: [0, 0, 0] },
    });
    expect(floorRow(layout)).toBe(301);
    const bg = studioBackdrop(layout);
    expect([bg.width, bg.height]).toEqual([640, 360]);
    expect(getPixel(bg, 500, 300)).toEqual([10, 20, 30]);
    expect(getPixel(bg, 500, 301)).toEqual([40, 50, 60]);
    expect(getPixel(bg, 236, 5)).toEqual([10, 20, 30]);
    expect(getPixel(bg, 237, 5)).toEqual([0, 0, 0]);
    expect(getPixel(bg, 240, 5)).toEqual([10, 20, 30]);
    expect(viewRect('side', layout)).toEqual({ x: 240, y: 0, width: 400, height: 360 });
  });
});

describe('composeFrame and splitFrame', () => {
  it('places the views left and right with the divider, and splits them back', () => {
    const front = createImage(420, 720, [200, 0, 0]);
    const side = createImage(860, 720, [0, 200, 0]);
    const frame = composeFrame(front, side, DEFAULT_LAYOUT);
    expect(getPixel(frame, 0, 0)).toEqual([200, 0, 0]);
    expect(getPixel(frame, 417, 719)).toEqual([200, 0, 0]);
    expect(getPixel(frame, 418, 0)).toEqual(DIVIDER);
    expect(getPixel(frame, 420, 0)).toEqual([0, 200, 0]);
    expect(getPixel(frame, 1279, 719)).toEqual([0, 200, 0]);
    const views = splitFrame(frame, DEFAULT_LAYOUT);
    expect(Buffer.from(views.side.data).equals(Buffer.from(side.data))).toBe(true);
    expect(getPixel(views.front, 100, 100)).toEqual([200, 0, 0]);
    // The backdrop survives a split + compose unchanged.
    const bg = studioBackdrop();
    const again = composeFrame(splitFrame(bg).front, splitFrame(bg).side);
    expect(Buffer.from(again.data).equals(Buffer.from(bg.data))).toBe(true);
  });

  it('names a view of the wrong size', () => {
    expect(() => composeFrame(createImage(400, 720), createImage(860, 720))).toThrow(
      "composeFrame: front view: expected 420 x 720 (the layout's view size), got 400 x 720.",
    );
    expect(() => splitFrame(createImage(1920, 1080))).toThrow(
      "splitFrame: frame: expected 1280 x 720 (the layout's frame), got 1920 x 1080.",
    );
  });
});
