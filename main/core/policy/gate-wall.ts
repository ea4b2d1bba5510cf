// The OS sandbox as the gate sees it: whether a call is a command, the wall it would run in, and the hosts its proxy
// lets a contained command reach. The gate decides whether a command runs; this says what it is contained by.
import type { Actor, ToolCall } from './types.js';
import type { Ceiling, WallView } from './ceiling.js';
import { canonicalToolName, COMMAND_TOOLS } from './permissions.js';
import type { Rule } from '../store/index.js';
import type { SkillPolicy } from './gate-manifest.js';

/** A call that runs a command (a command line, or one of the command tools). */
export function isCommandCall(call: ToolCall): boolean {
  return call.access.command !== undefined || COMMAND_TOOLS.has(canonicalToolName(call.tool));
}

/** The sandbox a command would run in, as it is now; undefined for a call that is not a command. */
export function commandWall(call: ToolCall, ceiling: Ceiling): WallView | undefined {
  return isCommandCall(call) ? ceiling.wall?.() : undefined;
}

/**
 * For a command that runs inside the OS sandbox, the hosts its proxy lets it reach: none with the network off;
 * else the hosts every acting skill lists (a skill without network: none), or, when no acting skill lists any, the
 * hosts of the user's allow rules for this workspace. Undefined when the command does not run inside it.
 */
export function containedHosts(
  call: ToolCall,
  actor: Actor,
  ceiling: Ceiling,
  skill: (name: string) => SkillPolicy | undefined,
  rules: () => Rule[],
): string[] | undefined {
  const wall = isCommandCall(call) && !call.access.unsandboxed ? ceiling.wall?.() : undefined;
  if (!wall || !wall.available || wall.mode === 'off') return undefined;
  if (!ceiling.network) return [];
  const names = actor.kind === 'skill' ? [actor.skill] : actor.kind === 'agent' ? actor.activeSkills : [];
  const acting = names
    .map((n) => skill(n))
    .filter((s): s is SkillPolicy => s !== undefined && (actor.kind === 'skill' || s.permissions.declared !== 'none'));
  if (acting.some((s) => !s.permissions.network)) return [];
  const lists = acting.map((s) => s.permissions.hosts).filter((h): h is string[] => h !== undefined);
  if (lists.length) return lists.reduce((a, b) => a.filter((h) => b.includes(h)));
  const hosts = rules()
    .filter((r) => r.effect === 'allow' && r.host && (r.workspace === undefined || r.workspace === ceiling.workspace))
    .map((r) => r.host!);
  return [...new Set(hosts)];
}
