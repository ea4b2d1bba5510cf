// CLI for tools: `knack tools list|search|call|mcp` over the real registry, MCP connectors from mcp.json,
// imported catalogs, ToolSearch and the real policy gate (ask → a question on the terminal).
import { CliError, jsonFlag, printJson, stringFlag, type Command, type CommandContext } from './command.js';
import { approvalQuestion } from './approval.js';
import { confirmOf, openWorkspaceFor, printDiagnostic } from './workspace.js';
import {
  loadMcpConfig,
  mcpTrustKey,
  trustedMcpServers,
  workspaceMcpPath,
  type McpServerConfig,
} from '../core/mcp/index.js';
import { readCatalogFile, type ImportedCatalog } from '../core/tools/index.js';
import type { Toolbox } from '../core/toolbox.js';
import type { Approver } from '../core/tools/index.js';
import { join } from 'node:path';
import { displaySafe } from '../core/policy/index.js';

const MCP_OPTIONS = {
  'no-mcp': { type: 'boolean' as const },
  'trust-mcp': { type: 'boolean' as const },
  catalog: { type: 'string' as const, multiple: true as const },
};

function catalogsOf(ctx: CommandContext): ImportedCatalog[] {
  const raw = ctx.values.catalog;
  const files = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const catalogs: ImportedCatalog[] = [];
  for (const f of files) {
    const c = readCatalogFile(f);
    if (c.tools.length === 0 && c.problems.length)
      throw new CliError(c.problems.map((p) => `${p.where}: ${p.message}`).join('\n'));
    for (const p of c.problems.slice(0, 20)) ctx.io.err(`warning: ${p.where}: ${p.message}`);
    if (c.problems.length > 20) ctx.io.err(`warning: … and ${c.problems.length - 20} more problems in ${f}`);
    catalogs.push(c);
  }
  return catalogs;
}

/**
 * Workspace mcp.json servers run commands from a folder that may have come with a clone: they start when trusted as
 * they are now (`knack mcp trust`, or the window), or with --trust-mcp.
 */
function mcpServersOf(ctx: CommandContext): McpServerConfig[] {
  if (ctx.values['no-mcp']) return [];
  const trusted = trustedMcpServers(ctx.paths.dataDir, ctx.workspace);
  const { servers, held, diagnostics } = loadMcpConfig(ctx.paths.dataDir, ctx.workspace, {
    trustWorkspace: ctx.values['trust-mcp'] === true,
    trusted: (s) => trusted[s.name] === mcpTrustKey(s),
  });
  for (const d of diagnostics) printDiagnostic(ctx, d);
  for (const s of held) {
    const mine = servers.some((u) => u.name === s.name) ? ' (your own server of that name is used)' : '';
    ctx.io.err(
      `note: MCP server "${s.name}" from ${workspaceMcpPath(ctx.workspace)} not started: workspace servers run once trusted (knack mcp trust ${s.name}) or with --trust-mcp${mine}`,
    );
  }
  return servers;
}

/**
 * The workspace's tool box: built-ins, the skill tools, run_skill_script, MCP connectors (from mcp.json) and imported
 * catalogs, over the real gate (settings ceiling, stored rules, the trust-reviewed catalog's manifests).
 */
async function open(ctx: CommandContext, approver?: Approver): Promise<{ box: Toolbox; close(): Promise<void> }> {
  const catalogs = catalogsOf(ctx);
  const ws = await openWorkspaceFor(ctx, {
    ...(approver ? { approver } : {}),
    mcpServers: mcpServersOf(ctx),
    toolCatalogs: catalogs,
    // The CLI is one short process: a server that fails its first attempt is reported, not retried.
    mcpBackoff: { initialMs: 500, maxMs: 500, maxAttempts: 1 },
  });
  try {
    // A one-shot call is about to run: the gate judges it with the sandbox up (or known to be unavailable).
    const [box] = await Promise.all([ws.toolbox(), ws.wall()]);
    return { box, close: () => ws.close() };
  } catch (e) {
    await ws.close();
    throw e;
  }
}

function limitOf(ctx: CommandContext, dflt: number): number {
  const v = stringFlag(ctx, 'limit');
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new CliError(`--limit: expected a whole number from 1 to 1000, got "${v}"`);
  return n;
}

const list: Command = {
  path: ['tools', 'list'],
  summary: 'List tools: always-loaded ones with their schemas in the prompt, deferred ones found with ToolSearch.',
  usage: '[--deferred] [--catalog FILE.json] [--no-mcp] [--trust-mcp] [--json]',
  options: { deferred: { type: 'boolean' }, ...MCP_OPTIONS },
  async run(ctx) {
    const { box, close } = await open(ctx);
    try {
      const rows = box.registry.list(ctx.values.deferred ? { deferred: true } : {});
      const cost = box.promptCost();
      if (ctx.json) {
        printJson(ctx.io, {
          tools: rows.map((t) => ({
            name: t.def.name,
            summary: t.def.summary,
            deferred: t.deferred,
            risk: t.def.risk,
            source: t.source,
          })),
          mcp: box.mcp.status(),
          promptTokens: cost,
        });
        return 0;
      }
      const width = Math.min(48, Math.max(...rows.map((r) => r.def.name.length), 4));
      for (const t of rows)
        ctx.io.out(
          `${t.def.name.padEnd(width)}  ${t.deferred ? 'deferred' : 'loaded  '}  ${t.def.risk.padEnd(7)}  ${displaySafe(t.def.summary)}`,
        );
      for (const s of box.mcp.status()) {
        ctx.io.out(
          `mcp ${s.name}: ${s.state}${s.state === 'connected' ? ` (${s.tools} tools)` : ''}${s.lastError ? ` — ${displaySafe(s.lastError)}` : ''}`,
        );
      }
      ctx.io.out(
        `\n${rows.length} tools (${box.registry.list({ deferred: true }).length} deferred). Tool section of the prompt: ${cost.deferredTokens} tokens with deferral, ${cost.allLoadedTokens} if all were loaded (${(cost.ratio * 100).toFixed(1)}%).`,
      );
      return 0;
    } finally {
      await close();
    }
  },
};

const search: Command = {
  path: ['tools', 'search'],
  summary: 'Search the deferred tools as the model does with ToolSearch (also an exact name or select:a,b).',
  usage: '"QUERY" [--limit N] [--catalog FILE.json] [--no-mcp] [--trust-mcp] [--json]',
  options: { limit: { type: 'string', short: 'n' }, ...MCP_OPTIONS },
  async run(ctx) {
    const query = ctx.positionals.join(' ').trim();
    if (!query) throw new CliError('missing QUERY\nusage: knack tools search "QUERY" [--limit N]');
    const limit = limitOf(ctx, 5);
    const { box, close } = await open(ctx);
    try {
      const r = box.index.search(query, limit);
      if (ctx.json) {
        printJson(ctx.io, {
          query,
          mode: r.mode,
          tools: r.tools.map((t) => ({
            name: t.name,
            description: t.summary,
            score: Number.isFinite(t.score) ? t.score : null,
          })),
          ...(r.missing ? { missing: r.missing } : {}),
        });
        return r.tools.length ? 0 : 1;
      }
      if (!r.tools.length)
        ctx.io.out(`no deferred tool matches "${query}" (${box.index.size} deferred tools searched)`);
      for (const t of r.tools) ctx.io.out(`${t.name}\n    ${displaySafe(t.summary)}`);
      if (r.missing?.length) ctx.io.err(`not found: ${r.missing.join(', ')}`);
      return r.tools.length ? 0 : 1;
    } finally {
      await close();
    }
  },
};

const call: Command = {
  path: ['tools', 'call'],
  summary:
    'Run one tool through validation and the policy gate (you are asked on the terminal when the gate says ask).',
  usage: 'NAME --args JSON [--yes] [--no-mcp] [--trust-mcp] [--json]',
  options: { args: { type: 'string' }, yes: { type: 'boolean' }, ...MCP_OPTIONS },
  async run(ctx) {
    const name = ctx.positionals[0];
    if (!name) throw new CliError('missing NAME\nusage: knack tools call NAME --args JSON');
    const args = jsonFlag(ctx, 'args') ?? {};
    const approver: Approver = async (req) => {
      const q = approvalQuestion(req);
      if (ctx.values.yes && req.decision?.rulesUnreadable) {
        // A deny rule the user wrote may be among the rules that cannot be read: only a person answers now.
        ctx.io.err(`${q} no: --yes does not answer while your rules cannot be read`);
        return 'deny';
      }
      if (ctx.values.yes) {
        ctx.io.err(`${q} yes (--yes)`);
        return 'once';
      }
      return (await (confirmOf(ctx) ?? (async () => false))(q)) ? 'once' : 'deny';
    };
    const { box, close } = await open(ctx, approver);
    try {
      const r = await box.session.deferExecute(name, args, { workspace: ctx.workspace, actor: { kind: 'user' } });
      if (ctx.json) printJson(ctx.io, r);
      else if (r.ok) ctx.io.out(typeof r.content === 'string' ? r.content : JSON.stringify(r.content, null, 2));
      else ctx.io.err(`${r.error.code}: ${displaySafe(r.error.message)}`);
      return r.ok ? 0 : 1;
    } finally {
      await close();
    }
  },
};

const mcpStatus: Command = {
  path: ['tools', 'mcp'],
  summary: 'Connect the configured MCP servers once and show each one: state, tools, last error and stderr.',
  usage: '[--trust-mcp] [--json]',
  options: { 'trust-mcp': { type: 'boolean' } },
  async run(ctx) {
    // For display only (open() reports the config's problems once).
    const servers = loadMcpConfig(ctx.paths.dataDir, ctx.workspace, {
      trustWorkspace: ctx.values['trust-mcp'] === true,
    }).servers;
    const { box, close } = await open(ctx);
    try {
      const status = box.mcp.status();
      if (ctx.json) {
        printJson(ctx.io, {
          servers: status.map((s) => ({ ...s, source: servers.find((c) => c.name === s.name)?.source })),
        });
      } else if (!status.length) {
        ctx.io.out(
          `no MCP servers configured (user: ${join(ctx.paths.dataDir, 'mcp.json')}, workspace: ${workspaceMcpPath(ctx.workspace)})`,
        );
      }
      if (!ctx.json) {
        for (const s of status) {
          const cfg = servers.find((c) => c.name === s.name);
          ctx.io.out(
            `${s.name}: ${s.state}${s.state === 'connected' ? `, ${s.tools} tools` : ''}  (${cfg?.kind === 'http' ? cfg.url : cfg ? `${cfg.command} ${cfg.args.join(' ')}` : ''}; from ${cfg?.source ?? '?'})`,
          );
          if (s.lastError) ctx.io.out(`    error: ${displaySafe(s.lastError)}`);
          for (const line of s.stderrTail?.slice(-3) ?? []) ctx.io.out(`    stderr: ${displaySafe(line)}`);
        }
      }
      return status.every((s) => s.state === 'connected') ? 0 : 1;
    } finally {
      await close();
    }
  },
};

export const toolsCommands: Command[] = [list, search, call, mcpStatus];
