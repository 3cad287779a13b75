import { Vec3 } from '@mocap/layout';
import { z } from 'zod';

/** One proposed joint: where, how sure, and from what it was placed. */
export const ProposedJoint = z.object({
  position: Vec3,
  /** 0..1: falls with left/right disagreement and with distance outside the mesh's profile. */
  confidence: z.number().min(0).max(1),
  /** leg (a leg's centre line), leg-root (shoulder, hip), body (torso profile) or chain (neck, head, tail path). */
  source: z.enum(['leg', 'leg-root', 'body', 'chain']),
});
/** One proposed joint. */
export type ProposedJoint = z.infer<typeof ProposedJoint>;

/**
 * `runs/propose/proposal.json`: what `mocap rig --propose` found beside rig.proposed.json: each
 * joint's confidence, the regions no bone explains, and the measurements the fit used.
 */
export const ProposalJson = z.object({
  /** The template's name (its joint names are the proposal's). */
  template: z.string(),
  /** The prepped mesh read. */
  mesh: z.string(),
  joints: z.record(z.string(), ProposedJoint),
  unassigned: z.array(
    z.object({
      name: z.string(),
      centroid: Vec3,
      min: Vec3,
      max: Vec3,
      share: z.number(),
      attach: z.string(),
    }),
  ),
  measured: z.object({
    length: z.number(),
    height: z.number(),
    /** Where each leg meets the body, metres above the ground. */
    legTops: z.record(z.string(), z.number()),
    /** Metres per voxel. */
    cell: z.number(),
  }),
});
/** A validated proposal.json. */
export type ProposalJson = z.infer<typeof ProposalJson>;
