import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BlenderRunOptions } from '@mocap/blender-bridge';
import { atomicWriteJson, creaturePaths, RigJson, resolveCreature } from '@mocap/layout';
import { writePng } from '@mocap/media';
import { drawProposal } from './draw-proposal.js';
import { fitTemplate, type RigTemplate } from './fit-template.js';
import { type MeshFeatures, meshFeatures } from './mesh-features.js';
import { preppedGlb } from './prepped-glb.js';
import { ProposalJson } from './proposal-json.js';
import { quadrupedTemplate } from './quadruped-template.js';
import { readPreppedMesh } from './read-prepped-mesh.js';
import { unassignedRegions } from './unassigned-regions.js';

/** Options of {@link proposeRig}. */
export interface ProposeRigOptions extends BlenderRunOptions {
  /** The creature's folder (creature.json, model.glb; prep already run). */
  creature: string;
  /** Where the stages write. @default `<creature>/runs` */
  runs?: string | undefined;
  /** Propose even when the creature has a rig.json (which is still never overwritten). @default false */
  force?: boolean | undefined;
  /** The template to fit. @default {@link quadrupedTemplate}() (the wolf) */
  template?: RigTemplate | undefined;
}

/** What {@link proposeRig} wrote and found. */
export interface ProposeRigResult {
  /** `runs/propose/rig.proposed.json`: a rig.json, the template's names and bones. */
  rigFile: string;
  /** `runs/propose/proposal.json`: confidences, unassigned regions, measurements. */
  proposalFile: string;
  /** `runs/propose/proposal.png`: the two-view picture for review. */
  pictureFile: string;
  rig: RigJson;
  proposal: ProposalJson;
}

/** The files of a proposal under `<runs>/propose/`. */
export function proposalPaths(creature: string, runs?: string) {
  const dir = creaturePaths(creature, runs ?? path.join(creature, 'runs')).propose;
  return {
    dir,
    rig: path.join(dir, 'rig.proposed.json'),
    proposal: path.join(dir, 'proposal.json'),
    picture: path.join(dir, 'proposal.png'),
  };
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/**
 * `mocap rig --propose`: fits the quadruped template into the creature's prepped mesh and
 * writes `rig.proposed.json` (a rig.json to review, then accept with {@link acceptProposal}),
 * `proposal.json` (each joint's confidence, the mesh regions no bone explains: wings, horns, a
 * second tail) and `proposal.png` (front and side views with the joints), each atomically.
 * Refuses, naming the file, a creature without model.glb or prep's output, a mesh whose legs do
 * not reach the ground, and a creature with a rig.json unless `force`.
 *
 * ```ts
 * const r = await proposeRig({ creature: 'creatures/fox', force: true });
 * r.proposal.unassigned; // []
 * ```
 */
export async function proposeRig(opts: ProposeRigOptions): Promise<ProposeRigResult> {
  const paths = creaturePaths(opts.creature, opts.runs ?? path.join(opts.creature, 'runs'));
  if (!existsSync(paths.model)) {
    throw new Error(`rig propose: ${paths.model}: no mesh; the creature needs a model.glb.`);
  }
  if (existsSync(paths.rigJson) && !opts.force) {
    throw new Error(
      `rig propose: ${paths.rigJson}: the creature already has a rig.json; pass --force to propose one beside it (rig.json is not overwritten).`,
    );
  }
  const glb = await preppedGlb(opts.creature, { ...opts, runs: paths.runs });
  const mesh = await readPreppedMesh(glb);
  let features: MeshFeatures;
  try {
    features = meshFeatures(mesh);
  } catch (err) {
    throw new Error(`rig propose: ${glb}: no legs reaching the ground: ${(err as Error).message}.`, {
      cause: err,
    });
  }
  const template = opts.template ?? (await quadrupedTemplate());
  const fit = fitTemplate(template, features);
  const regions = unassignedRegions(features, fit.joints, template.rig.bones);
  const rig = RigJson.parse({
    joints: Object.fromEntries(Object.entries(fit.joints).map(([k, p]) => [k, p.map(round)])),
    bones: template.rig.bones,
    roll_deg: template.rig.roll_deg,
    limits_deg: template.rig.limits_deg,
  });
  const proposal = ProposalJson.parse({
    template: 'wolf',
    mesh: glb,
    joints: Object.fromEntries(
      Object.keys(rig.joints).map((k) => [
        k,
        { position: rig.joints[k], confidence: round(fit.confidence[k] ?? 0), source: fit.source[k] },
      ]),
    ),
    unassigned: regions.map((r) => ({
      ...r,
      centroid: r.centroid.map(round),
      min: r.min.map(round),
      max: r.max.map(round),
      share: round(r.share),
    })),
    measured: {
      length: round(features.length),
      height: round(features.height),
      legTops: Object.fromEntries(features.legs.map((l) => [l.leg, round(l.top)])),
      cell: round(features.grid.size),
    },
  });
  const { layout } = await resolveCreature({ creature: opts.creature });
  const out = proposalPaths(opts.creature, paths.runs);
  const picture = drawProposal(layout, {
    mesh,
    joints: rig.joints,
    confidence: fit.confidence,
    bones: rig.bones,
    regions,
  });
  // The rig the user acts on is written last, so a failed picture leaves no fresh proposal behind.
  await writePng(out.picture, picture);
  await atomicWriteJson(out.proposal, proposal);
  await atomicWriteJson(out.rig, rig);
  return { rigFile: out.rig, proposalFile: out.proposal, pictureFile: out.picture, rig, proposal };
}
