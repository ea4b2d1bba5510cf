// An answer to a gate's `ask`, kept the one way: `always`/`never` become one generalised reusable rule (e.g. a command
// prefix, never a pile of one-offs); `once`/`deny` decide this call only. The tool pipeline and the app's approvals use it.
import type { PolicyRepo, Rule } from '../store/index.js';
import type { Actor, Decision, ToolCall } from './types.js';
import { generaliseRules, loadedScopeKey, ruleSaid, skillScopeKey } from './rules.js';
import type { Said } from '../base/index.js';
import { addRule } from './rule-book.js';
import { ruleWidens, type RiskLine } from './risks.js';

/** How the user answered a tool call the gate marked `ask`. */
export type ToolAnswer = 'once' | 'always' | 'deny' | 'never';

/**
 * Record `answer` to `call`: whether the call may run, and the rules stored. Without a rule store (no database)
 * `always` and `never` still decide this call; nothing is remembered.
 */
export function recordAnswer(
  rules: PolicyRepo | undefined,
  call: ToolCall,
  actor: Actor,
  workspace: string,
  answer: ToolAnswer,
  decision?: Decision,
  only?: number[],
): { allowed: boolean; rules: Rule[] } {
  const allowed = answer === 'once' || answer === 'always';
  if ((answer !== 'always' && answer !== 'never') || !rules) return { allowed, rules: [] };
  const scope = answerScope(actor, decision);
  if (!scope.ok) return { allowed, rules: [] };
  const skill = scope.skill;
  // `only`: the rules of the preview the user kept ticked (by position); unticking narrows, never widens.
  const stored = generaliseRules(call, workspace, answer === 'always' ? 'allow' : 'deny', skill)
    .filter((_, i) => !only || only.includes(i))
    .map((r) => addRule(rules, r).rule);
  return { allowed, rules: stored };
}

/**
 * The skill scope an "always"/"never" is stored with: a skill's script → that skill's identity (tier, real folder,
 * content hash) as the gate reported it; the agent with skills loaded → `loaded:` those identities (the rule holds
 * while they are loaded, with that content); else none. ok = false: nothing reusable can be stored (the identity is
 * unknown, and a name alone would be inherited by a look-alike skill).
 */
function answerScope(actor: Actor, decision?: Decision): { ok: boolean; skill?: string } {
  if (actor.kind === 'skill')
    return decision?.skill ? { ok: true, skill: skillScopeKey(decision.skill) } : { ok: false };
  if (actor.kind === 'agent' && actor.activeSkills.length) {
    return decision?.loaded?.length ? { ok: true, skill: loadedScopeKey(decision.loaded) } : { ok: false };
  }
  return { ok: true };
}

/**
 * For each rule of the preview: whether it would let network calls or writes outside the workspace run unasked from
 * now on (such a rule is never pre-ticked on the approval card).
 */
export function alwaysWidens(
  call: ToolCall,
  actor: Actor,
  workspace: string,
  risks: RiskLine[],
  decision?: Decision,
): ('network' | 'outside' | null)[] {
  const scope = answerScope(actor, decision);
  return scope.ok
    ? generaliseRules(call, workspace, 'allow', scope.skill).map((r) => ruleWidens(r, risks, workspace) ?? null)
    : [];
}

/**
 * What "always" would store for this call, as words the window says in its language (shown before the user picks it;
 * their English is the approval's `alwaysPreview`).
 */
export function alwaysSaid(call: ToolCall, actor: Actor, workspace: string, decision?: Decision): Said[] {
  const scope = answerScope(actor, decision);
  return scope.ok ? generaliseRules(call, workspace, 'allow', scope.skill).map(ruleSaid) : [];
}
