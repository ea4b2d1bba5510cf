// What a gate decision shows wherever it is shown (terminal prompt, app approval card, session log): the rule that
// spoke, its scope, the acting skill's identity and the real paths checked. Plain data; escaping happens where shown.
import type { Decision, SkillIdentity } from './types.js';
import { displaySafe } from '../../../preload/display.js';

/** The parts of a decision a person approving (or reading the log) needs besides the verdict and the reason. */
export type DecisionFields = Pick<
  Decision,
  'ruleId' | 'rule' | 'scope' | 'ruleWords' | 'scopeWords' | 'skill' | 'paths'
>;

/** The decision's fields that are set (none of them: an empty object). */
export function decisionFields(d: Decision | undefined): DecisionFields {
  if (!d) return {};
  const out: DecisionFields = {};
  if (d.ruleId !== undefined) out.ruleId = d.ruleId;
  if (d.rule !== undefined) out.rule = d.rule;
  if (d.scope !== undefined) out.scope = d.scope;
  if (d.ruleWords) out.ruleWords = d.ruleWords;
  if (d.scopeWords) out.scopeWords = d.scopeWords;
  if (d.skill) out.skill = { ...d.skill };
  if (d.paths && (d.paths.read.length || d.paths.write.length))
    out.paths = { read: [...d.paths.read], write: [...d.paths.write] };
  return out;
}

/** A skill's identity in one escaped line: `deploy (user tier, /home/u/.workbuddy/skills/deploy, content 0123456789ab)`. */
function describeIdentity(id: SkillIdentity): string {
  const parts = [
    id.tier ? `${id.tier} tier` : 'tier unknown',
    id.dir,
    id.hash ? `content ${id.hash.slice(0, 12)}` : 'content not checked',
  ];
  return displaySafe(`${id.name} (${parts.join(', ')})`);
}

/** The fields as escaped lines for a terminal or a log (`rule: …`, `scope: …`, `skill: …`, `reads: …`, `writes: …`). */
export function decisionLines(f: DecisionFields): string[] {
  const out: string[] = [];
  if (f.rule) out.push(`rule: ${displaySafe(f.rule)}`);
  if (f.scope) out.push(`scope: ${displaySafe(f.scope)}`);
  if (f.skill) out.push(`skill: ${describeIdentity(f.skill)}`);
  if (f.paths?.read.length) out.push(`reads: ${f.paths.read.map(displaySafe).join(', ')}`);
  if (f.paths?.write.length) out.push(`writes: ${f.paths.write.map(displaySafe).join(', ')}`);
  return out;
}
