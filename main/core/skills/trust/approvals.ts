// A pending skill install/update as the window and the CLI list it: the stored approval row with its report read back.
import { existsSync } from 'node:fs';
import type { ApprovalRow } from '../../store/index.js';
import type { Finding } from './audit.js';
import type { PermissionDiff } from '../../policy/index.js';
import type { Permissions } from '../../policy/index.js';

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
