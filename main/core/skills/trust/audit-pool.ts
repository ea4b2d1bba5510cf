// Audits skill folders on worker threads (one per core), so opening a big folder never waits on the audit: the
// calling thread stays free to answer; reports come back as each folder is done. Idle workers do not keep Node alive.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerSpec } from '../../base/worker-spec.js';
import type { AuditReport } from './audit.js';
import type { ParsedManifest } from '../format/types.js';

interface Job { id: number; dir: string; parsed?: ParsedManifest; resolve: (r: AuditReport) => void; reject: (e: Error) => void }
interface Slot { worker: Worker; job?: Job }

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

  /** `threads`: workers to run (default: every core, at most 4). */
  constructor(private readonly threads = Math.max(1, Math.min(availableParallelism(), 4))) {}

  /**
   * Audit a folder on a worker. Rejects only when the worker itself fails (a bad skill gives findings, not errors).
   * `parsed`: the manifest discovery read from it (see AuditOptions.parsed).
   */
  audit(dir: string, parsed?: ParsedManifest): Promise<AuditReport> {
    if (this.closed) return Promise.reject(new Error('the audit pool is closed'));
    return new Promise<AuditReport>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, dir, ...(parsed ? { parsed } : {}), resolve, reject });
      void this.pump();
    });
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  private async start(): Promise<void> {
    const ws = await workerSpec(import.meta.url, 'audit-worker');
    if (this.closed) return;
    for (let i = 0; i < this.threads; i++) {
      const worker = 'code' in ws ? new Worker(ws.code, { eval: true }) : new Worker(ws.url, { execArgv: ws.execArgv });
      const slot: Slot = { worker };
      worker.on('message', (m: { id: number; report?: AuditReport; error?: string }) => {
        const job = slot.job;
        slot.job = undefined;
        if (job && job.id === m.id) {
          if (m.report) {
            this.stats.audited++;
            this.stats.bytes += m.report.bytes;
            job.resolve(m.report);
          } else job.reject(new Error(m.error ?? 'audit failed'));
        }
        void this.pump();
      });
      worker.on('error', (e) => {
        // A crashed worker fails its job (the caller falls back) and is replaced on the next pump.
        slot.job?.reject(e instanceof Error ? e : new Error(String(e)));
        slot.job = undefined;
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
    for (const slot of this.slots) {
      if (slot.job || !this.queue.length) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, dir: job.dir, ...(job.parsed ? { parsed: job.parsed } : {}) });
    }
    // Idle workers do not hold the process open; busy ones do until their report is back.
    for (const slot of this.slots) if (!slot.job) slot.worker.unref();
  }

  /** Stop the workers; waiting jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('the audit pool was closed'));
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) s.job?.reject(new Error('the audit pool was closed'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
