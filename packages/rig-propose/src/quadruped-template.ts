import { fileURLToPath } from 'node:url';
import { RigJson, readJsonFile } from '@mocap/layout';
import type { RigTemplate } from './fit-template.js';
import { meshFeatures } from './mesh-features.js';
import { readPreppedMesh } from './read-prepped-mesh.js';

const RIG = fileURLToPath(new URL('../template/wolf-rig.json', import.meta.url));
const MESH = fileURLToPath(new URL('../template/wolf-prepped.glb', import.meta.url));

/**
 * The default template: the wolf's rig.json and its prepped mesh (shipped in `template/`),
 * measured the same way as the mesh it is fitted to. Pass another rig and prepped GLB to fit
 * a different template (its joint names become the proposal's).
 *
 * ```ts
 * const template = await quadrupedTemplate();
 * Object.keys(template.rig.joints).length; // 34
 * ```
 */
export async function quadrupedTemplate(
  rigFile: string = RIG,
  meshFile: string = MESH,
): Promise<RigTemplate> {
  const rig = await readJsonFile('rig propose template', rigFile, RigJson);
  let features: RigTemplate['features'];
  try {
    features = meshFeatures(await readPreppedMesh(meshFile));
  } catch (err) {
    throw new Error(`rig propose template: ${meshFile}: ${(err as Error).message}.`, { cause: err });
  }
  return { rig, features };
}
