// The approvals interface the desktop app (and the CLI) call: pending skill installs/updates, and answers to tool-call asks.
// A tool-call "always" becomes one generalised reusable rule (e.g. a command prefix), never a pile of one-offs.
import { existsSync } from 'node:fs';
import type { Store } from '../../store/index.js';
import type { ApprovalRow, Rule } from '../../store/index.js';
import type { Finding } from './audit.js';
import type { PermissionDiff } from '../../policy/index.js';
import type { Permissions } from '../../policy/index.js';
import type { Actor, Decision, ToolCall } from '../../policy/index.js';
import { recordAnswer, type ToolAnswer } from '../../policy/index.js';
import { approvePendingInstall, type InstallResult } from './install.js';
import { trustSkill, type TrustResult } from './trust.js';

export interface PendingApproval {
  id: string;
  kind: ApprovalRow['kind'];
  skill: string;
  tier: string;
  source: string;
  target: string;
  level: string;
  contentHash: string;
  findings: Finding[];
  diff: PermissionDiff | null;
  permissions: Permissions | null;
  createdAt: number;
  /** What it would install is gone (its held copy removed, its folder deleted): it can only be dismissed. */
  gone?: true;
}

export interface Approvals {
  /** Skill installs/updates waiting for the user. */
  pending(): PendingApproval[];
  /** Approve: the install runs again and only completes if the content is still the one audited. */
  approve(id: string): InstallResult;
  reject(id: string): boolean;
  /** Trust a discovered (not installed) P1 skill as its files are now; P0 is refused. */
  trust(dir: string): TrustResult;
  /**
   * Record an answer to an `ask`: `always`/`never` persist as generalised rules (returned). For a skill's call the
   * rule binds to the skill identity in `decision.skill` (tier + real folder + hash); without it, to nothing reusable.
   */
  answerToolCall(
    call: ToolCall,
    actor: Actor,
    workspace: string,
    answer: ToolAnswer,
    decision?: Decision,
  ): { allowed: boolean; rules: Rule[] };
}

export function toPending(row: ApprovalRow): PendingApproval {
  let parsed: { findings?: Finding[]; diff?: PermissionDiff | null; permissions?: Permissions | null } = {};
  try {
    parsed = JSON.parse(row.reportJson) as typeof parsed;
  } catch {
    /* keep empty */
  }
  return {
    id: row.id,
    kind: row.kind,
    skill: row.skill,
    tier: row.tier,
    source: row.source,
    target: row.target,
    level: row.level,
    contentHash: row.contentHash,
    findings: parsed.findings ?? [],
    diff: parsed.diff ?? null,
    permissions: parsed.permissions ?? null,
    createdAt: row.createdAt,
    ...(row.kind !== 'discovered' && !existsSync(row.source) ? { gone: true as const } : {}),
  };
}

export function createApprovals(store: Store): Approvals {
  return {
    pending: () => store.policy.approvals('pending').map(toPending),
    approve: (id) => approvePendingInstall(store, id),
    reject: (id) => store.policy.decideApproval(id, 'rejected'),
    trust: (dir) => trustSkill(dir, store),
    answerToolCall: (call, actor, workspace, answer, decision) =>
      recordAnswer(store.policy, call, actor, workspace, answer, decision),
  };
}
