// Trust for skills that arrive without an install (cloned project tier, folders dropped in by hand): audit on discovery.
// P0 → disabled with findings; P1 → disabled until the user trusts this exact content hash; built-ins are trusted.
import { createHash } from 'node:crypto';
import type { Store } from '../../store/index.js';
import type { CatalogEntry } from '../format/types.js';
import { auditSkill, listSkillFiles, type AuditReport } from './audit.js';
import { AUDITOR_VERSION } from './audit-rules.js';
import { defaultPermissions, type Permissions } from '../../policy/permissions.js';
import { permissionDiff } from '../../policy/diff.js';

export type ReviewVerdict = { enabled: false; reason: string } | undefined;

/** Audit a folder, reusing the stored report when the files' (path, size, mtime) are unchanged. */
export function auditCached(dir: string, store?: Store): AuditReport {
  if (!store) return auditSkill(dir);
  const { files } = listSkillFiles(dir);
  const fp = createHash('sha256');
  for (const f of files) fp.update(`${f.rel}\0${f.size}\0${f.mtimeMs}\0${f.link ?? ''}\n`);
  const fingerprint = fp.digest('hex');
  const known = store.policy.fingerprint(dir);
  if (known && known.fingerprint === fingerprint) {
    const cached = store.policy.cachedAudit(known.contentHash, AUDITOR_VERSION);
    if (cached) return { ...(JSON.parse(cached) as AuditReport), dir };
  }
  const report = auditSkill(dir);
  store.policy.putAudit(report.contentHash, AUDITOR_VERSION, JSON.stringify(report));
  store.policy.putFingerprint(dir, fingerprint, report.contentHash);
  return report;
}

function summary(report: AuditReport, level: 'P0' | 'P1'): string {
  const fs = report.findings.filter((f) => f.level === level);
  const first = fs[0];
  return first ? `${first.file}:${first.line} ${first.rule}: ${first.message}${fs.length > 1 ? ` (+${fs.length - 1} more)` : ''}` : '';
}

/**
 * The verdict for one discovered skill (undefined = may be enabled). Besides the audit level, a skill whose
 * permissions widened since it was last in use (a `git pull`, an edit by hand) is held until the user trusts it:
 * any escalation needs the user, whatever the text says.
 */
export function reviewDiscovered(entry: Pick<CatalogEntry, 'tier' | 'realDir' | 'manifest'>, store?: Store): ReviewVerdict {
  if (entry.tier === 'builtin') return undefined;
  let report: AuditReport;
  try {
    report = auditCached(entry.realDir, store);
  } catch (e) {
    return { enabled: false, reason: `could not audit: ${(e as Error).message}` };
  }
  if (report.level === 'P0') return { enabled: false, reason: `audit P0 (refused): ${summary(report, 'P0')}` };
  const trusted = store?.policy.trustByHash(report.contentHash) === 'trusted';
  const permissions = report.permissions ?? defaultPermissions();
  const accepted = store?.policy.acceptedPermissions(entry.realDir);
  if (accepted && accepted.contentHash !== report.contentHash && !trusted) {
    const diff = permissionDiff(JSON.parse(accepted.permissionsJson) as Permissions, permissions);
    if (diff.widened) {
      const added = diff.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(2));
      return { enabled: false, reason: `permissions widened since last use (${added.join(', ')}): run \`knack skills trust ${entry.manifest.name}\` to accept` };
    }
  }
  if (report.level === 'P1' && !trusted) {
    return { enabled: false, reason: `audit P1, not trusted yet: ${summary(report, 'P1')} — run \`knack skills trust ${entry.manifest.name}\`` };
  }
  if (store && accepted?.contentHash !== report.contentHash) {
    store.policy.acceptPermissions(entry.realDir, entry.manifest.name, report.contentHash, JSON.stringify(permissions));
  }
  return undefined;
}

/** The catalog's review hook (CatalogOptions.review): plug in as `review: createTrustReview(store)`. */
export function createTrustReview(store?: Store): (entry: CatalogEntry) => ReviewVerdict {
  return (entry) => reviewDiscovered(entry, store);
}

export type TrustResult =
  | { ok: true; report: AuditReport }
  | { ok: false; reason: string; report?: AuditReport };

/** The user trusts a discovered skill: bound to the content hash audited now. P0 can never be trusted. */
export function trustSkill(dir: string, store: Store): TrustResult {
  const report = auditSkill(dir);
  if (report.level === 'P0') return { ok: false, reason: `P0 skills cannot be trusted: ${summary(report, 'P0')}`, report };
  store.policy.setTrust(report.skill, report.contentHash, 'trusted');
  return { ok: true, report };
}
