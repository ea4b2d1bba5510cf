// An answer to a gate's `ask`, kept the one way: `always`/`never` become one generalised reusable rule (e.g. a command
// prefix, never a pile of one-offs); `once`/`deny` decide this call only. The tool pipeline and the app's approvals use it.
import type { PolicyRepo, Rule } from '../store/policy-repo.js';
import type { Actor, Decision, ToolCall } from './types.js';
import { generaliseRules, skillScopeKey } from './rules.js';
import { addRule } from './rule-book.js';

/** How the user answered a tool call the gate marked `ask`. */
export type ToolAnswer = 'once' | 'always' | 'deny' | 'never';

/**
 * Record `answer` to `call`: whether the call may run, and the rules stored. Without a rule store (no database)
 * `always` and `never` still decide this call; nothing is remembered.
 */
export function recordAnswer(
  rules: PolicyRepo | undefined, call: ToolCall, actor: Actor, workspace: string, answer: ToolAnswer, decision?: Decision,
): { allowed: boolean; rules: Rule[] } {
  const allowed = answer === 'once' || answer === 'always';
  if ((answer !== 'always' && answer !== 'never') || !rules) return { allowed, rules: [] };
  // A skill's rule binds to the identity the gate reported (tier + real folder + hash); without it, nothing reusable
  // is stored (a name alone would be inherited by a look-alike skill).
  if (actor.kind === 'skill' && !decision?.skill) return { allowed, rules: [] };
  const skill = actor.kind === 'skill' && decision?.skill ? skillScopeKey(decision.skill) : undefined;
  const stored = generaliseRules(call, workspace, answer === 'always' ? 'allow' : 'deny', skill).map((r) => addRule(rules, r).rule);
  return { allowed, rules: stored };
}
