// CLI: `knack mcp trust|untrust NAME`: trust a server of the workspace's mcp.json as it is now, or no longer, in the
// same record the window keeps (mcp-trust.json in the data folder), changed holding the same lock (mcp/lock.ts). A
// trusted server starts when the workspace opens, in the window and in `knack tools`, until its entry changes.
import { Refusal } from '../core/base/index.js';
import { displaySafe } from '../core/policy/index.js';
import {
  listMcpEntries,
  loadMcpConfig,
  trustMcpServer,
  trustedMcpServers,
  withMcpEditLock,
  workspaceMcpPath,
  type McpServerConfig,
} from '../core/mcp/index.js';
import { CliError, printJson, type Command, type CommandContext } from './command.js';
import { confirm } from './trust.js';
import { printDiagnostic } from './workspace.js';

function nameOf(ctx: CommandContext): string {
  const name = ctx.positionals[0];
  if (!name) throw new CliError(`missing NAME (a server of ${workspaceMcpPath(ctx.workspace)})`);
  return name;
}

/** The workspace's server `name` as it would start (the loader's own reading of the file), or why there is none. */
function workspaceServer(ctx: CommandContext, name: string): McpServerConfig {
  const file = workspaceMcpPath(ctx.workspace);
  const { held, diagnostics } = loadMcpConfig(ctx.paths.dataDir, ctx.workspace, { trustWorkspace: false });
  const server = held.find((s) => s.name === name);
  if (server) return server;
  for (const d of diagnostics.filter((x) => x.file === file)) printDiagnostic(ctx, d);
  const entry = listMcpEntries(ctx.paths.dataDir, ctx.workspace).entries.find(
    (e) => e.scope === 'project' && e.name === name,
  );
  if (entry && !entry.enabled) throw new CliError(`"${name}" in ${file} is turned off (disabled: true): not trusted`);
  if (entry) throw new CliError(`"${name}" in ${file} cannot be read as a server (see above): not trusted`);
  throw new CliError(`no server "${name}" in ${file}`);
}

/** What the server runs or reaches, as the question shows it (control and bidi characters escaped). */
function whatItRuns(s: McpServerConfig): string {
  if (s.kind === 'http') return displaySafe(s.url);
  return displaySafe([s.command, ...s.args].map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a))).join(' '));
}

/** Change the trust record holding the MCP edit lock; a busy lock or a record that refuses the change is said. */
async function changeTrust(ctx: CommandContext, name: string, config: McpServerConfig | undefined): Promise<void> {
  try {
    await withMcpEditLock(ctx.paths.dataDir, () => trustMcpServer(ctx.paths.dataDir, ctx.workspace, name, config));
  } catch (e) {
    if (e instanceof Refusal) throw new CliError(e.message, 1);
    if (typeof (e as NodeJS.ErrnoException).code === 'string') throw new CliError((e as Error).message, 1);
    throw e;
  }
}

const trust: Command = {
  path: ['mcp', 'trust'],
  summary:
    "Trust a server of the workspace's mcp.json as it is now: it starts when the workspace opens (asks; --yes skips).",
  usage: 'NAME [--yes] [--json]',
  options: { yes: { type: 'boolean' } },
  maxPositionals: 1,
  async run(ctx) {
    const name = nameOf(ctx);
    const server = workspaceServer(ctx, name);
    const runs = whatItRuns(server);
    if (!ctx.values.yes) {
      const q = `Trust MCP server "${name}" of ${server.source}? It runs ${runs} with your access. [y/N]`;
      if (!(await confirm(ctx, q))) throw new CliError(`not trusted: answer yes on a terminal, or pass --yes`, 1);
    }
    await changeTrust(ctx, name, server);
    if (ctx.json) printJson(ctx.io, { name, file: server.source, trusted: true, runs });
    else ctx.io.out(`trusted "${name}" (${runs}): it starts when ${ctx.workspace} opens, until its entry changes`);
    return 0;
  },
};

const untrust: Command = {
  path: ['mcp', 'untrust'],
  summary: "Trust a server of the workspace's mcp.json no longer: it does not start until trusted again.",
  usage: 'NAME [--json]',
  maxPositionals: 1,
  async run(ctx) {
    const name = nameOf(ctx);
    const was = name in trustedMcpServers(ctx.paths.dataDir, ctx.workspace);
    if (was) await changeTrust(ctx, name, undefined);
    if (ctx.json) printJson(ctx.io, { name, trusted: false, changed: was });
    else ctx.io.out(was ? `"${name}" is no longer trusted in ${ctx.workspace}` : `"${name}" was not trusted`);
    return 0;
  },
};

export const mcpCommands: Command[] = [trust, untrust];
