import { cullsBackFaces } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { FOX_LAYOUT, readFox } from './fox-fixture.js';

describe('cullsBackFaces', () => {
  it('is true for the closed, glTF-wound Fox and false once its triangles are wound the other way or a sheet is left', async () => {
    const fox = await readFox();
    expect(cullsBackFaces(fox, FOX_LAYOUT)).toBe(true);
    const flipped = Uint32Array.from(fox.indices);
    for (let t = 0; t < flipped.length; t += 3)
      [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2], flipped[t + 1]];
    expect(cullsBackFaces({ ...fox, indices: flipped }, FOX_LAYOUT)).toBe(false);
    // half the triangles gone: the views look into the open body
    expect(
      cullsBackFaces(
        { ...fox, indices: fox.indices.slice(0, 3 * Math.floor(fox.indices.length / 6)) },
        FOX_LAYOUT,
      ),
    ).toBe(false);
  });
});
