// Trust for skills that arrive without an install (cloned project tier, folders dropped in by hand): audit on discovery.
// P0 → disabled with findings; P1 → disabled until the user trusts this exact content hash; built-ins are trusted.
// This file decides; when the audits run is audit-queue.ts's, and the stored reports are audit-cache.ts's.
import type { AcceptedPermissions, Store } from '../../store/index.js';
import { parsedManifestOf, type CatalogEntry, type ParsedManifest, type TrustHold } from '../format/index.js';
import { auditSkill, listWords, MANIFEST_FAMILIES, verdictsOf, type AuditReport, type Finding } from './audit.js';
import { auditCached } from './audit-cache.js';
import { AuditQueue, BACKGROUND_MIN_AUDITS, type BackgroundAudit } from './audit-queue.js';
import { defaultPermissions, type Permissions } from '../../policy/index.js';
import { permissionDiff } from '../../policy/index.js';
import { english, say, type Said } from '../../base/index.js';

export { auditCached, unchangedHash } from './audit-cache.js';
export { type BackgroundAudit } from './audit-queue.js';

/** Why a skill is held: `reason` is the English of `words` (the CLI's text), the window says `words`. */
export type ReviewVerdict = { enabled: false; reason: string; words: Said; trust: TrustHold } | undefined;

function held(words: Said, trust: TrustHold): NonNullable<ReviewVerdict> {
  // The English is made when asked for (the CLI's text): a review pass holding a thousand skills shows their words.
  return {
    enabled: false,
    get reason() {
      return english(words);
    },
    words,
    trust,
  };
}

function firstOf(fs: Finding[]): Said {
  const first = fs[0];
  if (!first) return say('trustNoFinding');
  const at = { file: first.file, line: first.line, rule: first.rule, message: first.words };
  return fs.length > 1 ? say('trustFindingMore', { ...at, more: fs.length - 1 }) : say('trustFinding', at);
}

/**
 * The findings at `level`, the manifest's and the content's each named: a refused permission request never hides
 * what the instructions and scripts hold (`manifest P0: …; content P1: …`).
 */
function summaryWords(report: AuditReport, level: 'P0' | 'P1'): Said {
  const at = report.findings.filter((f) => f.level === level);
  const manifest = at.filter((f) => MANIFEST_FAMILIES.has(f.family));
  const content = at.filter((f) => !MANIFEST_FAMILIES.has(f.family));
  if (!manifest.length || !content.length) {
    const v = report.verdicts ?? verdictsOf(report.findings);
    const other = manifest.length ? v.content : v.manifest;
    if (other === 'P2' || other === level) return firstOf(at);
    return say(manifest.length ? 'trustAndContent' : 'trustAndManifest', { first: firstOf(at), level: other });
  }
  return say('trustBoth', { level, manifest: firstOf(manifest), content: firstOf(content) });
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
    return held(say('skillOff.couldNotAudit', { error: (e as Error).message }), 'refused');
  }
  return verdictOf(entry, report, store);
}

/** The verdict a report gives a discovered skill (see reviewDiscovered). */
function verdictOf(
  entry: Pick<CatalogEntry, 'realDir' | 'manifest'>,
  report: AuditReport,
  store?: Store,
  /** The folder's accepted permissions when the caller has read them (null: none), else they are read here. */
  known?: AcceptedPermissions | null,
): ReviewVerdict {
  if (report.level === 'P0') return held(say('skillOff.p0', { summary: summaryWords(report, 'P0') }), 'refused');
  // The user's trust in this content is looked up only when it decides something (a P1, or content new to a folder
  // whose permissions were accepted before): a cold open of a big folder asks it for the few, not for every skill.
  let trustedNow: boolean | undefined;
  const isTrusted = (): boolean => (trustedNow ??= store?.policy.trustByHash(report.contentHash) === 'trusted');
  const permissions = report.permissions ?? defaultPermissions();
  const accepted = known === undefined ? store?.policy.acceptedPermissions(entry.realDir) : (known ?? undefined);
  if (accepted && accepted.contentHash !== report.contentHash && !isTrusted()) {
    const diff = permissionDiff(JSON.parse(accepted.permissionsJson) as Permissions, permissions);
    if (diff.widened) {
      const added = diff.words.flatMap((w) =>
        w.code === 'diff.added' && typeof w.params?.change === 'object' ? [w.params.change] : [],
      );
      return held(say('skillOff.widened', { added: listWords(added), name: entry.manifest.name }), 'pending');
    }
  }
  if (report.level === 'P1' && !isTrusted()) {
    return held(say('skillOff.p1', { summary: summaryWords(report, 'P1'), name: entry.manifest.name }), 'pending');
  }
  if (store && accepted?.contentHash !== report.contentHash) {
    store.policy.acceptPermissions(entry.realDir, entry.manifest.name, report.contentHash, JSON.stringify(permissions));
  }
  return undefined;
}

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
  /**
   * Called by the catalog before a review pass with every entry: finds what must be audited, starts it. `unchanged`:
   * the folders a hot reload vouches for keep the last pass's report (AuditQueue.prepare).
   */
  prepare(entries: CatalogEntry[], unchanged?: (dir: string) => boolean): void;
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
  /** What the background audits came to so far, and the folders review passes checked again or kept (AuditQueue). */
  readonly stats: { audited: number; bytes: number; checked: number; kept: number };
}

/** The catalog's review hook (CatalogOptions.review): plug in as `review: createTrustReview(store)`. */
export function createTrustReview(store?: Store, opts: TrustReviewOptions = {}): TrustReview {
  const bg = opts.background ? (typeof opts.background === 'object' ? opts.background : {}) : undefined;
  const queue = new AuditQueue(
    store,
    bg?.minBatch ?? BACKGROUND_MIN_AUDITS,
    (typeof bg === 'object' && bg.audit) || undefined,
  );
  const { fresh } = queue;

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
      return held(say('skillOff.frontmatterMismatch'), 'refused');
    }
    retried.set(dir, key);
    staleDirs.add(dir);
    staleNotify ??= setImmediate(() => {
      staleNotify = undefined;
      const dirs = staleDirs;
      staleDirs = new Set();
      if (queue.closed) return;
      for (const l of staleListeners) {
        try {
          l(dirs);
        } catch {
          // the skill stays held
        }
      }
    });
    return held(say('skillOff.checkingChanged'), 'checking');
  };

  const review = ((entry: CatalogEntry): ReviewVerdict => {
    if (entry.tier === 'builtin') return undefined;
    const accepted = queue.takeAccepted(entry.realDir);
    if (queue.auditing(entry.realDir)) {
      shown.delete(entry.realDir);
      return held(say('skillOff.checking'), 'checking');
    }
    let report = fresh.get(entry.realDir);
    if (!report) {
      try {
        report = auditCached(entry.realDir, store, entry.manifest);
      } catch (e) {
        shown.delete(entry.realDir);
        return held(say('skillOff.couldNotAudit', { error: (e as Error).message }), 'refused');
      }
    }
    const stale = mismatch(entry, report);
    if (stale) return stale;
    shown.set(entry.realDir, report);
    return verdictOf(entry, report, store, accepted);
  }) as TrustReview;

  review.prepare = (entries, unchanged) => {
    if (bg) queue.prepare(entries, unchanged);
  };
  review.onVerdicts = (listener) => queue.onVerdicts(listener);
  review.onStale = (listener) => void staleListeners.push(listener);
  review.reportOf = (entry) => (entry.tier === 'builtin' ? undefined : shown.get(entry.realDir));
  Object.defineProperty(review, 'checking', { get: () => queue.checking });
  Object.defineProperty(review, 'stats', { get: () => queue.stats });
  review.close = async () => {
    queue.close();
    if (staleNotify) clearImmediate(staleNotify);
  };
  return review;
}

export type TrustResult =
  { ok: true; report: AuditReport } | { ok: false; reason: string; words: Said; report?: AuditReport };

/**
 * The user trusts a discovered skill: bound to the content hash audited now. P0 can never be trusted. `parsed`: its
 * manifest from discovery (the frontmatter is not parsed again while it is unchanged).
 */
export function trustSkill(dir: string, store: Store, parsed?: ParsedManifest): TrustResult {
  const report = auditSkill(dir, parsed ? { parsed: parsedManifestOf(parsed) } : {});
  if (report.level === 'P0') {
    const words = say('trust.p0', { summary: summaryWords(report, 'P0') });
    return { ok: false, reason: english(words), words, report };
  }
  store.policy.setTrust(report.skill, report.contentHash, 'trusted');
  return { ok: true, report };
}
