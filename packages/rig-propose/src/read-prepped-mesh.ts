import { NodeIO } from '@gltf-transform/core';

/** A triangle mesh in the prepped world frame (metres, -Y forward, +X left, +Z up). */
export interface PreppedMesh {
  /** Vertex positions, N x 3. */
  positions: Float64Array;
  /** Triangles, M x 3 vertex indices. */
  triangles: Uint32Array;
}

/**
 * Reads every triangle primitive of a glTF/GLB (node transforms applied) into one mesh in the
 * prepped world frame: glTF's +Y up maps to +Z up, so glTF (x, y, z) is world (x, -z, y).
 * Throws, naming the file, when it holds no triangles.
 *
 * ```ts
 * const mesh = await readPreppedMesh('creatures/fox/runs/propose/prepped.glb');
 * ```
 */
export async function readPreppedMesh(file: string): Promise<PreppedMesh> {
  let doc: Awaited<ReturnType<NodeIO['read']>>;
  try {
    doc = await new NodeIO().read(file);
  } catch (err) {
    throw new Error(`rig propose: ${file}: cannot read the mesh (${(err as Error).message}).`, {
      cause: err,
    });
  }
  const pos: number[] = [];
  const tri: number[] = [];
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const p = prim.getAttribute('POSITION');
      // 4 = TRIANGLES; points and lines carry no surface.
      if (!p || prim.getMode() !== 4) continue;
      const base = pos.length / 3;
      const v: number[] = [0, 0, 0];
      for (let i = 0; i < p.getCount(); i++) {
        p.getElement(i, v);
        const x = m[0] * v[0]! + m[4] * v[1]! + m[8] * v[2]! + m[12];
        const y = m[1] * v[0]! + m[5] * v[1]! + m[9] * v[2]! + m[13];
        const z = m[2] * v[0]! + m[6] * v[1]! + m[10] * v[2]! + m[14];
        pos.push(x, -z, y);
      }
      const idx = prim.getIndices();
      const n = idx ? idx.getCount() : p.getCount();
      for (let i = 0; i + 2 < n; i += 3) {
        for (let k = 0; k < 3; k++) tri.push(base + (idx ? idx.getScalar(i + k) : i + k));
      }
    }
  }
  if (tri.length === 0) throw new Error(`rig propose: ${file}: the mesh holds no triangles.`);
  return { positions: Float64Array.from(pos), triangles: Uint32Array.from(tri) };
}
