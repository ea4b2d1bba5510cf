// The background audits behind a review pass: which folders still need an audit, auditing them a slice at a time in
// this thread (a small batch at once), storing the reports and telling the catalog in bursts. What a report means for
// a skill (its verdict) is trust.ts's.
import { basename } from 'node:path';
import type { AcceptedPermissions, Store } from '../../store/index.js';
import { parsedManifestOf, type CatalogEntry, type ParsedManifest } from '../format/index.js';
import { auditFolder, type AuditReport, type FileStamp } from './audit.js';
import { storeAudit, storeAudits, storedReview } from './audit-cache.js';

/** Verdicts that arrive while others are still being audited are stored and told at most this often (ms). */
const FLUSH_MS = 30;

/** Below this many folders to audit, a review pass audits them at once (the catalog answers with their verdicts). */
export const BACKGROUND_MIN_AUDITS = 24;

/** A background slice audits folders for at most this long (ms), then yields to the event loop. */
const SLICE_MS = 15;

/** A folder's report and the fingerprint of the files it read (auditFolder). */
export type AuditResult = ReturnType<typeof auditFolder>;

/** Audits one folder in the background (TrustReviewOptions.background.audit). */
export type BackgroundAudit = (dir: string, parsed: ParsedManifest | undefined) => Promise<AuditResult>;

/**
 * The default background auditor: folders audited in this thread in slices of SLICE_MS, each slice on its own turn of
 * the event loop, so the catalog answers and the window stays live meanwhile. `stopped`: drop what is still queued.
 */
function slicedAudit(stopped: () => boolean): BackgroundAudit {
  let queue: { dir: string; parsed?: ParsedManifest; done: (r: AuditResult | Error) => void }[] = [];
  let next = 0;
  let scheduled = false;
  const slice = (): void => {
    scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (next < queue.length && !stopped() && performance.now() < until) {
      const j = queue[next++]!;
      try {
        j.done(auditFolder(j.dir, j.parsed ? { parsed: j.parsed } : {}));
      } catch (e) {
        j.done(e as Error);
      }
    }
    if (next >= queue.length || stopped()) {
      queue = [];
      next = 0;
    } else {
      scheduled = true;
      setImmediate(slice);
    }
  };
  return (dir, parsed) =>
    new Promise((resolve, reject) => {
      queue.push({ dir, ...(parsed ? { parsed } : {}), done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      if (!scheduled) {
        scheduled = true;
        setImmediate(slice);
      }
    });
}

/**
 * The stamp of an entry's SKILL.md as the catalog stat'ed it in the build this review pass follows, as the kept tree
 * names it (relative to the real folder): the tree check takes it instead of a stat of its own.
 */
function skillFileStamp(e: CatalogEntry): FileStamp | undefined {
  if (e.ctimeMs === undefined) return undefined;
  return [basename(e.file), e.size, e.mtimeMs, e.ctimeMs];
}

/** The background audits of one review hook (createTrustReview), and the reports they made this session. */
export class AuditQueue {
  /** Reports audited this session (fresh, not yet in the store when there is none), by real folder. */
  readonly fresh = new Map<string, AuditReport>();
  /**
   * The accepted permissions (null: none) read with a stored report in the last prepare, by real folder, until the
   * review of that folder takes them (takeAccepted): read once, in the lookup that found the report.
   */
  private readonly accepted = new Map<string, AcceptedPermissions | null>();
  /**
   * What the background audits came to so far (`audited`, `bytes`), and how many folders review passes looked at
   * again (`checked`: the stored report's tree checked, or the folder audited) or kept as the last pass left them
   * (`kept`: a targeted pass, PrepareOptions.unchanged).
   */
  readonly stats = { audited: 0, bytes: 0, checked: 0, kept: 0 };
  /**
   * The stamp of each folder's SKILL.md as the catalog's entry gave it when the folder was last looked at: a targeted
   * pass keeps a folder only while its entry shows the same one (the catalog's own stat vouches for that file).
   */
  private readonly looked = new Map<string, string>();
  /** Folders being audited in the background now. */
  private readonly inFlight = new Set<string>();
  private readonly listeners: ((dirs: ReadonlySet<string>) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private stopped = false;
  private readonly audit: BackgroundAudit;
  /** Folders whose verdicts arrived since the catalog was last told, and the fresh reports still to store. */
  private arrivedDirs = new Set<string>();
  private toStore: ({ dir: string } & AuditResult)[] = [];

  constructor(
    private readonly store: Store | undefined,
    private readonly minBatch: number,
    audit?: BackgroundAudit,
  ) {
    this.audit = audit || slicedAudit(() => this.stopped);
  }

  /** Closed: nothing is audited, stored or told any more. */
  get closed(): boolean {
    return this.stopped;
  }

  /** Audits waiting or running. */
  get checking(): number {
    return this.inFlight.size;
  }

  /** Whether a folder's audit is waiting or running. */
  auditing(dir: string): boolean {
    return this.inFlight.has(dir);
  }

  /**
   * The accepted permissions read with a folder's stored report by the last prepare (null: none), or undefined when
   * they were not (the caller reads them). Once only: a later review reads them again, after any write since.
   */
  takeAccepted(dir: string): AcceptedPermissions | null | undefined {
    const a = this.accepted.get(dir);
    this.accepted.delete(dir);
    return a;
  }

  /** The catalog's listener for arriving verdicts, given the real folders they are about. */
  onVerdicts(listener: (dirs: ReadonlySet<string>) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Before a review pass, with every entry: finds the folders whose stored report is missing or stale, audits a small
   * batch at once and sends a large one to the background. `unchanged`: a folder it vouches for (no file event touched
   * it since the last pass, and its watch never lapsed) keeps the report of the last pass without a look at the disk,
   * when that pass looked at it with the SKILL.md the entry shows now; any other folder is looked at as always.
   */
  prepare(entries: CatalogEntry[], unchanged?: (dir: string) => boolean): void {
    const { store, fresh, looked, stats } = this;
    const misses: { dir: string; parsed: ParsedManifest }[] = [];
    const seen = new Set<string>();
    this.accepted.clear();
    for (const e of entries) {
      if (e.tier === 'builtin' || this.inFlight.has(e.realDir) || seen.has(e.realDir)) continue;
      seen.add(e.realDir);
      // Without a store, a folder audited this session is done; with one, its stored report when the files are unchanged.
      if (!store && fresh.has(e.realDir)) continue;
      const stamp = `${e.file}\0${e.size}\0${e.mtimeMs}\0${e.ctimeMs}`;
      if (unchanged && fresh.has(e.realDir) && looked.get(e.realDir) === stamp && unchanged(e.realDir)) {
        stats.kept++;
        continue;
      }
      stats.checked++;
      looked.set(e.realDir, stamp);
      let stored: ReturnType<typeof storedReview>;
      try {
        stored = store ? storedReview(e.realDir, store, skillFileStamp(e)) : undefined;
      } catch {
        // An unreadable folder is judged (refused) by the in-thread review, never by the report of an earlier pass.
        fresh.delete(e.realDir);
        looked.delete(e.realDir);
        continue;
      }
      if (stored) {
        fresh.set(e.realDir, stored.report);
        this.accepted.set(e.realDir, stored.accepted);
      } else misses.push({ dir: e.realDir, parsed: parsedManifestOf(e.manifest) });
    }
    if (misses.length < this.minBatch) {
      for (const m of misses) {
        try {
          const result = auditFolder(m.dir, { parsed: m.parsed });
          if (store) storeAudit(m.dir, result, store);
          fresh.set(m.dir, result.report);
        } catch {
          // left to the in-thread review, which reports it
          fresh.delete(m.dir);
          looked.delete(m.dir);
        }
      }
      return;
    }
    this.send(misses);
  }

  /** Stop: reports that arrived and are not stored yet are kept (the next open finds them); nobody is told any more. */
  close(): void {
    if (this.store && this.toStore.length) {
      try {
        storeAudits(this.toStore, this.store);
      } catch {
        // the cache is an optimisation
      }
    }
    this.toStore = [];
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
  }

  /** Audit folders in the background; their verdicts arrive (arrived) as they are done. */
  private send(misses: readonly { dir: string; parsed?: ParsedManifest }[]): void {
    for (const m of misses) {
      this.inFlight.add(m.dir);
      this.fresh.delete(m.dir);
      this.audit(m.dir, m.parsed)
        .then(
          (result) => {
            if (this.stopped) return;
            this.stats.audited++;
            this.stats.bytes += result.report.bytes;
            this.fresh.set(m.dir, result.report);
            this.toStore.push({ dir: m.dir, ...result });
          },
          // Not stored: the next review pass audits it again in this thread (reviewDiscovered), which reports the error.
          () => undefined,
        )
        .finally(() => {
          this.inFlight.delete(m.dir);
          if (!this.stopped) this.arrived(m.dir);
        });
    }
  }

  private arrived(dir: string): void {
    this.arrivedDirs.add(dir);
    if (this.immediate) return;
    // The last verdict is told at once; the ones before it in bursts, at most one transaction and one review every
    // FLUSH_MS (a store commit and a catalog 'change' per arriving message cost the opening thread more than the wait).
    if (!this.inFlight.size) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.immediate = setImmediate(this.flush);
      return;
    }
    this.timer ??= setTimeout(this.flush, FLUSH_MS);
  }

  /**
   * Store the arrived reports and tell the catalog, in one transaction: the reports, then the catalog's review of the
   * arrived skills (their accepted-permission writes, verdictOf). Never throws: a failed transaction (disk full, the
   * database locked) drops the cache writes (the verdicts stand without them) and reviews again with each write on its
   * own, where a failed write fails closed for its skill alone.
   */
  private readonly flush = (): void => {
    const { store } = this;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = this.immediate = undefined;
    const dirs = this.arrivedDirs;
    const rows = this.toStore;
    this.arrivedDirs = new Set();
    this.toStore = [];
    const tell = (): void => {
      for (const l of this.listeners) l(dirs);
    };
    try {
      if (!store) return tell();
      store.policy.batch(() => {
        if (rows.length) storeAudits(rows, store);
        tell();
      });
    } catch {
      try {
        if (store) tell();
      } catch {
        /* a listener's failure never stops the audits */
      }
    }
  };
}
