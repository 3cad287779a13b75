import { describe, expect, it } from 'vitest';
import { renderFeed } from '../src/render-feed.js';

const render = (frame: number, view: string) => ({
  script: 'apply_motion.py',
  stage: 'render',
  done: 0,
  total: 0,
  frame,
  view,
});

describe('renderFeed: apply renders handed on frame by frame', () => {
  it('yields frame t once every view of it is reported, in order, while later ones still render', async () => {
    const feed = renderFeed(['front', 'side']);
    const read: number[] = [];
    const got: number[] = [];
    const consume = (async () => {
      for await (const t of feed.frames(3, async (t) => {
        read.push(t);
        return t;
      }))
        got.push(t);
    })();
    feed.report(render(1, 'front'));
    feed.report(render(1, 'side'));
    feed.report(render(0, 'front'));
    await new Promise((r) => setTimeout(r, 10));
    expect(read).toEqual([]); // frame 0 lacks its side view
    feed.report({ script: 'apply_motion.py', stage: 'export', done: 0, total: 0, format: 'glb' });
    feed.report(render(0, 'side'));
    await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual([0, 1]);
    feed.end(); // apply ended: the rest is in place
    await consume;
    expect(got).toEqual([0, 1, 2]);
  });

  it('a failed apply fails the waiting consumer with its error', async () => {
    const feed = renderFeed(['showcase']);
    const consume = (async () => {
      for await (const _ of feed.frames(2, async (t) => t));
    })();
    feed.report(render(0, 'showcase'));
    const boom = new Error('blender: apply_motion.py was cancelled.');
    feed.fail(boom);
    await expect(consume).rejects.toBe(boom);
  });
});
