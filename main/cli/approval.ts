// The terminal approval prompt: what would run, who asks, why the gate asks and which rule spoke — every piece
// passed through the shared display escaping, so nothing in a path or command can rewrite the prompt.
import type { Access, Actor, Decision } from '../core/policy/index.js';
import { displaySafe } from '../core/policy/index.js';
import { decisionFields, decisionLines } from '../core/policy/index.js';
import { COMMAND_TOOLS } from '../core/policy/index.js';

export interface ApprovalQuestion {
  tool: string;
  args: Record<string, unknown>;
  access?: Access;
  actor: Actor;
  reason: string;
  decision?: Decision;
}

function who(actor: Actor, d?: Decision): string {
  if (actor.kind === 'user') return 'you';
  if (actor.kind === 'skill') {
    const id = d?.skill;
    return id
      ? `skill "${id.name}" (${id.tier ?? 'unknown tier'}, ${id.dir}${id.hash ? `, ${id.hash.slice(0, 12)}` : ''})`
      : `skill "${actor.skill}"`;
  }
  return actor.activeSkills.length ? `the agent (skills loaded: ${actor.activeSkills.join(', ')})` : 'the agent';
}

/** The lines of an approval question, each safe to print on a terminal. Ends with "allow once?". */
export function approvalQuestion(q: ApprovalQuestion): string {
  const what =
    typeof q.access?.command === 'string' && COMMAND_TOOLS.has(q.tool)
      ? `${q.tool}: ${q.access.command}`
      : `${q.tool} ${JSON.stringify(q.args)}`;
  const lines = [
    displaySafe(what),
    `  who: ${displaySafe(who(q.actor, q.decision))}`,
    `  why: ${displaySafe(q.reason)}`,
  ];
  // The rule and its scope, the acting skill's identity, the real paths checked (decisionLines escapes each).
  for (const l of decisionLines(decisionFields(q.decision))) lines.push(`  ${l}`);
  lines.push('  allow once?');
  return lines.join('\n');
}
