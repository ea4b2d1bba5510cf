// Core records → the contract's view shapes (skills with audit state and shadowing, audit reports, rules, installs).
// Pure mapping: audit state comes from the catalog (its trust hold) and the trust review's reports; views never audit.
import type { z } from 'zod';
import type * as C from '../../../preload/contract.js';
import type { AuditReport, Finding, PendingApproval } from '../skills/trust/index.js';
import type { TrustReview } from '../skills/trust/index.js';
import type { CatalogEntry } from '../skills/format/index.js';
import type { PermissionDiff, Permissions } from '../policy/index.js';
import { ruleSaid } from '../policy/index.js';
import { english, say, type Said } from '../base/index.js';
import type { Rule } from '../store/index.js';
import type { InstallResult } from '../skills/trust/index.js';
import type { Store } from '../store/index.js';

type Out<T extends z.ZodType> = z.output<T>;

export function permissionsView(p: Permissions): Out<typeof C.Permissions> {
  const commands: Record<string, string[]> = {};
  for (const [tool, pats] of Object.entries(p.commands))
    commands[tool] = pats.map((x) => (x.exact ? x.text : `${x.text}:*`));
  return {
    tools: [...p.tools],
    commands,
    network: p.network,
    read: [...p.read],
    write: [...p.write],
    declared: p.declared,
  };
}

/** A permission diff for the window: its lines and their words (an approval stored before words has only lines). */
export function diffView(
  d: Pick<PermissionDiff, 'widened' | 'lines'> & { words?: Said[] },
): Out<typeof C.PermissionDiff> {
  return { widened: d.widened, lines: d.lines, ...(d.words ? { words: d.words } : {}) };
}

function findingView(f: Finding): Out<typeof C.AuditFinding> {
  return {
    file: f.file,
    line: f.line,
    rule: f.rule,
    family: f.family,
    level: f.level,
    excerpt: f.excerpt,
    message: f.message,
    ...(f.words ? { words: f.words } : {}),
    ...(f.excerptWords ? { excerptWords: f.excerptWords } : {}),
  };
}

/** A held install as the window reviews it: the findings, permissions and diff recorded for its content hash. */
export function pendingView(a: PendingApproval): Out<typeof C.PendingInstall> {
  return {
    approvalId: a.id,
    kind: a.kind,
    skill: a.skill,
    tier: a.tier,
    source: a.source,
    target: a.target,
    contentHash: a.contentHash,
    // Only P1 is ever held; a level the store does not know is shown as the one that needs the user.
    level: a.level === 'P0' || a.level === 'P2' ? a.level : 'P1',
    createdAt: a.createdAt,
    findings: a.findings.map(findingView),
    ...(a.permissions ? { permissions: permissionsView(a.permissions) } : {}),
    ...(a.diff ? { diff: diffView(a.diff) } : {}),
    ...(a.gone ? { gone: true } : {}),
  };
}

export function reportView(r: AuditReport): Out<typeof C.AuditReport> {
  return {
    skill: r.skill,
    dir: r.dir,
    level: r.level,
    findings: r.findings.map(findingView),
    contentHash: r.contentHash,
    files: r.files,
    bytes: r.bytes,
    ...(r.permissions ? { permissions: permissionsView(r.permissions) } : {}),
    manifestDiagnostics: r.manifestDiagnostics,
    ...(r.diff ? { diff: diffView(r.diff) } : {}),
  };
}

/**
 * The audit state a list shows, read from the catalog: its trust hold (`checking`, `refused`, `pending`) is the one
 * source of truth; the report behind the verdict adds level, findings and hash. Built-ins ship with the app, trusted.
 */
export function auditState(
  entry: CatalogEntry,
  report: AuditReport | undefined,
  store: Store | undefined,
): Out<typeof C.AuditState> {
  if (entry.tier === 'builtin') return { status: 'clean', findings: 0 };
  // The audit has not finished: no report yet; the verdict arrives as audit.verdict.
  if (entry.trust === 'checking') return { status: 'checking', findings: 0 };
  const base = report
    ? { level: report.level, findings: report.findings.length, contentHash: report.contentHash }
    : { findings: 0 };
  if (entry.trust === 'refused') return { status: 'blocked', ...base };
  if (entry.trust === 'pending') return { status: 'needs-trust', ...base };
  // Not held, yet no report: the review itself failed (the catalog keeps it disabled and says why).
  if (!report) return { status: 'blocked', findings: 0 };
  return { status: store?.policy.trustByHash(report.contentHash) === 'trusted' ? 'trusted' : 'clean', ...base };
}

/** The audit report behind a catalog entry's verdict, as the workspace's trust review holds it (never audits). */
export function auditOf(entry: CatalogEntry, trust: Pick<TrustReview, 'reportOf'>): AuditReport | undefined {
  return trust.reportOf(entry);
}

type Shadowed = { tier: CatalogEntry['tier']; file: string };

/** The entries each file shadows, in one pass over the catalog (skillView would otherwise scan it per entry). */
export function shadowedByFile(all: CatalogEntry[]): Map<string, Shadowed[]> {
  const out = new Map<string, Shadowed[]>();
  for (const o of all) {
    if (!o.shadowedBy) continue;
    let list = out.get(o.shadowedBy.file);
    if (!list) out.set(o.shadowedBy.file, (list = []));
    list.push({ tier: o.tier, file: o.file });
  }
  return out;
}

export function skillView(
  entry: CatalogEntry,
  all: CatalogEntry[],
  report: AuditReport | undefined,
  store: Store | undefined,
  shadowed?: Map<string, Shadowed[]>,
): Out<typeof C.SkillSummary> {
  const m = entry.manifest;
  return {
    name: m.name,
    ...(m.title ? { title: m.title } : {}),
    description: m.description,
    tier: entry.tier,
    source: entry.source,
    dir: entry.dir,
    file: entry.file,
    enabled: entry.enabled,
    ...(entry.disabledReason ? { disabledReason: entry.disabledReason } : {}),
    ...(entry.disabledWords ? { disabledWords: entry.disabledWords } : {}),
    ...(entry.shadowedBy ? { shadowedBy: { tier: entry.shadowedBy.tier, file: entry.shadowedBy.file } } : {}),
    shadows: entry.shadowedBy
      ? []
      : shadowed
        ? (shadowed.get(entry.file) ?? [])
        : all.filter((o) => o.shadowedBy?.file === entry.file).map((o) => ({ tier: o.tier, file: o.file })),
    diagnostics: entry.diagnostics,
    audit: auditState(entry, report, store),
    triggers: [...m.readWhen],
    ...(m.agentCreated ? { agentCreated: true } : {}),
  };
}

export function ruleView(r: Rule): Out<typeof C.PolicyRule> {
  const words = ruleSaid(r);
  return { ...r, description: english(words), words };
}

const REPLACED = say('install.replaced');

/** An install result's reason, and its words when it has them. */
function said(r: { reason: string; words?: Said }): { reason: string; words?: Said } {
  return r.words ? { reason: r.reason, words: r.words } : { reason: r.reason };
}

export function installView(r: InstallResult): Out<typeof C.InstallOutcome> {
  const report = 'report' in r && r.report ? { report: reportView(r.report) } : {};
  switch (r.status) {
    case 'installed':
      return {
        status: 'installed',
        skill: r.skill,
        dest: r.dest,
        ...report,
        ...(r.replaced ? { reason: english(REPLACED), words: REPLACED } : {}),
      };
    case 'pending':
      return { status: 'pending', ...said(r), approvalId: r.approval.id, skill: r.approval.skill, ...report };
    case 'exists':
      return { status: 'exists', ...said(r), dest: r.dest, ...report };
    case 'refused':
      return { status: 'refused', ...said(r), ...report };
  }
}
