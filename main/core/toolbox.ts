// Assembles the tool layer for one workspace: registry (deferral from settings), built-ins, MCP connectors,
// imported catalogs, the deferred index, executor over the injected gate, a session and the two meta tools.
import type { Settings } from './config/index.js';
import type { Gate } from './policy/index.js';
import type { Expander } from './search/index.js';
import type { Diagnostic } from './base/index.js';
import { McpManager } from './mcp/index.js';
import type { McpServerConfig } from './mcp/index.js';
import type { BackoffOptions, ConnectionStatus } from './mcp/index.js';
import { builtinTools, mcpResourceTools } from './tools/index.js';
import { webFetchTool } from './tools/index.js';
import type { ImportedCatalog } from './tools/index.js';
import { bindDeferredIndex } from './tools/index.js';
import { ToolExecutor, type Approver, type ExecutorOptions } from './tools/index.js';
import type { PolicyRepo } from './store/index.js';
import { deferExecuteTool, toolSearchTool } from './tools/index.js';
import { ToolRegistry, type AnyTool, type ToolSource } from './tools/index.js';
import { ToolSession } from './tools/index.js';
import type { ToolSearchIndex } from './tools/index.js';
import { toolSectionCost, type PromptTool, type ToolSectionCost } from './tools/index.js';
import type { Wall } from './contain/index.js';

export interface ToolboxOptions {
  workspace: string;
  settings: Settings;
  gate: Gate;
  approver?: Approver;
  /** Where an "always" answer is kept (the store's policy repository). */
  rules?: PolicyRepo;
  onDecision?: ExecutorOptions['onDecision'];
  /** Servers to connect (from loadMcpConfig). */
  mcpServers?: McpServerConfig[];
  backoff?: BackoffOptions;
  catalogs?: ImportedCatalog[];
  /** More tools to register, e.g. the skill engine's tools (skillTools()) with source 'skill'. */
  extraTools?: { tools: AnyTool[]; source: ToolSource }[];
  expander?: Expander;
  onDiagnostic?: (d: Diagnostic) => void;
  /** Every MCP server's state, each time one changes (connecting, connected, down). */
  onMcpStatus?: (servers: ConnectionStatus[]) => void;
  /** The workspace's OS sandbox (core/contain): every command the tools start runs inside it. */
  wall?: Promise<Wall>;
}

export interface Toolbox {
  registry: ToolRegistry;
  index: ToolSearchIndex;
  executor: ToolExecutor;
  session: ToolSession;
  mcp: McpManager;
  /** Tokens of the tool section with and without deferral, for this session's current state. */
  promptCost(): ToolSectionCost;
  /**
   * The user changed the ceiling while the workspace stays open: the tools it offers (and web_fetch, with the network)
   * are registered or removed in place; sessions see the change at their next turn. The gate judges calls on its own.
   */
  setCeiling(ceiling: Settings['policy']['ceiling']): void;
  close(): Promise<void>;
}

function promptTool(t: {
  def: { name: string; description: string; inputSchema: Record<string, unknown> };
}): PromptTool {
  return { name: t.def.name, description: t.def.description, inputSchema: t.def.inputSchema };
}

export async function openToolbox(opts: ToolboxOptions): Promise<Toolbox> {
  const registry = new ToolRegistry({ ...opts.settings.tools, offered: opts.settings.policy.ceiling.tools });
  const report = (message: string, file = '(tools)') =>
    opts.onDiagnostic?.({ severity: 'warning', code: 'tools.register', file, message });
  let network = opts.settings.policy.ceiling.network;
  const mcp = new McpManager({
    registry,
    workspace: opts.workspace,
    network: () => network,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    ...(opts.wall ? { wall: opts.wall } : {}),
    ...(opts.onDiagnostic ? { onDiagnostic: opts.onDiagnostic } : {}),
    ...(opts.onMcpStatus ? { onStatus: () => opts.onMcpStatus?.(mcp.status()) } : {}),
    onServers: (count) => placeResourceTools(count > 0),
  });
  // The resource tools come with the first MCP server and go with the last, however it came: at start, from the
  // window's form or a hand edit of mcp.json (McpManager.sync).
  const resourceTools = mcpResourceTools(mcp);
  const placeResourceTools = (wanted: boolean): void => {
    for (const t of resourceTools)
      if (!wanted) registry.unregister(t.name);
      else if (!registry.has(t.name)) for (const p of registry.registerAll([t], 'builtin')) report(p);
  };
  for (const p of registry.registerAll(
    builtinTools({ network: opts.settings.policy.ceiling.network, ...(opts.wall ? { wall: opts.wall } : {}) }),
    'builtin',
  ))
    report(p);
  for (const x of opts.extraTools ?? []) for (const p of registry.registerAll(x.tools, x.source)) report(p);
  for (const c of opts.catalogs ?? [])
    for (const p of registry.registerAll(c.tools, 'catalog', { lazy: true })) report(p);
  const { index, close: unbind } = bindDeferredIndex(registry, opts.expander ? { expander: opts.expander } : {});
  const executor = new ToolExecutor({
    registry,
    gate: opts.gate,
    ...(opts.approver ? { approver: opts.approver } : {}),
    ...(opts.rules ? { rules: opts.rules } : {}),
    ...(opts.onDecision ? { onDecision: opts.onDecision } : {}),
  });
  const session = new ToolSession(registry, executor, index);
  const meta = [toolSearchTool(session), deferExecuteTool(session)];
  for (const p of registry.registerAll(meta, 'meta')) report(p);
  if (opts.mcpServers?.length) await mcp.start(opts.mcpServers);
  return {
    registry,
    index,
    executor,
    session,
    mcp,
    promptCost: () =>
      toolSectionCost(
        session.visibleTools().map(promptTool),
        session.hiddenTools().map(promptTool),
        meta.map((m) => ({ name: m.name, description: m.description, inputSchema: m.inputSchema })),
      ),
    setCeiling(ceiling) {
      // A stdio MCP server given hosts is restarted, so the hosts it may reach follow the ceiling's network.
      if (ceiling.network !== network) {
        network = ceiling.network;
        for (const s of mcp.status()) {
          const c = mcp.connection(s.name)?.config;
          if (c?.kind === 'stdio' && c.network?.length) void mcp.reconnect(s.name);
        }
      }
      for (const p of registry.setOffered(ceiling.tools)) report(p);
      if (!ceiling.network) registry.unregister(webFetchTool.name);
      else if (!registry.has(webFetchTool.name))
        for (const p of registry.registerAll([webFetchTool], 'builtin')) report(p);
    },
    async close() {
      unbind();
      await mcp.close();
    },
  };
}
