// What the window reads off a skill as the contract sends it (skills.list, skills.show, audit.verdict): its audit
// badge, whether it waits for trust, how many problems it has. The skill itself keeps the contract's shape.
import type { Diagnostic, MethodOutput, SkillSummary } from '../../../preload/contract';

export type AuditLevel = 'P0' | 'P1' | 'P2';
export type BrokenSkill = MethodOutput<'skills.list'>['broken'][number];

/** A sidebar row: a listed skill; one whose SKILL.md stopped parsing keeps its row, off, with the error. */
export type SkillRowData = SkillSummary & { broken?: Diagnostic };

/** The level its badge shows: the audit's, or P0 for a blocked skill; none while unknown. */
export function auditLevel(s: SkillSummary): AuditLevel | undefined {
  return s.audit.level ?? (s.audit.status === 'blocked' ? 'P0' : undefined);
}

/** A P1 skill found on disk, waiting for the user to trust it. */
export const waitsForTrust = (s: SkillSummary): boolean => s.audit.status === 'needs-trust';

/** Its audit is still running. */
export const checking = (s: SkillSummary): boolean => s.audit.status === 'checking';

/** Errors and warnings in its SKILL.md (notes are not counted). */
export const problems = (s: SkillSummary): number => s.diagnostics.filter((d) => d.severity !== 'info').length;

/** The diagnostic that kept a SKILL.md out: its first error, else its first diagnostic. */
export function firstProblem(b: BrokenSkill): Diagnostic | undefined {
  return b.diagnostics.find((x) => x.severity === 'error') ?? b.diagnostics[0];
}
