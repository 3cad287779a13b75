// Worker-thread entry of startPeakWorker: runs readPeaks on workerData and posts what it reports.
import { parentPort, workerData } from 'node:worker_threads';
import { type ReadPeaksOptions, readPeaks } from './read-peaks.js';

const port = parentPort;
if (port) {
  readPeaks(
    workerData as ReadPeaksOptions,
    (c) => port.postMessage({ type: 'calib', ...c }),
    (b) => port.postMessage({ type: 'batch', batch: b }),
  ).then(
    (r) => port.postMessage({ type: 'done', ...r }),
    (err: Error) =>
      port.postMessage({ type: 'error', name: err.name, message: err.message, stack: err.stack }),
  );
}
