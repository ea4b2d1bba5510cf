// Parses many SKILL.md heads, using worker threads (all cores) when the batch is big enough to pay for them.
// Small batches and single-core machines parse in the calling thread; results keep the input order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseSkillFile, type ParsedSkill } from './manifest.js';

/** Below this many files a worker's start-up costs more than it saves. */
export const PARALLEL_MIN_FILES = 400;

export interface ParsedBatch {
  results: ParsedSkill[];
  threads: number;
}

function parseInline(files: string[]): ParsedSkill[] {
  return files.map((f) => parseSkillFile(f, { folderName: null }));
}

function workerUrl(): { url: URL; execArgv: string[] } {
  const ts = import.meta.url.endsWith('.ts');
  const url = new URL(ts ? './parse-worker.ts' : './parse-worker.js', import.meta.url);
  // Under tsx (no build step) the worker needs the TypeScript loader too.
  const execArgv = ts ? ['--import', import.meta.resolve('tsx')] : [];
  return { url, execArgv };
}

function runWorker(files: string[]): Promise<ParsedSkill[]> {
  const { url, execArgv } = workerUrl();
  return new Promise((resolve, reject) => {
    const w = new Worker(url, { workerData: { files }, execArgv });
    w.once('message', (m: ParsedSkill[]) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => {
      if (code !== 0) reject(new Error(`parse worker exited with code ${code}`));
    });
  });
}

/**
 * Parse `files` (real paths) into manifests. `threads` caps the threads used (default: every core); the calling
 * thread takes a share too. A worker that fails is retried inline, so a result always comes back for every file.
 */
export async function parseFilesParallel(files: string[], threads?: number): Promise<ParsedBatch> {
  const n = Math.max(1, Math.min(threads ?? availableParallelism(), Math.floor(files.length / (PARALLEL_MIN_FILES / 2)) || 1));
  if (n <= 1 || files.length < PARALLEL_MIN_FILES) return { results: parseInline(files), threads: 1 };
  // Worker start-up (loading the parser) takes a while: give the calling thread a larger share.
  const workers = n - 1;
  const mainShare = Math.ceil(files.length / (n + 0.5) * 1.5);
  const mine = files.slice(0, mainShare);
  const rest = files.slice(mainShare);
  const per = Math.ceil(rest.length / workers);
  const slices = Array.from({ length: workers }, (_, i) => rest.slice(i * per, (i + 1) * per));
  const pending = slices.map((s) => runWorker(s).catch(() => parseInline(s)));
  const own = parseInline(mine);
  const others = await Promise.all(pending);
  return { results: [...own, ...others.flat()], threads: n };
}
