// A folder's audit report kept in the store, reused while the folder's files (path, size, mtime, ctime, link) are
// unchanged; the folder's tree is kept with it so that a warm open takes one stat per file (tree.ts).
import type { AcceptedPermissions, Store } from '../../store/index.js';
import type { ParsedManifest } from '../format/index.js';
import { parsedManifestOf } from '../format/index.js';
import { auditFolder, auditSkill, type AuditReport, type FileStamp } from './audit.js';
import { AUDITOR_VERSION } from './audit-rules.js';
import { encodeTree, fingerprintNow, treeToKeep, TREE_RACY_MS } from './tree.js';
import type { AuditResult } from './audit-queue.js';

/**
 * The content hash a folder was audited as, when its files are unchanged since (else undefined). Its fingerprint is
 * taken from the tree kept with it (one stat per folder and per file) while that tree vouches for the folder, else from
 * a walk; a walk that finds the fingerprint unchanged keeps its tree, so the next open is a stat per file again.
 */
export function unchangedHash(dir: string, store: Store): string | undefined {
  const known = store.policy.fingerprint(dir);
  return known && checked(dir, known, store);
}

/** The content hash of `known` (a stored fingerprint row) when the folder's files are unchanged since, else undefined. */
function checked(
  dir: string,
  known: { fingerprint: string; contentHash: string; tree: string | null },
  store: Store,
  seen?: FileStamp,
): string | undefined {
  const now = fingerprintNow(dir, known.tree, TREE_RACY_MS, seen);
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
 * The stored report of a folder when its files are unchanged since it was audited, with the permissions last accepted
 * for the folder (read in the same lookup: verdictOf needs them), else undefined. A folder the store has never seen is
 * a miss without being listed: the audit gives its fingerprint (auditFolder) from its own reading.
 * `seen`: a file's stamp taken in this open (tree.ts fingerprintNow), one stat fewer.
 */
export function storedReview(
  dir: string,
  store: Store,
  seen?: FileStamp,
): { report: AuditReport; accepted: AcceptedPermissions | null } | undefined {
  const known = store.policy.fingerprintAndAudit(dir, AUDITOR_VERSION);
  if (!known?.reportJson || checked(dir, known, store, seen) === undefined) return undefined;
  const report = JSON.parse(known.reportJson) as AuditReport;
  report.dir = dir;
  return { report, accepted: known.accepted };
}

/** storedReview's report alone. */
function storedAudit(dir: string, store: Store, seen?: FileStamp): AuditReport | undefined {
  return storedReview(dir, store, seen)?.report;
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
