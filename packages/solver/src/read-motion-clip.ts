import path from 'node:path';
import { readBvhClip } from './read-bvh-clip.js';
import { readGltfClip } from './read-gltf-clip.js';
import type { SkeletonClip } from './skeleton-clip.js';

/**
 * The clip a motion argument names: `file.glb#Animation` or `file.gltf#Animation` (the name may
 * be left out when the file has one animation; an index works too) or `file.bvh`. Throws a
 * `TypeError` for any other file type.
 *
 * ```ts
 * const clip = await readMotionClip('creatures/fox-rigged/model.glb#Walk');
 * ```
 */
export async function readMotionClip(spec: string, op = 'motion'): Promise<SkeletonClip> {
  const hash = spec.lastIndexOf('#');
  const file = hash >= 0 ? spec.slice(0, hash) : spec;
  const name = hash >= 0 ? spec.slice(hash + 1) : undefined;
  const ext = path.extname(file).toLowerCase();
  if (ext === '.glb' || ext === '.gltf') return readGltfClip(file, name || undefined, op);
  if (ext === '.bvh') {
    if (name)
      throw new TypeError(
        `${op}: Expected a BVH file without #<animation> (it holds one motion), got "${spec}".`,
      );
    return readBvhClip(file, op);
  }
  throw new TypeError(
    `${op}: Expected <file>.glb#<animation>, <file>.gltf#<animation> or <file>.bvh, got "${spec}".`,
  );
}
