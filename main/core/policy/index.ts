// The gate's vocabulary: tool table, permissions, ceiling, rules, the gate, display escaping.
// What other folders may import from core/policy: nothing outside reaches past this file.
export { alwaysSaid, alwaysWidens, recordAnswer } from './answers.js';
export { type Ceiling, type WallView } from './ceiling.js';
export { decisionFields, decisionLines, type DecisionFields } from './decision-fields.js';
export { permissionDiff, type PermissionDiff } from './diff.js';
export { type SkillPolicy } from './gate.js';
export { describeInternal, internalKind, normalizeHost } from './hosts.js';
export {
  COMMAND_TOOLS,
  defaultPermissions,
  describePermissions,
  permissionsFromFrontmatter,
  type ParsedPermissions,
  type Permissions,
} from './permissions.js';
export { callRisks, type RiskLine } from './risks.js';
export { addRule } from './rule-book.js';
export { CATEGORIES, categoryOf, describeRule, parseSkillScope, ruleSaid, skillScopeKey } from './rules.js';
export { accessForArgs, agentMayRead, buildGate, gateOver, ownRoots, workspaceCeiling } from './setup.js';
export { TOOL, TOOLS, toolSpec, toolsWhere, type AccessClass } from './tool-table.js';
export { type Access, type Actor, type Decision, type Gate, type ToolCall } from './types.js';
export { displaySafe, displaySafeLines, invisibleClass } from '../../../preload/display.js';
