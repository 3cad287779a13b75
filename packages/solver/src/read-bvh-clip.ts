import { readFile } from 'node:fs/promises';
import { FileError } from '@mocap/layout';
import type { ClipChannel, SkeletonClip } from './skeleton-clip.js';

const CHANNELS = ['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation'] as const;

interface BvhNode {
  name: string;
  parent: number;
  offset: [number, number, number];
  channels: string[];
}

/** Reads whitespace-separated tokens, naming the file and the token number in errors. */
class Tokens {
  private i = 0;
  constructor(
    private readonly words: string[],
    private readonly op: string,
    private readonly file: string,
  ) {}
  fail(message: string): never {
    throw new FileError(`${this.op}: ${this.file}: ${message} (token ${this.i}).`, this.file, 'HIERARCHY');
  }
  peek(): string | undefined {
    return this.words[this.i];
  }
  next(what: string): string {
    const w = this.words[this.i++];
    if (w === undefined) this.fail(`expected ${what}, got the end of the file`);
    return w;
  }
  expect(word: string): void {
    const w = this.next(`"${word}"`);
    if (w !== word) this.fail(`expected "${word}", got "${w}"`);
  }
  number(what: string): number {
    const w = this.next(what);
    const x = Number(w);
    if (!Number.isFinite(x)) this.fail(`${what}: expected a number, got "${w}"`);
    return x;
  }
}

/** One ROOT or JOINT block (its keyword already read), children and End Sites included. */
function readJoint(tk: Tokens, nodes: BvhNode[], parent: number): void {
  const name = tk.next('a joint name');
  const me = nodes.length;
  const node: BvhNode = { name, parent, offset: [0, 0, 0], channels: [] };
  nodes.push(node);
  tk.expect('{');
  for (;;) {
    const w = tk.next('OFFSET, CHANNELS, JOINT, End or }');
    if (w === '}') return;
    if (w === 'OFFSET') node.offset = [tk.number('OFFSET x'), tk.number('OFFSET y'), tk.number('OFFSET z')];
    else if (w === 'CHANNELS') {
      const n = tk.number('the channel count');
      for (let i = 0; i < n; i++) {
        const c = tk.next('a channel name');
        if (!(CHANNELS as readonly string[]).includes(c))
          tk.fail(`joint "${name}": unknown channel "${c}" (expected ${CHANNELS.join(', ')})`);
        node.channels.push(c);
      }
    } else if (w === 'JOINT') readJoint(tk, nodes, me);
    else if (w === 'End') {
      // An End Site only marks where the last bone ends; no rig bone is named after it.
      tk.expect('Site');
      tk.expect('{');
      tk.expect('OFFSET');
      for (let i = 0; i < 3; i++) tk.number('End Site OFFSET');
      tk.expect('}');
    } else tk.fail(`joint "${name}": unexpected "${w}"`);
  }
}

/** XYZW quaternion product `out = a * b` (out may alias a). */
function quatMul(out: number[], a: readonly number[], b: readonly number[]): void {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * A BVH motion (its text; `file` names it in errors) as a {@link SkeletonClip}: the joints with
 * their OFFSETs as the rest pose (and bind pose), one LINEAR rotation channel per joint with
 * rotation channels (degrees, composed in the order the file lists them: `Zrotation Xrotation
 * Yrotation` is `Rz * Rx * Ry`) and a translation channel per joint with position channels
 * (which replace its OFFSET, as Blender's importer reads them), keyed every `Frame Time`.
 *
 * ```ts
 * const clip = parseBvhClip(await readFile('walk.bvh', 'utf8'), 'walk.bvh');
 * ```
 */
export function parseBvhClip(text: string, file: string, op = 'motion'): SkeletonClip {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const tk = new Tokens(words, op, file);
  tk.expect('HIERARCHY');
  const nodes: BvhNode[] = [];
  while (tk.peek() === 'ROOT') {
    tk.next('ROOT');
    readJoint(tk, nodes, -1);
  }
  if (nodes.length === 0) tk.fail('expected ROOT');
  tk.expect('MOTION');
  tk.expect('Frames:');
  const frames = tk.number('Frames');
  tk.expect('Frame');
  tk.expect('Time:');
  const dt = tk.number('Frame Time');
  if (!Number.isInteger(frames) || frames < 1 || !(dt > 0)) {
    throw new FileError(
      `${op}: ${file}: MOTION: expected Frames >= 1 and Frame Time > 0, got ${frames} and ${dt}.`,
      file,
      'MOTION',
    );
  }
  const width = nodes.reduce((s, n) => s + n.channels.length, 0);
  const data = new Float64Array(frames * width);
  for (let i = 0; i < data.length; i++) data[i] = tk.number(`MOTION frame ${Math.floor(i / width)} value`);
  const n = nodes.length;
  const times = Float64Array.from({ length: frames }, (_, f) => f * dt);
  const clip: SkeletonClip = {
    source: file,
    names: nodes.map((x) => x.name),
    parent: Int32Array.from(nodes, (x) => x.parent),
    restTranslation: Float64Array.from(nodes.flatMap((x) => x.offset)),
    restRotation: new Float64Array(n * 4),
    restScale: new Float64Array(n * 3).fill(1),
    bind: new Float64Array(n * 16),
    channels: [],
    start: 0,
    end: (frames - 1) * dt,
  };
  let col = 0;
  const q = [0, 0, 0, 1];
  const axis = [0, 0, 0, 1];
  nodes.forEach((node, i) => {
    clip.restRotation[i * 4 + 3] = 1;
    const p = node.parent;
    // Bind (= rest) world: identity rotations, so a translation by the summed offsets.
    clip.bind.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], i * 16);
    for (let c = 0; c < 3; c++)
      clip.bind[i * 16 + 12 + c] = node.offset[c] + (p >= 0 ? (clip.bind[p * 16 + 12 + c] as number) : 0);
    const rot = node.channels.some((c) => c.endsWith('rotation'));
    const pos = node.channels.some((c) => c.endsWith('position'));
    const r: ClipChannel = {
      node: i,
      path: 'rotation',
      interpolation: 'LINEAR',
      times,
      values: new Float64Array(frames * 4),
    };
    const t: ClipChannel = {
      node: i,
      path: 'translation',
      interpolation: 'LINEAR',
      times,
      values: new Float64Array(frames * 3),
    };
    for (let f = 0; f < frames; f++) {
      q[0] = 0;
      q[1] = 0;
      q[2] = 0;
      q[3] = 1;
      t.values.set(node.offset, f * 3);
      node.channels.forEach((c, k) => {
        const v = data[f * width + col + k] as number;
        const a = 'XYZ'.indexOf(c[0] as string);
        if (c.endsWith('position')) t.values[f * 3 + a] = v;
        else {
          const h = (v * Math.PI) / 360;
          axis.fill(0);
          axis[a] = Math.sin(h);
          axis[3] = Math.cos(h);
          quatMul(q, q, axis);
        }
      });
      // Keep consecutive keys on one hemisphere so LINEAR (slerp) takes the short way.
      const o = (f - 1) * 4;
      const flip = f > 0 && q.reduce((s, x, c) => s + x * (r.values[o + c] as number), 0) < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) r.values[f * 4 + c] = flip * (q[c] as number);
    }
    col += node.channels.length;
    if (rot) clip.channels.push(r);
    if (pos) clip.channels.push(t);
  });
  return clip;
}

/** {@link parseBvhClip} of a file. */
export async function readBvhClip(file: string, op = 'motion'): Promise<SkeletonClip> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new FileError(`${op}: ${file}: cannot read the BVH (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  return parseBvhClip(text, file, op);
}
