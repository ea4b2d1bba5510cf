// Contract handlers for tools (list, search, MCP server status) and the policy the user controls (rules, ceiling).
import { isAbsolute } from 'node:path';
import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import type { ServiceContext } from './context.js';
import { ruleView } from './views.js';
import type { ConnectionStatus } from '../mcp/index.js';
import type { RegisteredTool } from '../tools/index.js';
import { english, say, WORDS, type Said, type WordCode } from '../base/index.js';

type ToolHandlers = Pick<Handlers, 'tools.list' | 'tools.search' | 'tools.mcpStatus' | 'rules.list' | 'rules.remove'>;

function toolInfo(t: RegisteredTool) {
  const words = summaryWords(t);
  return {
    name: t.def.name,
    source: t.source,
    summary: t.def.summary,
    deferred: t.deferred,
    ...(words ? { words } : {}),
  };
}

/**
 * The words of one of Knack's own tools' summary (`toolSummary.NAME`, or `toolSummary.NAME.STATE` for a tool whose
 * summary follows a state, as bash's follows the sandbox), when their English is the summary the model reads; none
 * for a server's or a catalog's tool (its own text), or when none matches (the summary is shown then).
 */
export function summaryWords(
  t: Pick<RegisteredTool, 'source'> & { def: { name: string; summary: string } },
): Said | undefined {
  if (t.source !== 'builtin' && t.source !== 'meta' && t.source !== 'skill') return undefined;
  const code = `toolSummary.${t.def.name}`;
  for (const c of Object.keys(WORDS))
    if (c === code || c.startsWith(`${code}.`)) {
      const words = say(c as WordCode);
      if (english(words) === t.def.summary) return words;
    }
  return undefined;
}

const STATE: Record<ConnectionStatus['state'], 'connecting' | 'connected' | 'failed' | 'disconnected'> = {
  idle: 'connecting',
  connecting: 'connecting',
  retrying: 'connecting',
  connected: 'connected',
  failed: 'failed',
  closed: 'disconnected',
};

/**
 * A server as the window shows it. Connecting again after a failure (or waiting to), it says which try that is of how
 * many: a server that keeps failing shows "connecting" for minutes before "failed", its last error beside it.
 */
export function mcpView(s: ConnectionStatus) {
  const again = (s.state === 'connecting' || s.state === 'retrying') && s.failures > 0;
  return {
    name: s.name,
    state: STATE[s.state],
    tools: s.tools,
    ...(s.lastError ? { error: s.lastError } : {}),
    ...(again ? { tryWords: say('mcp.try', { n: s.failures + 1, of: s.maxAttempts }) } : {}),
  };
}

export function toolHandlers(ctx: ServiceContext): ToolHandlers {
  return {
    'tools.list': async () => {
      // bash's summary says whether commands run inside the sandbox: known once the sandbox has answered.
      const ws = ctx.workspace();
      const box = await ws.toolbox();
      await ws.wall().catch(() => undefined);
      return { tools: box.registry.list().map(toolInfo) };
    },
    'tools.search': async ({ query, limit }) => {
      const box = await ctx.workspace().toolbox();
      const result = box.index.search(query, limit);
      const hits = result.tools.flatMap((h) => {
        const t = box.registry.get(h.name);
        return t ? [{ ...toolInfo(t), score: h.score }] : [];
      });
      return { hits };
    },
    'tools.mcpStatus': async () => {
      const box = await ctx.workspace().toolbox();
      return { servers: box.mcp.status().map(mcpView) };
    },
    'rules.list': () => ({ rules: ctx.store().policy.rules().map(ruleView) }),
    'rules.remove': ({ id }) => {
      const removed = ctx.store().policy.removeRule(id);
      if (!removed) throw new ServiceError('not_found', say('rules.none', { id }));
      return { removed };
    },
  };
}

/** Extra read/write roots must be absolute: a relative root would mean something different in every workspace. */
export function checkRoots(roots: string[] | undefined, field: string): void {
  for (const r of roots ?? []) {
    if (!isAbsolute(r)) throw new ServiceError('invalid_input', say('ceiling.notAbsolute', { field, path: r }));
  }
}
