import { pipelineSuite } from './helpers/pipeline-suite.js';

// Two Blender processes share the wolf's dataset (samples 0, 2, 4, ... and 1, 3, 5, ...).
pipelineSuite('wolf', { length: 1.72, processes: 2 });
