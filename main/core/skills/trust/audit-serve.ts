// The audit worker's side of the pool's protocol (audit-pool.ts): answers parse requests, and works through audit
// rounds by claiming folders in a shared array, its own share first, then what the other workers have not started.
import { parentPort } from 'node:worker_threads';
import type {
  AuditJob,
  AuditRound,
  AuditRoundResult,
  AuditWorkerReady,
  ParseRequest,
  ParseResult,
} from './audit-pool.js';

/** What one folder's audit gives: its report and fingerprint, or why it failed (a bad skill gives findings, not this). */
export type JobOutcome = Omit<AuditRoundResult['results'][number], 'i'>;

export interface AuditService {
  parse(files: string[]): ParseResult['results'];
  /** Audit one folder. An exception thrown here ends the thread (the pool handles it as a crash). */
  audit(job: AuditJob): JobOutcome;
}

/** Results are posted in groups: at least this many, or all those done for this long (ms), and when the round ends. */
const POST_EVERY = 24;
const POST_MS = 8;

/** Serve the pool on this thread's parent port. */
export function serveAuditPool(service: AuditService): void {
  parentPort?.on('message', (m: AuditRound | ParseRequest) => {
    if ('parse' in m) {
      parentPort!.postMessage({ parsed: m.parse, results: service.parse(m.files) } satisfies ParseResult);
      return;
    }
    runRound(m, service, (msg) => parentPort!.postMessage(msg));
  });
}

/** Tell the pool this worker has loaded. */
export function sayReady(): void {
  parentPort?.postMessage({ ready: true } satisfies AuditWorkerReady);
}

/**
 * Audit the round's folders this worker claims: its own share [from, to) in order, then the rest from the end (where
 * the other workers, working forward through theirs, reach last). A folder is claimed by swapping its cell from 0 to
 * this worker's mark, so each is audited once whichever worker is faster; the cell is set to -mark once it is done,
 * so the pool knows, if this thread dies, which folder it was auditing.
 */
function runRound(m: AuditRound, service: AuditService, send: (msg: AuditRoundResult) => void): void {
  const { claims, mark, jobs } = m;
  let out: AuditRoundResult['results'] = [];
  let since = performance.now();
  const post = (done: boolean): void => {
    send({ round: m.round, results: out, ...(done ? { done } : {}) } satisfies AuditRoundResult);
    out = [];
    since = performance.now();
  };
  const take = (i: number, stolen: boolean): void => {
    if (Atomics.compareExchange(claims, i, 0, mark) !== 0) return;
    // A folder taken from another's share comes at the end of the round, where each verdict is awaited: what this
    // worker has finished goes out first, so a slow folder here holds back no report but its own.
    if (stolen && out.length) post(false);
    const outcome = service.audit(jobs[i]!);
    Atomics.store(claims, i, -mark);
    out.push({ i, ...outcome });
    if (out.length >= POST_EVERY || performance.now() - since >= POST_MS) post(false);
  };
  for (let i = m.from; i < m.to; i++) take(i, false);
  for (let i = jobs.length - 1; i >= 0; i--) if (i < m.from || i >= m.to) take(i, true);
  post(true);
}
