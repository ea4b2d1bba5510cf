// permissionDiff(old, new): what an update adds — tools, commands, network and its hosts, read/write paths. Any widening
// makes it P1.
import { english, say, type Said } from '../base/index.js';
import type { Permissions } from './permissions.js';
import { hostCovers } from './hosts.js';

export interface PermissionDiff {
  addedTools: string[];
  removedTools: string[];
  /** Command patterns newly allowed (or a command tool that became unrestricted: `bash(*)`). */
  addedCommands: string[];
  networkTurnedOn: boolean;
  /** Hosts the new network list names that the old one did not cover (the network on in both). */
  addedHosts: string[];
  /** The old manifest named its hosts, the new one names none (then the user's host rules decide). */
  anyHost: boolean;
  addedRead: string[];
  addedWrite: string[];
  /** True when the new manifest may do anything the old one could not. */
  widened: boolean;
  /** One line per change as words (`diff.added` / `diff.removed` around the change), said in the window's language. */
  words: Said[];
  /** `words` in English, for the CLI and stored text. */
  lines: string[];
}

function patterns(p: Permissions, tool: string): string[] | undefined {
  const c = p.commands[tool];
  if (!p.tools.includes(tool)) return [];
  if (!c || c.length === 0) return undefined; // unrestricted
  return c.map((x) => (x.exact ? x.text : `${x.text}:*`));
}

/**
 * True when glob `old` already allows everything `next` does (conservative: equal, `**`, or a `dir/**` prefix,
 * never across the workspace / `skill:` bases). Anything it cannot prove counts as new.
 */
export function globCovers(old: string, next: string): boolean {
  if (old === next) return true;
  const base = (g: string) => (g.startsWith('skill:') ? 'skill:' : '');
  if (base(old) !== base(next)) return false;
  const o = old.slice(base(old).length);
  const n = next.slice(base(next).length);
  if (o === '**') return true;
  return o.endsWith('/**') && n.startsWith(o.slice(0, -2));
}

const uncovered = (before: string[], after: string[]) => after.filter((g) => !before.some((o) => globCovers(o, g)));

export function permissionDiff(old: Permissions | undefined, next: Permissions): PermissionDiff {
  const before: Permissions = old ?? { tools: [], commands: {}, network: false, read: [], write: [], declared: 'none' };
  const addedTools = next.tools.filter((t) => !before.tools.includes(t));
  const removedTools = before.tools.filter((t) => !next.tools.includes(t));
  const addedCommands: string[] = [];
  for (const t of next.tools) {
    if (addedTools.includes(t)) continue;
    const a = patterns(before, t);
    const b = patterns(next, t);
    if (a === undefined) continue; // was unrestricted already
    if (b === undefined) {
      if (Object.hasOwn(next.commands, t) || Object.hasOwn(before.commands, t)) addedCommands.push(`${t}(*)`);
      continue;
    }
    for (const x of b) if (!a.includes(x)) addedCommands.push(`${t}(${x})`);
  }
  const networkTurnedOn = next.network && !before.network;
  // With the network on before and after, a host list that grows or goes away lets its commands reach more hosts.
  const both = next.network && before.network && before.hosts !== undefined;
  const anyHost = both && next.hosts === undefined;
  const addedHosts = both ? (next.hosts ?? []).filter((h) => !before.hosts!.some((o) => hostCovers(o, h))) : [];
  const addedRead = uncovered(before.read, next.read);
  const addedWrite = uncovered(before.write, next.write);
  const added = [
    ...addedTools.map((tool) => say('diff.tool', { tool })),
    ...addedCommands.map((command) => say('diff.command', { command })),
    ...(networkTurnedOn ? [say('diff.network')] : []),
    ...(anyHost ? [say('diff.anyHost')] : []),
    ...addedHosts.map((host) => say('diff.host', { host })),
    ...addedRead.map((glob) => say('diff.read', { glob })),
    ...addedWrite.map((glob) => say('diff.write', { glob })),
  ];
  const words = [
    ...added.map((change) => say('diff.added', { change })),
    ...removedTools.map((tool) => say('diff.removed', { change: say('diff.tool', { tool }) })),
  ];
  const widened = added.length > 0;
  return {
    addedTools,
    removedTools,
    addedCommands,
    networkTurnedOn,
    addedHosts,
    anyHost,
    addedRead,
    addedWrite,
    widened,
    words,
    lines: words.map(english),
  };
}
