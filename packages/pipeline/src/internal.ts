// Internals of this package for its own tests, benches and sibling tools; not a stable API.
// What a user calls is in the "." entry (src/index.ts).
export { REFINED_FIT } from './capture-clip.js';
export { degradedExams } from './degraded-exam.js';
export { describeDegrade } from './degraded-summary.js';
export { requireReader } from './require-reader.js';
export { requireRigged } from './require-rigged.js';
