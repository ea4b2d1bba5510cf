// Audits skill folders on worker threads (one per core), so opening a big folder never waits on the audit: the
// calling thread stays free to answer; reports come back in small batches. Idle workers do not keep Node alive.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerSpec } from '../../base/worker-spec.js';
import type { AuditReport } from './audit.js';
import type { ParsedManifest } from '../format/types.js';

interface Job { id: number; dir: string; parsed?: ParsedManifest; owner?: object; resolve: (r: AuditResult) => void; reject: (e: Error) => void }

/** A folder's report and the fingerprint of the files it read (see auditFolder). */
export interface AuditResult { report: AuditReport; fingerprint: string }
interface Slot { worker: Worker; jobs: Map<number, Job>; batches: number; ready: Promise<void> }

/** What a worker is sent (a batch of folders) and posts back (their reports, in one message). */
export interface AuditBatch { jobs: { id: number; dir: string; parsed?: ParsedManifest }[] }
export interface AuditBatchResult { results: { id: number; report?: AuditReport; fingerprint?: string; error?: string }[] }
/** What a worker posts once it has loaded and warmed up. */
export interface AuditWorkerReady { ready: true }

/**
 * Folders per message and batches sent to a worker before its first batch is back: a worker never waits on the
 * opening thread (busy answering) for its next folders, and the opening thread handles one message (one store
 * transaction, one review of the arrived skills) per batch rather than per folder. Small, so a crashed worker fails
 * few jobs, the workers stay balanced and verdicts still arrive steadily.
 */
const BATCH = 8;
const IN_FLIGHT = 2;

export interface AuditPoolStats {
  /** Folders audited by the pool. */
  audited: number;
  /** Bytes read by those audits. */
  bytes: number;
  threads: number;
}

export class AuditPool {
  private readonly queue: Job[] = [];
  private slots: Slot[] = [];
  private starting: Promise<void> | undefined;
  private nextId = 1;
  private closed = false;
  readonly stats: AuditPoolStats = { audited: 0, bytes: 0, threads: 0 };

  /**
   * `threads`: workers to run (default: every core, at most 4). `warmRounds`: each worker first reads a built-in
   * sample skill this many times (audit-warm.ts), so its first real folders run optimised code.
   */
  constructor(private readonly threads = Math.max(1, Math.min(availableParallelism(), 4)), private readonly warmRounds = 0) {}

  /**
   * Audit a folder on a worker. Rejects only when the worker itself fails (a bad skill gives findings, not errors).
   * `parsed`: the manifest discovery read from it (see AuditOptions.parsed). `owner`: who asked (see cancel).
   */
  audit(dir: string, parsed?: ParsedManifest, owner?: object): Promise<AuditResult> {
    if (this.closed) return Promise.reject(new Error('the audit pool is closed'));
    return new Promise<AuditResult>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, dir, ...(parsed ? { parsed } : {}), ...(owner ? { owner } : {}), resolve, reject });
      void this.pump();
    });
  }

  /** Drop the waiting jobs `owner` asked for (they are rejected); batches already on a worker finish. */
  cancel(owner: object): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.owner !== owner) continue;
      this.queue.splice(i, 1);
      job.reject(new Error('the audit was cancelled'));
    }
  }

  /**
   * Start the workers now (they load the auditor and build its tables while the caller does other work), so the
   * first folders do not wait for a worker's start-up. Safe to call more than once.
   */
  warm(): void {
    if (this.closed || this.slots.length) return;
    this.starting ??= this.start();
    void this.starting.then(() => {
      // Started early and nothing to do yet: they must not keep the process alive.
      for (const s of this.slots) if (!s.jobs.size) s.worker.unref();
    });
  }

  /** Resolves once every worker has started and warmed up (starting them if need be). */
  async ready(): Promise<void> {
    this.warm();
    await this.starting;
    // Waiting on them keeps the process alive until they are ready; then idle ones are let go again.
    for (const s of this.slots) s.worker.ref();
    await Promise.all(this.slots.map((s) => s.ready));
    for (const s of this.slots) if (!s.jobs.size) s.worker.unref();
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.queue.length + this.slots.reduce((n, s) => n + s.jobs.size, 0);
  }

  private async start(): Promise<void> {
    const ws = await workerSpec(import.meta.url, 'audit-worker');
    if (this.closed) return;
    for (let i = 0; i < this.threads; i++) {
      const workerData = { warm: this.warmRounds };
      const worker = 'code' in ws ? new Worker(ws.code, { eval: true, workerData }) : new Worker(ws.url, { execArgv: ws.execArgv, workerData });
      let started!: () => void;
      const slot: Slot = { worker, jobs: new Map(), batches: 0, ready: new Promise<void>((resolve) => (started = resolve)) };
      worker.once('exit', () => started());
      worker.on('message', (m: AuditBatchResult | AuditWorkerReady) => {
        if ('ready' in m) return started();
        slot.batches--;
        for (const r of m.results) {
          const job = slot.jobs.get(r.id);
          slot.jobs.delete(r.id);
          if (!job) continue;
          if (r.report) {
            this.stats.audited++;
            this.stats.bytes += r.report.bytes;
            job.resolve({ report: r.report, fingerprint: r.fingerprint ?? '' });
          } else job.reject(new Error(r.error ?? 'audit failed'));
        }
        void this.pump();
      });
      worker.on('error', (e) => {
        // A crashed worker fails its jobs (the caller falls back) and is replaced on the next pump.
        for (const job of slot.jobs.values()) job.reject(e instanceof Error ? e : new Error(String(e)));
        slot.jobs.clear();
        this.slots = this.slots.filter((s) => s !== slot);
        if (!this.slots.length) this.starting = undefined;
        void this.pump();
      });
      worker.unref();
      this.slots.push(slot);
    }
    this.stats.threads = this.slots.length;
  }

  private async pump(): Promise<void> {
    if (!this.slots.length) {
      this.starting ??= this.start();
      await this.starting;
    }
    // Round by round, so every worker gets a batch before any gets its next; a batch is never more than an even
    // share of what is waiting, so the last folders are not all on one worker.
    for (let round = 0; round < IN_FLIGHT && this.queue.length; round++) {
      for (const slot of this.slots) {
        if (slot.batches > round || !this.queue.length) continue;
        const size = Math.max(1, Math.min(BATCH, Math.ceil(this.queue.length / this.slots.length)));
        const jobs = this.queue.splice(0, size);
        for (const job of jobs) slot.jobs.set(job.id, job);
        slot.batches++;
        slot.worker.ref();
        slot.worker.postMessage({ jobs: jobs.map((j) => ({ id: j.id, dir: j.dir, ...(j.parsed ? { parsed: j.parsed } : {}) })) } satisfies AuditBatch);
      }
    }
    // Idle workers do not hold the process open; busy ones do until their reports are back.
    for (const slot of this.slots) if (!slot.jobs.size) slot.worker.unref();
  }

  /** Stop the workers; waiting jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('the audit pool was closed'));
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) for (const job of s.jobs.values()) job.reject(new Error('the audit pool was closed'));
    await this.starting?.catch(() => undefined);
    await Promise.all([...slots, ...this.slots].map((s) => s.worker.terminate()));
  }
}

/**
 * Sample reads a worker of the process's pool warms up with, in small steps while it has nothing to do (a batch that
 * arrives stops it): about 20–50 ms of each worker's time, once. (150 rounds made no measurable difference to the
 * first open after launch.)
 */
export const WARM_ROUNDS = 20;

let shared: AuditPool | undefined;

/**
 * The process's audit pool: one for the life of the process, shared by every workspace it opens, so opening a folder
 * finds its workers started and warm. The desktop host and the CLI start it when they start (startAuditPool).
 */
export function sharedAuditPool(): AuditPool {
  return (shared ??= new AuditPool(undefined, WARM_ROUNDS));
}

/** Start the process's audit pool now (at launch, before any folder is opened): its workers load and warm up. */
export function startAuditPool(): AuditPool {
  const pool = sharedAuditPool();
  pool.warm();
  return pool;
}
