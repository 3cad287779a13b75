import { pipelineSuite } from './helpers/pipeline-suite.js';

pipelineSuite('wolf', { length: 1.72 });
