// Worker-thread entry of detectSegments: runs detectSegment on workerData and posts what it reports.
import { parentPort, workerData } from 'node:worker_threads';
import { detectSegment, type SegmentJob } from './detect-segment.js';

const port = parentPort;
if (port) {
  detectSegment(workerData as SegmentJob, (done) => port.postMessage({ type: 'frame', done })).then(
    (result) => {
      const buffers = [...Object.values(result.heatmaps), ...Object.values(result.refined)].map(
        (a) => a.buffer as ArrayBuffer,
      );
      port.postMessage({ type: 'done', result }, buffers);
    },
    (err: Error) => port.postMessage({ type: 'error', message: err.message, stack: err.stack }),
  );
}
