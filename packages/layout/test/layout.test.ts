import { DEFAULT_LAYOUT, Layout } from '@mocap/layout';
import { describe, expect, it } from 'vitest';

describe('Layout', () => {
  it('defaults to the wolf layout: 420 + 860 px, 1.9 m of height', () => {
    expect(DEFAULT_LAYOUT.WIDTH).toBe(1280);
    expect(DEFAULT_LAYOUT.HEIGHT).toBe(720);
    expect(DEFAULT_LAYOUT.W_FRONT).toBe(420);
    expect(DEFAULT_LAYOUT.W_SIDE).toBe(860);
    expect(DEFAULT_LAYOUT.HEIGHT * DEFAULT_LAYOUT.M_PER_PX).toBeCloseTo(1.9, 12);
    expect(DEFAULT_LAYOUT.colours.wall).toEqual([128, 130, 134]);
    expect(DEFAULT_LAYOUT.colours.floor).toEqual([152, 154, 158]);
  });

  it('rejects view widths that do not add up to the frame', () => {
    const r = Layout.safeParse({ W_FRONT: 400 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['W_SIDE']);
  });
});
