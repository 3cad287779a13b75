// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { drawProposal } from './draw-proposal.js';
export { fitTemplate } from './fit-template.js';
export { LEGS, legTracks } from './leg-tracks.js';
export { CELLS_PER_LENGTH, meshFeatures } from './mesh-features.js';
export { preppedGlb, preppedGlbPath } from './prepped-glb.js';
export { ProposalJson, ProposedJoint } from './proposal-json.js';
export { proposalPaths } from './propose-rig.js';
export { quadrupedTemplate } from './quadruped-template.js';
export { readPreppedMesh } from './read-prepped-mesh.js';
export { unassignedRegions } from './unassigned-regions.js';
export { voxelizeSurface } from './voxel-grid.js';
