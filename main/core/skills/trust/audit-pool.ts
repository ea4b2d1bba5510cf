// Audits skill folders on worker threads (one per core), so opening a big folder never waits on the audit: the
// calling thread stays free to answer; reports come back in groups. Idle workers do not keep Node alive.
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerSpec, type WorkerSpec } from '../../base/index.js';
import type { AuditReport } from './audit.js';
import type { ParsedManifest } from '../format/index.js';
import type { ParsedSkill } from '../format/index.js';

interface Job {
  id: number;
  dir: string;
  parsed?: ParsedManifest;
  owner?: object;
  resolve: (r: AuditResult) => void;
  reject: (e: Error) => void;
  /** Workers that died while auditing it; after the first it is sent alone, so a second death is its own. */
  crashes: number;
}

/**
 * Folders sent to the workers together: every worker taking part gets the whole list and a share to start with, and
 * claims folders one at a time in `claims` (shared memory: 0 free, a worker's mark while it audits one, minus its mark
 * once done, REVOKED when this thread took it back), its share first, then the others' from their ends. No worker
 * waits on this thread for its next folders, and none sits idle while another still has folders it has not started.
 */
interface Round {
  id: number;
  claims: Int32Array;
  /** Jobs by cell; undefined once answered, taken back or sent round again. */
  jobs: (Job | undefined)[];
  /** Workers taking part that have not said they are done. */
  slots: Set<Slot>;
}
/** A cell this thread took back from a round (never a worker's mark or minus one). */
const REVOKED = -0x7fffffff;

/** A folder's report and the fingerprint of the files it read (see auditFolder). */
export interface AuditResult {
  report: AuditReport;
  fingerprint: string;
}
interface Slot {
  worker: Worker;
  /** Folders whose SKILL.md this worker parsed (parse()): it audits them from that parse unless another runs dry first. */
  own: Job[];
  /** Parse requests sent and not yet answered. */
  parses: Map<number, (r: ParsedSkill[] | undefined) => void>;
  /** Rounds this worker takes part in and has not finished. */
  rounds: Set<Round>;
  /** Its mark in rounds' claims (unique in the pool's life). */
  mark: number;
  ready: Promise<void>;
  /** Resolves `ready` (when the worker has loaded, or ended). */
  settle: () => void;
  /** The worker has loaded (it said ready, or answered). */
  started: boolean;
  /** Why it failed, when it did ('error' comes before 'exit'). */
  error?: Error;
  /** Ends a worker that holds work and has said nothing for too long (see watch()). */
  watchdog?: ReturnType<typeof setTimeout>;
}

/** One folder to audit: `parsed`, the manifest discovery read from it (else the worker's own parse of it, if any). */
export interface AuditJob {
  id: number;
  dir: string;
  parsed?: ParsedManifest;
}
/**
 * What a worker is sent: a round of folders (see Round), the share [from, to) it starts with, and its mark. It posts
 * back groups of reports (`i`: the folder's cell) and says `done` with the last group, when it can claim no more.
 */
export interface AuditRound {
  round: number;
  jobs: AuditJob[];
  claims: Int32Array;
  mark: number;
  from: number;
  to: number;
}
export interface AuditRoundResult {
  round: number;
  results: { i: number; report?: AuditReport; fingerprint?: string; error?: string }[];
  done?: true;
}
/**
 * SKILL.md files a worker parses for the catalog (parseFoundSkill, as the catalog does), answered in one message. The worker
 * keeps each file's manifest for the audit of its folder that follows: one read and one parse of SKILL.md per folder.
 */
export interface ParseRequest {
  parse: number;
  files: string[];
}
export interface ParseResult {
  parsed: number;
  results: ParsedSkill[];
}
/** What a worker posts once it has loaded. */
export interface AuditWorkerReady {
  ready: true;
}

/**
 * A folder whose audit killed a worker twice (the second time audited alone): it is not audited again this way, and
 * the caller must hold the skill (fail closed: auditing it in its own thread could take that thread down too).
 */
export class AuditCrashError extends Error {
  readonly crashed = true;
}

/** Folders remembered as parsed by a worker and not audited yet (a catalog whose verdicts were all stored, say). */
const AFFINITY_MAX = 50_000;
/** Workers that die before they load, one after another, before the waiting jobs are failed (the caller falls back). */
const START_FAILURES = 3;
/** See AuditPoolOptions.silenceMs. */
const SILENCE_MS = 60_000;

export interface AuditPoolStats {
  /** Folders audited by the pool. */
  audited: number;
  /** Bytes read by those audits. */
  bytes: number;
  threads: number;
}

export interface AuditPoolOptions {
  /** The worker entry (tests give one that crashes on purpose): a sibling module of `from`, as workerSpec takes it. */
  entry?: { from: string; name: string };
  /**
   * How long a worker holding work may go without answering before it is ended as hung (default 60 s: far above any
   * folder within the audit's size limits; a worker still loading gets at least the default). The folder it was on
   * then goes round again alone, as after a crash, so a folder that hangs the auditor twice is refused rather than left
   * checking forever.
   */
  silenceMs?: number;
}

export class AuditPool {
  private readonly queue: Job[] = [];
  private slots: Slot[] = [];
  private spec: WorkerSpec | undefined;
  private loading: Promise<void> | undefined;
  private nextId = 1;
  private closed = false;
  /** warm() was called: a dead worker is replaced at once, so the pool stays warm for the next folder. */
  private keepFull = false;
  private startFailures = 0;
  private nextRound = 1;
  private nextMark = 1;
  /** A dispatch is queued for the end of this turn (the audits asked for in one go travel together). */
  private dispatching = false;
  /** The worker that parsed each folder's SKILL.md (parse()), until the folder's audit is asked for. */
  private readonly affinity = new Map<string, Slot>();
  readonly stats: AuditPoolStats = { audited: 0, bytes: 0, threads: 0 };
  /** Workers started over the pool's life (replacements included). */
  started = 0;

  /** `threads`: workers to run (default: every core, at most 4). */
  constructor(
    private readonly threads = Math.max(1, Math.min(availableParallelism(), 4)),
    private readonly options: AuditPoolOptions = {},
  ) {}

  /**
   * Audit a folder on a worker. Rejects only when the workers fail: an AuditCrashError when this folder's audit killed
   * a worker twice, another error when no worker could start (a bad skill gives findings, not errors).
   * `parsed`: the manifest discovery read from it (see AuditOptions.parsed). `owner`: who asked (see cancel).
   */
  audit(dir: string, parsed?: ParsedManifest, owner?: object): Promise<AuditResult> {
    if (this.closed) return Promise.reject(new Error('the audit pool is closed'));
    return new Promise<AuditResult>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        dir,
        ...(parsed ? { parsed } : {}),
        ...(owner ? { owner } : {}),
        resolve,
        reject,
        crashes: 0,
      };
      // The worker that parsed its SKILL.md (parse()) audits it, unless handed a manifest anyway.
      const slot = parsed ? undefined : this.affinity.get(dir);
      this.affinity.delete(dir);
      if (slot && this.slots.includes(slot)) slot.own.push(job);
      else this.queue.push(job);
      this.pumpSoon();
    });
  }

  /** Drop the jobs `owner` asked for that no worker has started (they are rejected); the ones started finish. */
  cancel(owner: object): void {
    const cancelled = new Error('the audit was cancelled');
    for (const q of [this.queue, ...this.slots.map((s) => s.own)]) {
      for (let i = q.length - 1; i >= 0; i--) {
        const job = q[i]!;
        if (job.owner !== owner) continue;
        q.splice(i, 1);
        job.reject(cancelled);
      }
    }
    for (const round of this.rounds()) {
      round.jobs.forEach((job, i) => {
        if (job?.owner !== owner || !this.revoke(round, i)) return;
        job.reject(cancelled);
      });
    }
  }

  /** Every round some worker has not finished. */
  private rounds(): Set<Round> {
    const all = new Set<Round>();
    for (const s of this.slots) for (const r of s.rounds) all.add(r);
    return all;
  }

  /** Take a folder no worker has claimed back from its round (true when it was still free). */
  private revoke(round: Round, i: number): boolean {
    if (!round.jobs[i] || Atomics.compareExchange(round.claims, i, 0, REVOKED) !== 0) return false;
    round.jobs[i] = undefined;
    return true;
  }

  /**
   * Parse SKILL.md files (real paths) on the workers, an even share each, in input order: what the catalog would get
   * from parseFilesParallel. Each worker then audits the folders whose SKILL.md it parsed from that parse (audit()
   * routes them to it): the file is read and parsed once, off the calling thread. Rejects when a worker fails
   * meanwhile (the caller parses them itself).
   */
  parse(files: readonly string[]): Promise<ParsedSkill[]> {
    if (this.closed) return Promise.reject(new Error('the audit pool is closed'));
    this.keepFull = true;
    // With the worker code loaded, pump() fills the pool before it returns (keepFull): the workers take their shares
    // now, so the audits asked for next already go to the worker that parses them. Else it fills the pool once loaded,
    // unless the pool was closed meanwhile.
    if (this.spec) {
      void this.pump();
      return this.parseOn(files);
    }
    return this.pump().then(() => {
      if (this.closed) throw new Error('the audit pool was closed');
      return this.parseOn(files);
    });
  }

  private async parseOn(files: readonly string[]): Promise<ParsedSkill[]> {
    if (this.affinity.size > AFFINITY_MAX) this.affinity.clear();
    const slots = [...this.slots];
    const share = Math.ceil(files.length / slots.length);
    const parts = await Promise.all(
      slots.map((slot, k) => {
        const chunk = files.slice(k * share, (k + 1) * share);
        if (!chunk.length) return Promise.resolve([]);
        for (const f of chunk) this.affinity.set(dirname(f), slot);
        const id = this.nextId++;
        return new Promise<ParsedSkill[] | undefined>((resolve) => {
          slot.parses.set(id, resolve);
          slot.worker.ref();
          slot.worker.postMessage({ parse: id, files: chunk } satisfies ParseRequest);
          this.watch(slot);
        });
      }),
    );
    this.letIdleGo();
    if (parts.some((p) => !p)) throw new Error('an audit worker failed while parsing');
    return parts.flatMap((p) => p!);
  }

  /**
   * Start the workers now (they load the auditor while the caller does other work), so the first folders
   * do not wait for a worker's start-up. Safe to call more than once.
   */
  warm(): void {
    if (this.closed) return;
    this.keepFull = true;
    void this.pump();
  }

  /** Resolves once every worker has started (starting them if need be). */
  async ready(): Promise<void> {
    this.warm();
    await this.load();
    // Waiting on them keeps the process alive until they are ready; then idle ones are let go again.
    for (const s of this.slots) s.worker.ref();
    await Promise.all(this.slots.map((s) => s.ready));
    this.letIdleGo();
  }

  /** Jobs waiting or running. */
  get pending(): number {
    let n = this.queue.length + this.slots.reduce((m, s) => m + s.own.length, 0);
    for (const r of this.rounds()) for (const j of r.jobs) if (j) n++;
    return n;
  }

  /** Workers running now. */
  get workers(): number {
    return this.slots.length;
  }

  /** Workers that have loaded: ready to take work at once. */
  get loaded(): number {
    return this.slots.filter((s) => s.started).length;
  }

  private load(): Promise<void> {
    const { from, name } = this.options.entry ?? { from: import.meta.url, name: 'audit-worker' };
    this.loading ??= workerSpec(from, name).then((ws) => void (this.spec = ws));
    return this.loading;
  }

  private spawn(ws: WorkerSpec): void {
    const worker = 'code' in ws ? new Worker(ws.code, { eval: true }) : new Worker(ws.url, { execArgv: ws.execArgv });
    let settle!: () => void;
    const ready = new Promise<void>((resolve) => (settle = resolve));
    const slot: Slot = {
      worker,
      own: [],
      parses: new Map(),
      rounds: new Set(),
      mark: this.nextMark++,
      started: false,
      ready,
      settle,
    };
    const loaded = (): void => {
      slot.started = true;
      this.startFailures = 0;
      settle();
    };
    // Any answer restarts the hang deadline; it is armed again after the answer's bookkeeping if work is still held.
    worker.on('message', (m: AuditRoundResult | AuditWorkerReady | ParseResult) => {
      this.watch(slot, true);
      try {
        answered(m);
      } finally {
        this.watch(slot);
      }
    });
    const answered = (m: AuditRoundResult | AuditWorkerReady | ParseResult): void => {
      if ('ready' in m) return loaded();
      if (!slot.started) loaded();
      if ('parsed' in m) {
        slot.parses.get(m.parsed)?.(m.results);
        slot.parses.delete(m.parsed);
        this.letIdleGo();
        return;
      }
      const round = [...slot.rounds].find((r) => r.id === m.round);
      if (!round) return;
      for (const r of m.results) {
        const job = round.jobs[r.i];
        if (!job) continue;
        round.jobs[r.i] = undefined;
        if (r.report) {
          this.stats.audited++;
          this.stats.bytes += r.report.bytes;
          job.resolve({ report: r.report, fingerprint: r.fingerprint ?? '' });
        } else job.reject(new Error(r.error ?? 'audit failed'));
      }
      if (!m.done) return;
      slot.rounds.delete(round);
      round.slots.delete(slot);
      this.finish(round);
      this.letIdleGo();
    };
    worker.on('error', (e) => {
      slot.error = e instanceof Error ? e : new Error(String(e));
    });
    // Every way a worker ends (a crash, running out of memory, process.exit, terminate) comes here, 'error' or not.
    worker.once('exit', (code) => this.died(slot, code));
    worker.unref();
    this.started++;
    this.slots.push(slot);
    this.stats.threads = Math.max(this.stats.threads, this.slots.length);
  }

  /**
   * A worker ended. The folder it was auditing (its cell holds the worker's mark) is sent again alone, so a second
   * death is that folder's own, and then it fails (AuditCrashError); folders it audited without posting their reports
   * go round again; its unclaimed share is left to the other workers of the round, or taken back when none is left.
   * A worker that dies before it loads counts towards START_FAILURES. The pool replaces it; jobs never wait on a dead one.
   */
  private died(slot: Slot, code: number): void {
    clearTimeout(slot.watchdog);
    slot.settle();
    this.slots = this.slots.filter((s) => s !== slot);
    if (this.closed) return;
    const why = slot.error?.message ?? `exited with code ${code}`;
    for (const done of slot.parses.values()) done(undefined);
    slot.parses.clear();
    for (const [d, s] of this.affinity) if (s === slot) this.affinity.delete(d);
    this.queue.unshift(...slot.own.splice(0));
    const again: Job[] = [];
    let claimed = false;
    for (const round of slot.rounds) {
      round.slots.delete(slot);
      round.jobs.forEach((job, i) => {
        if (!job) return;
        const cell = Atomics.load(round.claims, i);
        if (cell === slot.mark) {
          claimed = true;
          round.jobs[i] = undefined;
          job.crashes++;
          if (job.crashes >= 2)
            job.reject(new AuditCrashError(`the audit worker died auditing this folder twice (${why})`));
          else again.push(job);
        } else if (cell === -slot.mark) {
          round.jobs[i] = undefined;
          again.push(job);
        }
      });
      this.finish(round, false);
    }
    slot.rounds.clear();
    if (!slot.started && !claimed) this.startFailures++;
    this.queue.unshift(...again);
    if (this.startFailures >= START_FAILURES) {
      // Give up until someone asks again (audit(), parse(), warm()): the other slots, still starting, die too, and
      // must not refill the pool (keepFull would respawn workers that cannot start, forever).
      this.startFailures = 0;
      this.keepFull = false;
      for (const job of this.queue.splice(0)) job.reject(new Error(`the audit workers cannot start (${why})`));
      return;
    }
    void this.pump();
  }

  /**
   * Keep a deadline on a worker while it holds work (batches or parses sent, not answered): armed when work is sent,
   * restarted by each answer (`heard`), dropped when it holds none. A worker silent past it is terminated, and its
   * exit is handled as a death (died()).
   */
  private watch(slot: Slot, heard = false): void {
    const holding = slot.rounds.size > 0 || slot.parses.size > 0;
    if (heard || !holding) {
      clearTimeout(slot.watchdog);
      slot.watchdog = undefined;
    }
    if (heard || slot.watchdog || !holding || !this.slots.includes(slot)) return;
    // A worker still loading (a slow start on a busy machine is not a hang) gets at least the default deadline.
    const ms = slot.started
      ? (this.options.silenceMs ?? SILENCE_MS)
      : Math.max(this.options.silenceMs ?? 0, SILENCE_MS);
    slot.watchdog = setTimeout(() => {
      slot.error = new Error(`no answer in ${Math.round(ms / 1000)} s: the worker was ended as hung`);
      void slot.worker.terminate();
    }, ms);
    slot.watchdog.unref();
  }

  /** Dispatch at the end of this turn: the audits asked for in one go (a review's loop) travel as one round. */
  private pumpSoon(): void {
    if (this.dispatching) return;
    this.dispatching = true;
    queueMicrotask(() => {
      this.dispatching = false;
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.closed) return;
    if (!this.spec) {
      await this.load();
      if (this.closed) return;
    }
    while (this.slots.length < this.threads && (this.keepFull || this.queue.length)) this.spawn(this.spec!);
    if (this.slots.length) this.dispatch();
    this.letIdleGo();
  }

  /**
   * Send every waiting folder. A folder whose worker died goes alone, to one worker (a second death is its own); the
   * rest travel as one round to every worker, each starting with the folders whose SKILL.md it parsed plus an even
   * share of the others, then claiming whatever the others have not started.
   */
  private dispatch(): void {
    const slots = this.slots;
    const alone: Job[] = [];
    const take = (q: Job[]): Job[] => {
      const keep: Job[] = [];
      for (const j of q.splice(0)) (j.crashes ? alone : keep).push(j);
      return keep;
    };
    const shares = slots.map((s) => take(s.own));
    const common = take(this.queue);
    // The common folders fill the smallest shares first, so the shares end up even.
    for (const job of common) shares.reduce((a, b) => (b.length < a.length ? b : a)).push(job);
    if (shares.some((x) => x.length)) this.send(slots, shares);
    alone.forEach((job, k) => this.send([slots[k % slots.length]!], [[job]]));
  }

  /** One round: `slots[k]` starts with `shares[k]`. */
  private send(slots: Slot[], shares: Job[][]): void {
    const jobs = shares.flat();
    const round: Round = {
      id: this.nextRound++,
      claims: new Int32Array(new SharedArrayBuffer(4 * jobs.length)),
      jobs,
      slots: new Set(slots),
    };
    const wire = jobs.map((j) => ({ id: j.id, dir: j.dir, ...(j.parsed ? { parsed: j.parsed } : {}) }));
    let from = 0;
    slots.forEach((slot, k) => {
      const to = from + shares[k]!.length;
      slot.rounds.add(round);
      slot.worker.ref();
      slot.worker.postMessage({
        round: round.id,
        jobs: wire,
        claims: round.claims,
        mark: slot.mark,
        from,
        to,
      } satisfies AuditRound);
      this.watch(slot);
      from = to;
    });
  }

  /**
   * A round's workers have all finished (or died): what none of them answered goes round again, rather than waiting
   * forever (when a worker died; after `done` it never should). While one still works, it claims what is free.
   */
  private finish(round: Round, pump = true): void {
    if (round.slots.size) return;
    round.jobs.forEach((job, i) => {
      if (!job) return;
      Atomics.store(round.claims, i, REVOKED);
      round.jobs[i] = undefined;
      this.queue.unshift(job);
    });
    if (pump && this.queue.length) void this.pump();
  }

  /** Idle workers do not hold the process open; busy ones do until their reports are back. */
  private letIdleGo(): void {
    for (const slot of this.slots) if (!slot.rounds.size && !slot.parses.size) slot.worker.unref();
  }

  /** Stop the workers; waiting jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error('the audit pool was closed'));
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      for (const job of [...s.own, ...[...s.rounds].flatMap((r) => r.jobs)])
        job?.reject(new Error('the audit pool was closed'));
      for (const r of s.rounds) r.jobs.fill(undefined);
      for (const done of s.parses.values()) done(undefined);
    }
    this.affinity.clear();
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let shared: AuditPool | undefined;

/**
 * The process's audit pool: one for the life of the process, shared by every workspace it opens. Its workers start
 * when a folder first needs audits (a start with nothing to audit starts none) and are then kept for later opens.
 */
export function sharedAuditPool(): AuditPool {
  return (shared ??= new AuditPool());
}
