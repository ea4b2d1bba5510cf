// Parses many SKILL.md heads on every core: the calling thread and worker threads share one queue through an
// atomic counter (work stealing), so a slow-starting worker never delays the batch; small batches stay in-thread.
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerSpec } from '../../base/worker-spec.js';
import { drain } from './parse-drain.js';
import { parseFoundSkill, type ParsedSkill } from '../format/manifest.js';

/**
 * Below this many files a parse worker's start-up costs more than it saves. With the fast frontmatter reader one
 * thread parses a plain SKILL.md head in about 50 µs: 800 files take ~40 ms, less than a worker needs to start, and
 * at 10,000 files a forced second thread was 0.6–1× the speed of one on the shared 2-core machine (catalog bench).
 */
export const PARALLEL_MIN_FILES = 5000;

export interface ParsedBatch {
  results: ParsedSkill[];
  /** Threads that actually parsed something. */
  threads: number;
}

/** Cores this process can use now: all of them minus what the machine's load already takes (at least 1). */
export function idleCores(): number {
  const cores = availableParallelism();
  return Math.max(1, Math.min(cores, Math.floor(cores - (loadavg()[0] ?? 0) + 0.5)));
}

/**
 * Threads for parsing `files` new SKILL.md files: `requested` when given (capped at 8); else one thread for fewer than
 * PARALLEL_MIN_FILES files or while audit workers are starting (`auditWorkers`: the cores are theirs, and a cold
 * open's verdicts wait on them), else the idle cores.
 */
export function parseThreadsFor(files: number, requested?: number, auditWorkers = false): number {
  if (requested !== undefined) return Math.max(1, Math.min(requested, 8));
  if (auditWorkers || files < PARALLEL_MIN_FILES) return 1;
  return Math.max(1, Math.min(idleCores(), 8));
}

/**
 * Parse `files` (real paths) into manifests, in input order, on `threads` threads (default: parseThreadsFor).
 * The calling thread parses too; a worker that has not started by the time the queue is empty is told to stop
 * and not waited for. A worker that fails has its claimed files parsed again here, so every file gets a result.
 */
export async function parseFilesParallel(files: string[], threads?: number): Promise<ParsedBatch> {
  const n = parseThreadsFor(files.length, threads);
  if (n <= 1 || files.length < 2) return { results: files.map(parseFoundSkill), threads: 1 };
  const ws = await workerSpec(import.meta.url, 'parse-worker');
  // shared[0] = next file index; shared[slot] = worker state: 0 not started, 1 running, 2 closed before it started.
  const sab = new SharedArrayBuffer(4 * (1 + n));
  const shared = new Int32Array(sab);
  const workers = Array.from({ length: n - 1 }, (_, w) => {
    const workerData = { files, sab, slot: w + 1 };
    const worker =
      'code' in ws
        ? new Worker(ws.code, { eval: true, workerData })
        : new Worker(ws.url, { workerData, execArgv: ws.execArgv });
    const done = new Promise<[number, ParsedSkill][] | undefined>((resolve) => {
      worker.once('message', (m: [number, ParsedSkill][]) => resolve(m));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    });
    return { worker, slot: w + 1, done };
  });
  const results: (ParsedSkill | undefined)[] = new Array(files.length);
  for (const [i, r] of drain(files, shared)) results[i] = r;
  let used = 1;
  for (const w of workers) {
    // Close the slot if the worker never started; otherwise wait for what it claimed.
    if (Atomics.compareExchange(shared, w.slot, 0, 2) === 0) {
      void w.worker.terminate();
      continue;
    }
    const got = await w.done;
    void w.worker.terminate();
    if (got?.length) used++;
    for (const [i, r] of got ?? []) results[i] = r;
  }
  // Anything a failed worker claimed but never returned is parsed here.
  for (let i = 0; i < files.length; i++) if (!results[i]) results[i] = parseFoundSkill(files[i]!);
  return { results: results as ParsedSkill[], threads: used };
}
