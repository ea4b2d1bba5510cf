// Tool names: what a valid name looks like, the `mcp__<server>__<tool>` namespace for connector tools,
// and the words a name splits into for search (camelCase, snake_case, `__`).
import { splitIdentifiers } from '../search/index.js';

/** Names the model can call: letters, digits, `_` and `-`, at most 64 characters (the providers' limit). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

/** Make a server or tool name safe for the namespace: other characters become `_`. */
export function sanitizeNamePart(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_').replace(/__+/g, '_');
}

/** `mcp__<server>__<tool>`, shortened to the 64-character limit with a stable suffix when needed. */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (full.length <= 64) return full;
  let h = 0;
  for (const c of full) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return `${full.slice(0, 56)}_${h.toString(36).slice(0, 7)}`;
}

/** Words of a name for search: `mcp__github__listPullRequests` → `mcp github list Pull Requests`. */
export function nameWords(name: string): string {
  return splitIdentifiers(name).replace(/\s+/g, ' ').trim();
}
