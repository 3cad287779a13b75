import type { Accessor, Animation, Document, Node } from '@gltf-transform/core';
import { mat4Invert } from '@mocap/anim-loop';
import { FileError } from '@mocap/layout';
import type { ClipChannel, SkeletonClip } from './skeleton-clip.js';

/** The animation `name` asks for: by name, else by index; the only one when `name` is undefined. */
function pickAnimation(op: string, file: string, doc: Document, name: string | undefined): Animation {
  const anims = doc.getRoot().listAnimations();
  const names = anims.map((a, i) => a.getName() || `${i}`);
  if (anims.length === 0) throw new FileError(`${op}: ${file}: has no animations.`, file, 'animations');
  if (name === undefined) {
    if (anims.length === 1) return anims[0] as Animation;
    throw new FileError(
      `${op}: ${file}: has ${anims.length} animations (${names.join(', ')}); name one as ${file}#<animation>.`,
      file,
      'animations',
    );
  }
  const i = names.indexOf(name);
  const found = i >= 0 ? anims[i] : /^\d+$/.test(name) ? anims[Number(name)] : undefined;
  if (!found) {
    throw new FileError(
      `${op}: ${file}: animations: no animation "${name}" (it has ${names.join(', ')}).`,
      file,
      'animations',
    );
  }
  return found;
}

/** Every element of an accessor as float64 (normalised integers denormalised, as glTF reads them). */
function readAccessor(a: Accessor): Float64Array {
  const size = a.getElementSize();
  const out = new Float64Array(a.getCount() * size);
  const el: number[] = [];
  for (let i = 0; i < a.getCount(); i++) out.set(a.getElement(i, el), i * size);
  return out;
}

/** The document's nodes, parents before children. */
function nodesInOrder(doc: Document): Node[] {
  const all = doc.getRoot().listNodes();
  const out: Node[] = [];
  const visit = (n: Node) => {
    out.push(n);
    for (const c of n.listChildren()) visit(c);
  };
  for (const n of all) if (!n.getParentNode()) visit(n);
  return out;
}

/**
 * One animation of a glTF (.glb or .gltf) as a {@link SkeletonClip}, read with
 * @gltf-transform/core: every node with its rest TRS, the animation's translation and rotation
 * channels (LINEAR, STEP, CUBICSPLINE), and each skin joint's bind pose from the inverse bind
 * matrices (other nodes: their rest world transform). `animation` is a name or an index; it may
 * be left out when the file has one animation.
 *
 * ```ts
 * const clip = await readGltfClip('Fox.glb', 'Walk');
 * ```
 */
export async function readGltfClip(file: string, animation?: string, op = 'motion'): Promise<SkeletonClip> {
  let doc: Document;
  try {
    // Loaded here, not at the top: the solver's other commands (solve, exam) start without it.
    const { NodeIO } = await import('@gltf-transform/core');
    doc = await new NodeIO().read(file);
  } catch (err) {
    throw new FileError(`${op}: ${file}: cannot read the glTF (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  const anim = pickAnimation(op, file, doc, animation);
  const nodes = nodesInOrder(doc);
  const index = new Map(nodes.map((n, i) => [n, i]));
  const n = nodes.length;
  const clip: SkeletonClip = {
    source: `${file}#${anim.getName() || animation}`,
    names: nodes.map((x, i) => x.getName() || `nodes[${i}]`),
    parent: Int32Array.from(nodes, (x) => {
      const p = x.getParentNode();
      return p ? (index.get(p) as number) : -1;
    }),
    restTranslation: new Float64Array(n * 3),
    restRotation: new Float64Array(n * 4),
    restScale: new Float64Array(n * 3),
    bind: new Float64Array(n * 16),
    channels: [],
    start: Number.POSITIVE_INFINITY,
    end: Number.NEGATIVE_INFINITY,
  };
  nodes.forEach((x, i) => {
    clip.restTranslation.set(x.getTranslation(), i * 3);
    clip.restRotation.set(x.getRotation(), i * 4);
    clip.restScale.set(x.getScale(), i * 3);
    clip.bind.set(x.getWorldMatrix(), i * 16);
  });
  const bound = new Set<number>();
  for (const skin of doc.getRoot().listSkins()) {
    const ibm = skin.getInverseBindMatrices();
    if (!ibm) continue;
    const m = readAccessor(ibm);
    skin.listJoints().forEach((j, k) => {
      const i = index.get(j) as number;
      if (bound.has(i)) return;
      bound.add(i);
      mat4Invert(clip.bind.subarray(i * 16, i * 16 + 16), m.subarray(k * 16, k * 16 + 16));
    });
  }
  for (const ch of anim.listChannels()) {
    const target = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    const input = sampler?.getInput();
    const output = sampler?.getOutput();
    if (!target || !sampler || !input || !output || (path !== 'translation' && path !== 'rotation')) continue;
    const c: ClipChannel = {
      node: index.get(target) as number,
      path,
      interpolation: sampler.getInterpolation(),
      times: readAccessor(input),
      values: readAccessor(output),
    };
    clip.channels.push(c);
    clip.start = Math.min(clip.start, c.times[0] as number);
    clip.end = Math.max(clip.end, c.times[c.times.length - 1] as number);
  }
  if (clip.channels.length === 0) {
    throw new FileError(
      `${op}: ${clip.source}: the animation moves no node (no translation or rotation channels).`,
      file,
      'animations',
    );
  }
  return clip;
}
