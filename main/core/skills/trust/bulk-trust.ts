// Bulk trust for a real folder: one review of every skill held for trust (grouped by finding rule, with counts and the
// widest permissions asked), one answer, then each skill trusted at the content hash that was reviewed.
import { english, say, type Said } from '../../base/index.js';
import type { Store } from '../../store/index.js';
import type { CatalogEntry, Tier } from '../format/index.js';
import type { Permissions } from '../../policy/index.js';
import { auditSkill, type Finding } from './audit.js';
import { auditCached, reviewDiscovered } from './trust.js';

export interface BulkCandidate {
  name: string;
  tier: Tier;
  dir: string;
  realDir: string;
  /** The audit level (P1; P2 when only its permissions widened). */
  level: 'P1' | 'P2';
  /** Trust is bound to this hash: a skill that changes after the review is not trusted. */
  contentHash: string;
  findings: Finding[];
  permissions?: Permissions;
  reason: string;
}

export interface BulkGroup {
  rule: string;
  message: string;
  words: Said;
  /** Findings of this rule across the skills. */
  count: number;
  skills: string[];
}

/** The union of what the candidates ask for: the most the user grants by saying yes. */
export interface WidestPermissions {
  tools: string[];
  /** Command tools asked for with any command (no pattern). */
  anyCommand: string[];
  network: boolean;
  read: string[];
  write: string[];
  /** Skills declaring no permissions (least privilege for their scripts). */
  undeclared: number;
}

export interface BulkTrustReview {
  candidates: BulkCandidate[];
  /** P0 skills (and ones that could not be audited): never trusted, listed so the user knows. */
  refused: { name: string; tier: Tier; reason: string; words: Said }[];
  /** Findings grouped by rule, most frequent first. */
  groups: BulkGroup[];
  widest: WidestPermissions;
}

export interface BulkTrustResult {
  trusted: { name: string; tier: Tier; contentHash: string }[];
  /** Skills that changed after the review (or turned P0): not trusted, review again. */
  skipped: { name: string; tier: Tier; reason: string; words: Said }[];
  refused: BulkTrustReview['refused'];
}

/** Every skill of the catalog (project and user tiers, or one of them) that waits for trust, and what it asks. */
export function reviewBulkTrust(
  entries: CatalogEntry[],
  store: Store,
  opts: { tier?: 'project' | 'user' } = {},
): BulkTrustReview {
  const candidates: BulkCandidate[] = [];
  const refused: BulkTrustReview['refused'] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.tier === 'builtin' || (opts.tier && e.tier !== opts.tier) || seen.has(e.realDir)) continue;
    seen.add(e.realDir);
    const verdict = reviewDiscovered(e, store);
    if (!verdict) continue;
    if (verdict.trust === 'refused') {
      refused.push({ name: e.manifest.name, tier: e.tier, reason: verdict.reason, words: verdict.words });
      continue;
    }
    const report = auditCached(e.realDir, store, e.manifest);
    if (report.level === 'P0') continue;
    candidates.push({
      name: e.manifest.name,
      tier: e.tier,
      dir: e.dir,
      realDir: e.realDir,
      level: report.level,
      contentHash: report.contentHash,
      findings: report.findings,
      ...(report.permissions ? { permissions: report.permissions } : {}),
      reason: verdict.reason,
    });
  }
  return { candidates, refused, groups: groupByRule(candidates), widest: widestOf(candidates) };
}

const WIDENED = say('trustWidenedSinceUse');

function groupByRule(candidates: BulkCandidate[]): BulkGroup[] {
  const groups = new Map<string, BulkGroup>();
  for (const c of candidates) {
    const rules = c.findings.length
      ? c.findings
      : [{ rule: 'permissions.widened', words: WIDENED, message: english(WIDENED) }];
    for (const f of rules) {
      let g = groups.get(f.rule);
      if (!g) groups.set(f.rule, (g = { rule: f.rule, message: f.message, words: f.words, count: 0, skills: [] }));
      g.count++;
      if (g.skills.at(-1) !== c.name) g.skills.push(c.name);
    }
  }
  return [...groups.values()].sort(
    (a, b) => b.skills.length - a.skills.length || b.count - a.count || a.rule.localeCompare(b.rule),
  );
}

function widestOf(candidates: BulkCandidate[]): WidestPermissions {
  const tools = new Set<string>();
  const anyCommand = new Set<string>();
  const read = new Set<string>();
  const write = new Set<string>();
  let network = false;
  let undeclared = 0;
  for (const c of candidates) {
    const p = c.permissions;
    if (!p || p.declared === 'none') {
      undeclared++;
      continue;
    }
    for (const t of p.tools) {
      tools.add(t);
      if (p.commands[t]?.length === 0) anyCommand.add(t);
    }
    network ||= p.network;
    for (const g of p.read) read.add(g);
    for (const g of p.write) write.add(g);
  }
  return {
    tools: [...tools].sort(),
    anyCommand: [...anyCommand].sort(),
    network,
    read: [...read].sort(),
    write: [...write].sort(),
    undeclared,
  };
}

/**
 * Trust every reviewed candidate at the content hash that was reviewed. A skill whose files changed since (or that
 * is P0 now) is skipped, never trusted unseen. The CLI (`knack skills trust --all`) and the desktop app call this.
 */
export function applyBulkTrust(review: BulkTrustReview, store: Store): BulkTrustResult {
  const trusted: BulkTrustResult['trusted'] = [];
  const skipped: BulkTrustResult['skipped'] = [];
  const skip = (c: BulkCandidate, words: Said) =>
    skipped.push({ name: c.name, tier: c.tier, reason: english(words), words });
  for (const c of review.candidates) {
    let report;
    try {
      report = auditSkill(c.realDir);
    } catch (e) {
      skip(c, say('skillOff.couldNotAudit', { error: (e as Error).message }));
      continue;
    }
    if (report.contentHash !== c.contentHash) {
      skip(c, say('trust.changedAfterReview'));
      continue;
    }
    if (report.level === 'P0') {
      skip(c, say('trust.p0Now'));
      continue;
    }
    store.policy.setTrust(report.skill, report.contentHash, 'trusted');
    trusted.push({ name: c.name, tier: c.tier, contentHash: report.contentHash });
  }
  return { trusted, skipped, refused: review.refused };
}
