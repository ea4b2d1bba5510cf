// Trust for skills that arrive without an install (cloned project tier, folders dropped in by hand): audit on discovery.
// P0 → disabled with findings; P1 → disabled until the user trusts this exact content hash; built-ins are trusted.
import type { Store } from '../../store/index.js';
import { parsedManifestOf, type CatalogEntry, type ParsedManifest, type TrustHold } from '../format/index.js';
import { auditFolder, auditSkill, MANIFEST_FAMILIES, verdictsOf, type AuditReport, type Finding } from './audit.js';
import { AUDITOR_VERSION } from './audit-rules.js';
import { encodeTree, fingerprintNow, treeToKeep } from './tree.js';
import { defaultPermissions, type Permissions } from '../../policy/index.js';
import { permissionDiff } from '../../policy/index.js';

export type ReviewVerdict = { enabled: false; reason: string; trust: TrustHold } | undefined;

/** The (path, size, mtime, ctime, link) fingerprint of a folder's files, from a walk of the folder. */
export function folderFingerprint(dir: string): string {
  return fingerprintNow(dir).fingerprint;
}

/**
 * The content hash a folder was audited as, when its files are unchanged since (else undefined). Its fingerprint is
 * taken from the tree kept with it (one stat per folder and per file) while that tree vouches for the folder, else from
 * a walk; a walk that finds the fingerprint unchanged keeps its tree, so the next open is a stat per file again.
 */
export function unchangedHash(dir: string, store: Store): string | undefined {
  const known = store.policy.fingerprint(dir);
  if (!known) return undefined;
  const now = fingerprintNow(dir, known.tree);
  if (now.fingerprint !== known.fingerprint) return undefined;
  if (now.tree) {
    try {
      store.policy.putFingerprintTree(dir, known.fingerprint, encodeTree(now.tree));
    } catch {
      // the tree is an optimisation: without it the next open walks the folder
    }
  }
  return known.contentHash;
}

/**
 * The stored report of a folder when its files are unchanged since it was audited, else undefined. A folder the store
 * has never seen is a miss without being listed: the audit gives its fingerprint (auditFolder) from its own reading.
 */
export function storedAudit(dir: string, store: Store): AuditReport | undefined {
  const hash = unchangedHash(dir, store);
  if (hash === undefined) return undefined;
  const cached = store.policy.cachedAudit(hash, AUDITOR_VERSION);
  return cached ? { ...(JSON.parse(cached) as AuditReport), dir } : undefined;
}

/** Keep a fresh report (the main thread is the store's one writer; workers only audit), with its folder's tree. */
export function storeAudit(dir: string, result: AuditResult, store: Store): void {
  store.policy.putAudit(result.report.contentHash, AUDITOR_VERSION, JSON.stringify(result.report));
  store.policy.putFingerprint(dir, result.fingerprint, result.report.contentHash, treeToKeep(result.tree));
}

/** Keep fresh reports in one transaction (a big folder's verdicts arrive in bursts). */
export function storeAudits(rows: ({ dir: string } & AuditResult)[], store: Store): void {
  store.policy.putAudits(
    rows.map((r) => ({
      contentHash: r.report.contentHash,
      auditor: AUDITOR_VERSION,
      reportJson: JSON.stringify(r.report),
      dir: r.dir,
      fingerprint: r.fingerprint,
      tree: treeToKeep(r.tree),
    })),
  );
}

/**
 * Audit a folder, reusing the stored report when the files' (path, size, mtime) are unchanged. `parsed`: the manifest
 * discovery read from it (the audit then does not parse the frontmatter again).
 */
export function auditCached(dir: string, store?: Store, parsed?: ParsedManifest): AuditReport {
  const opts = parsed ? { parsed: parsedManifestOf(parsed) } : {};
  if (!store) return auditSkill(dir, opts);
  const stored = storedAudit(dir, store);
  if (stored) return stored;
  const result = auditFolder(dir, opts);
  storeAudit(dir, result, store);
  return result.report;
}

function firstOf(fs: Finding[]): string {
  const first = fs[0];
  return first
    ? `${first.file}:${first.line} ${first.rule}: ${first.message}${fs.length > 1 ? ` (+${fs.length - 1} more)` : ''}`
    : '';
}

/**
 * The findings at `level`, the manifest's and the content's each named: a refused permission request never hides
 * what the instructions and scripts hold (`manifest P0: …; content P1: …`).
 */
export function summary(report: AuditReport, level: 'P0' | 'P1'): string {
  const at = report.findings.filter((f) => f.level === level);
  const manifest = at.filter((f) => MANIFEST_FAMILIES.has(f.family));
  const content = at.filter((f) => !MANIFEST_FAMILIES.has(f.family));
  if (!manifest.length || !content.length) {
    const v = report.verdicts ?? verdictsOf(report.findings);
    const other = manifest.length ? v.content : v.manifest;
    const side = manifest.length ? 'content' : 'manifest';
    const rest = other !== 'P2' && other !== level ? `; ${side} ${other}` : '';
    return firstOf(at) + rest;
  }
  return `manifest ${level}: ${firstOf(manifest)}; content ${level}: ${firstOf(content)}`;
}

/**
 * The verdict for one discovered skill (undefined = may be enabled). Besides the audit level, a skill whose
 * permissions widened since it was last in use (a `git pull`, an edit by hand) is held until the user trusts it:
 * any escalation needs the user, whatever the text says.
 */
export function reviewDiscovered(
  entry: Pick<CatalogEntry, 'tier' | 'realDir' | 'manifest'>,
  store?: Store,
): ReviewVerdict {
  if (entry.tier === 'builtin') return undefined;
  let report: AuditReport;
  try {
    report = auditCached(entry.realDir, store, entry.manifest);
  } catch (e) {
    return { enabled: false, reason: `could not audit: ${(e as Error).message}`, trust: 'refused' };
  }
  return verdictOf(entry, report, store);
}

/** The verdict a report gives a discovered skill (see reviewDiscovered). */
export function verdictOf(
  entry: Pick<CatalogEntry, 'realDir' | 'manifest'>,
  report: AuditReport,
  store?: Store,
): ReviewVerdict {
  if (report.level === 'P0')
    return { enabled: false, reason: `audit P0 (refused): ${summary(report, 'P0')}`, trust: 'refused' };
  // The user's trust in this content is looked up only when it decides something (a P1, or content new to a folder
  // whose permissions were accepted before): a cold open of a big folder asks it for the few, not for every skill.
  let trustedNow: boolean | undefined;
  const isTrusted = (): boolean => (trustedNow ??= store?.policy.trustByHash(report.contentHash) === 'trusted');
  const permissions = report.permissions ?? defaultPermissions();
  const accepted = store?.policy.acceptedPermissions(entry.realDir);
  if (accepted && accepted.contentHash !== report.contentHash && !isTrusted()) {
    const diff = permissionDiff(JSON.parse(accepted.permissionsJson) as Permissions, permissions);
    if (diff.widened) {
      const added = diff.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(2));
      return {
        enabled: false,
        reason: `permissions widened since last use (${added.join(', ')}): run \`knack skills trust ${entry.manifest.name}\` to accept`,
        trust: 'pending',
      };
    }
  }
  if (report.level === 'P1' && !isTrusted()) {
    return {
      enabled: false,
      reason: `audit P1, not trusted yet: ${summary(report, 'P1')} — run \`knack skills trust ${entry.manifest.name}\``,
      trust: 'pending',
    };
  }
  if (store && accepted?.contentHash !== report.contentHash) {
    store.policy.acceptPermissions(entry.realDir, entry.manifest.name, report.contentHash, JSON.stringify(permissions));
  }
  return undefined;
}

/** Verdicts that arrive while others are still being audited are stored and told at most this often (ms). */
export const FLUSH_MS = 30;

/** Below this many folders to audit, a review pass audits them at once (the catalog answers with their verdicts). */
export const BACKGROUND_MIN_AUDITS = 24;

/** A background slice audits folders for at most this long (ms), then yields to the event loop. */
const SLICE_MS = 15;

/** A folder's report and the fingerprint of the files it read (auditFolder). */
export type AuditResult = ReturnType<typeof auditFolder>;

/** Audits one folder in the background (TrustReviewOptions.background.audit). */
export type BackgroundAudit = (dir: string, parsed: ParsedManifest | undefined) => Promise<AuditResult>;

export interface TrustReviewOptions {
  /**
   * Audit in the background and let the catalog answer at once: skills whose audit is not done are `checking` (never
   * prompted nor matched) and the catalog is told when verdicts arrive. Small batches are audited at once. By default
   * the background audits run in this thread, a slice at a time between events: a pool of worker threads finished a
   * cold 800-skill open later than this thread on 2 cores (`npm run bench -- trust-open`), so it was removed.
   * `audit` replaces the auditor (tests hold it to change files meanwhile).
   */
  background?: boolean | { minBatch?: number; audit?: BackgroundAudit };
}

/** The review hook with the catalog's optional extras (see ReviewHook in catalog.ts). */
export interface TrustReview {
  (entry: CatalogEntry): ReviewVerdict;
  /** Called by the catalog before a review pass with every entry: finds what must be audited, starts it. */
  prepare(entries: CatalogEntry[]): void;
  /** The catalog's listener for arriving verdicts, given the real folders they are about (it reviews those again). */
  onVerdicts(listener: (dirs: ReadonlySet<string>) => void): void;
  /**
   * The catalog's listener for folders whose verdict was for another SKILL.md frontmatter than the catalog's entry
   * (the file changed between the catalog's read and the audit's): it reads them again (a refresh).
   */
  onStale(listener: (dirs: ReadonlySet<string>) => void): void;
  /** Audits waiting or running in the background. */
  readonly checking: number;
  /**
   * The audit report behind a skill's current verdict (the one the catalog's last review used), or undefined: for a
   * built-in, a skill still `checking`, or one whose folder could not be audited. Views read this, never audit.
   */
  reportOf(entry: Pick<CatalogEntry, 'tier' | 'realDir'>): AuditReport | undefined;
  /** Stop the background audits (the workspace closes it). */
  close(): Promise<void>;
  /** What the background audits came to so far. */
  readonly stats: { audited: number; bytes: number };
}

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

/** The catalog's review hook (CatalogOptions.review): plug in as `review: createTrustReview(store)`. */
export function createTrustReview(store?: Store, opts: TrustReviewOptions = {}): TrustReview {
  const bg = opts.background ? (typeof opts.background === 'object' ? opts.background : {}) : undefined;
  const stats = { audited: 0, bytes: 0 };
  const minBatch = bg?.minBatch ?? BACKGROUND_MIN_AUDITS;
  /** Reports audited this session (fresh, not yet in the store when there is none), by real folder. */
  const fresh = new Map<string, AuditReport>();
  /** Folders being audited in the background now. */
  const inFlight = new Set<string>();
  const listeners: ((dirs: ReadonlySet<string>) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  let closed = false;
  const audit = (typeof bg === 'object' && bg.audit) || slicedAudit(() => closed);
  /** Folders whose verdicts arrived since the catalog was last told, and the fresh reports still to store. */
  let arrivedDirs = new Set<string>();
  let toStore: ({ dir: string } & AuditResult)[] = [];
  /**
   * Store the arrived reports and tell the catalog, in one transaction: the reports, then the catalog's review of the
   * arrived skills (their accepted-permission writes, verdictOf). Never throws: a failed transaction (disk full, the
   * database locked) drops the cache writes (the verdicts stand without them) and reviews again with each write on its
   * own, where a failed write fails closed for its skill alone.
   */
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    timer = immediate = undefined;
    const dirs = arrivedDirs;
    const rows = toStore;
    arrivedDirs = new Set();
    toStore = [];
    const tell = (): void => {
      for (const l of listeners) l(dirs);
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
  const arrived = (dir: string): void => {
    arrivedDirs.add(dir);
    if (immediate) return;
    // The last verdict is told at once; the ones before it in bursts, at most one transaction and one review every
    // FLUSH_MS (a store commit and a catalog 'change' per arriving message cost the opening thread more than the wait).
    if (!inFlight.size) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      immediate = setImmediate(flush);
      return;
    }
    timer ??= setTimeout(flush, FLUSH_MS);
  };

  /** The report behind each folder's current verdict (what reportOf answers). */
  const shown = new Map<string, AuditReport>();

  const staleListeners: ((dirs: ReadonlySet<string>) => void)[] = [];
  let staleDirs = new Set<string>();
  let staleNotify: NodeJS.Immediate | undefined;
  /** Per folder, the mismatch (entry digest > report digest) already sent back to the catalog once. */
  const retried = new Map<string, string>();
  /**
   * A report judges the SKILL.md frontmatter it read; the entry shows (and prompts with) the one the catalog read. When
   * they differ the file changed in between: the verdict is not this entry's. The skill stays checking and the catalog
   * reads it again; the same disagreement twice (the file reads differently to the two, not a change) fails closed.
   */
  const mismatch = (entry: CatalogEntry, report: AuditReport): ReviewVerdict | undefined => {
    const dir = entry.realDir;
    const want = entry.manifest.frontmatter?.sha256;
    const got = report.frontmatterSha256;
    if (!want || !got || want === got) {
      retried.delete(dir);
      return undefined;
    }
    fresh.delete(dir);
    shown.delete(dir);
    const key = `${want}>${got}`;
    if (retried.get(dir) === key) {
      return {
        enabled: false,
        reason: 'could not audit: the audit read another SKILL.md frontmatter than the catalog shows',
        trust: 'refused',
      };
    }
    retried.set(dir, key);
    staleDirs.add(dir);
    staleNotify ??= setImmediate(() => {
      staleNotify = undefined;
      const dirs = staleDirs;
      staleDirs = new Set();
      if (closed) return;
      for (const l of staleListeners) {
        try {
          l(dirs);
        } catch {
          // the skill stays held
        }
      }
    });
    return {
      enabled: false,
      reason: 'checking: SKILL.md changed while it was audited; reading it again',
      trust: 'checking',
    };
  };

  const review = ((entry: CatalogEntry): ReviewVerdict => {
    if (entry.tier === 'builtin') return undefined;
    if (inFlight.has(entry.realDir)) {
      shown.delete(entry.realDir);
      return { enabled: false, reason: 'checking: the audit has not finished yet', trust: 'checking' };
    }
    let report = fresh.get(entry.realDir);
    if (!report) {
      try {
        report = auditCached(entry.realDir, store, entry.manifest);
      } catch (e) {
        shown.delete(entry.realDir);
        return { enabled: false, reason: `could not audit: ${(e as Error).message}`, trust: 'refused' };
      }
    }
    const stale = mismatch(entry, report);
    if (stale) return stale;
    shown.set(entry.realDir, report);
    return verdictOf(entry, report, store);
  }) as TrustReview;

  review.prepare = (entries) => {
    if (!bg) return;
    const misses: { dir: string; parsed: ParsedManifest }[] = [];
    const seen = new Set<string>();
    for (const e of entries) {
      if (e.tier === 'builtin' || inFlight.has(e.realDir) || seen.has(e.realDir)) continue;
      seen.add(e.realDir);
      // Without a store, a folder audited this session is done; with one, its stored report when the files are unchanged.
      if (!store && fresh.has(e.realDir)) continue;
      let stored: AuditReport | undefined;
      try {
        stored = store ? storedAudit(e.realDir, store) : undefined;
      } catch {
        continue; // an unreadable folder is judged (refused) by the in-thread review
      }
      if (stored) fresh.set(e.realDir, stored);
      else misses.push({ dir: e.realDir, parsed: parsedManifestOf(e.manifest) });
    }
    if (misses.length < minBatch) {
      for (const m of misses) {
        try {
          const result = auditFolder(m.dir, { parsed: m.parsed });
          if (store) storeAudit(m.dir, result, store);
          fresh.set(m.dir, result.report);
        } catch {
          // left to the in-thread review, which reports it
        }
      }
      return;
    }
    send(misses);
  };
  /** Audit folders in the background; their verdicts arrive (arrived) as they are done. */
  const send = (misses: readonly { dir: string; parsed?: ParsedManifest }[]): void => {
    for (const m of misses) {
      inFlight.add(m.dir);
      fresh.delete(m.dir);
      audit(m.dir, m.parsed)
        .then(
          (result) => {
            if (closed) return;
            stats.audited++;
            stats.bytes += result.report.bytes;
            fresh.set(m.dir, result.report);
            toStore.push({ dir: m.dir, ...result });
          },
          // Not stored: the next review pass audits it again in this thread (reviewDiscovered), which reports the error.
          () => undefined,
        )
        .finally(() => {
          inFlight.delete(m.dir);
          if (!closed) arrived(m.dir);
        });
    }
  };
  review.onVerdicts = (listener) => void listeners.push(listener);
  review.onStale = (listener) => void staleListeners.push(listener);
  review.reportOf = (entry) => (entry.tier === 'builtin' ? undefined : shown.get(entry.realDir));
  Object.defineProperty(review, 'checking', { get: () => inFlight.size });
  Object.defineProperty(review, 'stats', { get: () => stats });
  review.close = async () => {
    // Reports that arrived and are not stored yet are kept (the next open finds them); nobody is told any more.
    if (store && toStore.length) {
      try {
        storeAudits(toStore, store);
      } catch {
        // the cache is an optimisation
      }
    }
    toStore = [];
    closed = true;
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    if (staleNotify) clearImmediate(staleNotify);
  };
  return review;
}

export type TrustResult = { ok: true; report: AuditReport } | { ok: false; reason: string; report?: AuditReport };

/**
 * The user trusts a discovered skill: bound to the content hash audited now. P0 can never be trusted. `parsed`: its
 * manifest from discovery (the frontmatter is not parsed again while it is unchanged).
 */
export function trustSkill(dir: string, store: Store, parsed?: ParsedManifest): TrustResult {
  const report = auditSkill(dir, parsed ? { parsed: parsedManifestOf(parsed) } : {});
  if (report.level === 'P0')
    return { ok: false, reason: `P0 skills cannot be trusted: ${summary(report, 'P0')}`, report };
  store.policy.setTrust(report.skill, report.contentHash, 'trusted');
  return { ok: true, report };
}
