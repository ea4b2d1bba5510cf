// Whether a skill may act: audit, trust decisions, install and update with approval.
// What other folders may import from core/skills/trust: nothing outside reaches past this file.
export { toPending, type PendingApproval } from './approvals.js';
export { auditSkill, formatFinding, listSkillFiles, type AuditReport, type Finding } from './audit.js';
export { auditDraft, stageDraft } from './drafts.js';
export { applyBulkTrust, reviewBulkTrust, type BulkTrustReview } from './bulk-trust.js';
export { approvePendingInstall, installSkill, type InstallResult } from './install.js';
export {
  auditCached,
  createTrustReview,
  trustSkill,
  unchangedHash,
  type TrustReview,
  type TrustReviewOptions,
} from './trust.js';
export {
  dropHeld,
  heldSourceProblem,
  holderOf,
  rejectHeldInstall,
  settleHeld,
  sweepHeldAtOpen,
  SWEEP_GRACE_MS,
} from './held.js';
