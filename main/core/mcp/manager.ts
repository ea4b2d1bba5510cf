// The MCP manager: starts every configured server, registers its tools as deferred `mcp__server__tool` tools
// while it is up and removes them when it goes down, and serves the resource tools. Never blocks on a server.
import type { Diagnostic } from '../base/index.js';
import type { McpResourceContent, McpResourceInfo, McpResourceProvider } from '../tools/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { McpServerConfig } from './config.js';
import { McpConnection, type BackoffOptions, type ConnectionStatus, type McpWall } from './connection.js';
import { adaptMcpTool, type McpToolInfo } from './tool-adapter.js';

export interface McpManagerOptions {
  registry: ToolRegistry;
  workspace: string;
  backoff?: BackoffOptions;
  /** The workspace's OS sandbox: stdio servers start inside it. */
  wall?: Promise<McpWall>;
  /** Whether the ceiling's network is on now (a server's `network` hosts apply only then). */
  network?: () => boolean;
  /** Problems worth showing the user: tools that could not be registered, servers that went down. */
  onDiagnostic?: (d: Diagnostic) => void;
  onStatus?: (s: ConnectionStatus) => void;
  /** How many servers are configured, each time that may have changed (start, sync), before they connect. */
  onServers?: (count: number) => void;
}

export class McpManager implements McpResourceProvider {
  private readonly connections = new Map<string, McpConnection>();

  constructor(private readonly opts: McpManagerOptions) {}

  private registerTools(conn: McpConnection, tools: McpToolInfo[]): void {
    const source = `mcp:${conn.name}` as const;
    this.opts.registry.unregisterSource(source);
    for (const info of tools) {
      const def = adaptMcpTool(conn.name, info, (tool, args, signal) => conn.callTool(tool, args, signal));
      try {
        this.opts.registry.register(def, source);
      } catch (e) {
        this.opts.onDiagnostic?.({
          severity: 'warning',
          code: 'mcp.tool',
          file: conn.config.source,
          field: `mcpServers.${conn.name}`,
          message: `tool "${info.name}" skipped: ${(e as Error).message}`,
        });
      }
    }
  }

  /** Add servers and start connecting them all in parallel. Resolves once each has connected or failed once. */
  async start(servers: McpServerConfig[]): Promise<ConnectionStatus[]> {
    const fresh: McpConnection[] = [];
    for (const cfg of servers) {
      if (this.connections.has(cfg.name)) continue;
      const conn: McpConnection = new McpConnection(
        cfg,
        {
          onTools: (tools) => this.registerTools(conn, tools),
          onDown: (reason) => {
            this.opts.registry.unregisterSource(`mcp:${cfg.name}`);
            this.opts.onDiagnostic?.({
              severity: 'error',
              code: 'mcp.down',
              file: cfg.source,
              field: `mcpServers.${cfg.name}`,
              message: `MCP server "${cfg.name}": ${reason}`,
            });
          },
          onStatus: (s) => this.opts.onStatus?.(s),
        },
        {
          workspace: this.opts.workspace,
          ...(this.opts.backoff ? { backoff: this.opts.backoff } : {}),
          ...(this.opts.wall ? { wall: this.opts.wall } : {}),
          ...(this.opts.network ? { network: this.opts.network } : {}),
        },
      );
      this.connections.set(cfg.name, conn);
      fresh.push(conn);
    }
    this.opts.onServers?.(this.connections.size);
    await Promise.all(fresh.map((c) => c.connect()));
    return this.status();
  }

  /**
   * Apply a new configuration (mcp.json edited): servers no longer listed are stopped and their tools removed,
   * changed ones restarted, new ones started. Unchanged servers keep running untouched.
   */
  async sync(servers: McpServerConfig[]): Promise<ConnectionStatus[]> {
    const wanted = new Map(servers.map((s) => [s.name, s]));
    const stale = [...this.connections.values()].filter((c) => {
      const next = wanted.get(c.name);
      return !next || JSON.stringify(next) !== JSON.stringify(c.config);
    });
    await Promise.all(
      stale.map(async (c) => {
        await c.close();
        this.connections.delete(c.name);
        this.opts.registry.unregisterSource(`mcp:${c.name}`);
      }),
    );
    return this.start(servers);
  }

  /**
   * Start `cfg` once, as it would run (inside the wall), list its tools and stop it, registering nothing: the window's
   * form tries a server before saving it. Never retries.
   */
  async probe(cfg: McpServerConfig): Promise<{ tools: string[]; error?: string }> {
    let tools: string[] = [];
    const conn = new McpConnection(
      cfg,
      { onTools: (t) => void (tools = t.map((x) => x.name)), onDown: () => {} },
      {
        workspace: this.opts.workspace,
        backoff: { initialMs: 1000, maxMs: 1000, maxAttempts: 1 },
        ...(this.opts.wall ? { wall: this.opts.wall } : {}),
        ...(this.opts.network ? { network: this.opts.network } : {}),
      },
    );
    try {
      const ok = await conn.connect();
      const error = conn.status().lastError;
      return ok ? { tools } : { tools: [], error: error ?? 'it did not start' };
    } finally {
      await conn.close();
    }
  }

  status(): ConnectionStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  async reconnect(name: string): Promise<boolean> {
    const c = this.connections.get(name);
    return c ? c.reconnect() : false;
  }

  connectedServers(): string[] {
    return [...this.connections.values()]
      .filter((c) => c.isConnected())
      .map((c) => c.name)
      .sort();
  }

  async listResources(
    server?: string,
  ): Promise<{ resources: McpResourceInfo[]; errors: { server: string; message: string }[] }> {
    const names = server ? [server] : this.connectedServers();
    const resources: McpResourceInfo[] = [];
    const errors: { server: string; message: string }[] = [];
    await Promise.all(
      names.map(async (n) => {
        try {
          resources.push(...(await this.connections.get(n)!.listResources()));
        } catch (e) {
          errors.push({ server: n, message: (e as Error).message });
        }
      }),
    );
    return {
      resources: resources.sort((a, b) => a.server.localeCompare(b.server) || a.uri.localeCompare(b.uri)),
      errors,
    };
  }

  async readResource(server: string, uri: string): Promise<McpResourceContent[]> {
    const c = this.connections.get(server);
    if (!c) throw new Error(`unknown MCP server "${server}"`);
    return c.readResource(uri);
  }

  /** Stop every server (kills stdio children) and remove their tools. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.connections.values()].map(async (c) => {
        await c.close();
        this.opts.registry.unregisterSource(`mcp:${c.name}`);
      }),
    );
    this.connections.clear();
  }
}
