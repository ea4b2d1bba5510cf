// Worker-thread entry for parse-pool: claims chunks from the shared queue and posts [index, result] pairs back.
// Runs the same parser as the main thread (frontmatter.ts + manifest.ts): one parser, never two.
import { parentPort, workerData } from 'node:worker_threads';
import { drain } from './parse-drain.js';

const { files, sab, slot } = workerData as { files: string[]; sab: SharedArrayBuffer; slot: number };
const shared = new Int32Array(sab);
// Start only if the calling thread has not closed our slot (it finished the queue before we were ready).
if (Atomics.compareExchange(shared, slot, 0, 1) === 0) parentPort?.postMessage(drain(files, shared));
else parentPort?.postMessage([]);
