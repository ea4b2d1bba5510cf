// One MCP server connection over stdio or loopback streamable HTTP (@modelcontextprotocol/sdk): connect with a
// timeout, list tools, call with a timeout, notice crashes, and reconnect with exponential back-off.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { loadMcpSdk, loadedMcpSdk, type McpSdk } from './sdk.js';
import type { McpServerConfig } from './config.js';
import type { McpCallOutcome, McpToolInfo } from './tool-adapter.js';
import type { McpResourceContent, McpResourceInfo } from '../tools/index.js';

/**
 * The OS sandbox a stdio server starts in (core/contain's Wall, seen through what this file needs): its command and
 * arguments are wrapped like the bash tool's commands; it reaches only `hosts`, through the sandbox's proxy.
 */
export interface McpWall {
  readonly mode: 'auto' | 'required' | 'off';
  readonly available: boolean;
  /** Closed with its workspace: a server is not started, not even outside the sandbox. */
  readonly closed?: boolean;
  status(): { reason: string };
  wrapProgram(
    argv: string[],
    opts: { cwd: string; env?: NodeJS.ProcessEnv; hosts?: string[] },
  ): Promise<{
    file: string;
    args: string[];
    env: NodeJS.ProcessEnv;
    /** Once the server has exited: the wall's sweep of what it left in protected places. */
    release(): Promise<unknown> | void;
    /** The hosts the sandbox's proxy refused the server since `since` (ms since the epoch). */
    refused?(since?: number): { target: string }[];
  }>;
}

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'retrying' | 'failed' | 'closed';

export interface ConnectionStatus {
  name: string;
  state: ConnectionState;
  tools: number;
  /** Consecutive failed attempts. */
  failures: number;
  /** The attempts made before giving up (state failed); `reconnect()` starts over. */
  maxAttempts: number;
  lastError?: string;
  /** When the next reconnect attempt is due (ms since epoch). */
  nextRetryAt?: number;
  /** Last lines the server wrote to stderr (stdio). */
  stderrTail?: string[];
}

export interface BackoffOptions {
  /** First delay (default 1 s), doubled per failure up to maxMs (default 60 s). */
  initialMs: number;
  maxMs: number;
  /** Give up after this many consecutive failures (default 8); `reconnect()` starts over. */
  maxAttempts: number;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000, maxAttempts: 8 };

export interface ConnectionEvents {
  /** Connected (or reconnected) with this tool list. */
  onTools(tools: McpToolInfo[]): void;
  /** Went down (crash, failed start, timeout): its tools must disappear. */
  onDown(reason: string): void;
  onStatus?(status: ConnectionStatus): void;
}

function backoffDelay(failures: number, b: BackoffOptions): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.max(0, failures - 1));
}

/** The most one message from a server may hold (stdio: the SDK's read buffer; HTTP: boundedFetch). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const MAX_MESSAGE_TEXT = `${MAX_MESSAGE_BYTES / 1024 / 1024} MB`;

/**
 * fetch for the HTTP transport whose response bodies stop past `max` bytes without a blank line (one JSON body, or
 * one SSE event): a server cannot make main buffer a reply without end. `onTooLarge` is told, and the body errors.
 */
function boundedFetch(max: number, onTooLarge: () => void): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    if (!res.body) return res;
    let run = 0; // bytes since the last blank line
    let last = 0; // the last byte that was not a carriage return
    const limit = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        for (const b of chunk) {
          if (b === 13) continue;
          run = b === 10 && last === 10 ? 0 : run + 1;
          last = b;
        }
        if (run <= max) return ctl.enqueue(chunk);
        onTooLarge();
        ctl.error(new Error(`a message of more than ${MAX_MESSAGE_TEXT}`));
      },
    });
    return new Response(res.body.pipeThrough(limit), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export class McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private pid: number | undefined;
  private state: ConnectionState = 'idle';
  private failures = 0;
  private lastError: string | undefined;
  private nextRetryAt: number | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private toolCount = 0;
  private readonly stderrTail: string[] = [];
  /** Set while a stdio server runs outside the sandbox (mode auto, sandbox unavailable): shown as its last error. */
  private outside: string | undefined;
  /** Frees the wall's hold for the running server process. */
  private release: (() => Promise<unknown> | void) | undefined;
  /** The hosts the sandbox's proxy refused this server (a contained stdio server). */
  private refused: ((since?: number) => { target: string }[]) | undefined;
  /** Why the server was cut off (a message past MAX_MESSAGE_BYTES), until it connects again. */
  private cutOffReason: string | undefined;
  /** Bumped on every (re)connect so callbacks of an old client are ignored. */
  private generation = 0;
  /** Every teardown still running (closing a client, killing its process). */
  private tearing: Promise<void> = Promise.resolve();

  constructor(
    readonly config: McpServerConfig,
    private readonly events: ConnectionEvents,
    private readonly opts: {
      workspace: string;
      backoff?: BackoffOptions;
      clientName?: string;
      /** The workspace's wall: stdio servers start inside it (none: they start as plain processes). */
      wall?: Promise<McpWall>;
      /** Whether the ceiling's network is on now; off or absent, a server gets no host whatever its `network` says. */
      network?: () => boolean;
    },
  ) {}

  get name(): string {
    return this.config.name;
  }

  status(): ConnectionStatus {
    return {
      name: this.name,
      state: this.state,
      tools: this.toolCount,
      failures: this.failures,
      maxAttempts: (this.opts.backoff ?? DEFAULT_BACKOFF).maxAttempts,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      ...(this.nextRetryAt && this.state === 'retrying' ? { nextRetryAt: this.nextRetryAt } : {}),
      ...(this.stderrTail.length ? { stderrTail: [...this.stderrTail] } : {}),
    };
  }

  isClosed(): boolean {
    return this.state === 'closed';
  }

  isConnected(): boolean {
    return this.state === 'connected';
  }

  private setState(s: ConnectionState): void {
    this.state = s;
    this.events.onStatus?.(this.status());
  }

  /**
   * The transport; a stdio server's process starts inside the wall. Throws (nothing started) when the workspace
   * requires the sandbox and it is unavailable; in mode auto without it the server starts outside and `outside` says so.
   */
  private async makeTransport(
    { StdioClientTransport, StreamableHTTPClientTransport, getDefaultEnvironment }: McpSdk,
    gen: number,
  ): Promise<Transport> {
    const c = this.config;
    this.outside = undefined;
    if (c.kind === 'http') {
      return new StreamableHTTPClientTransport(new URL(c.url), {
        requestInit: { headers: c.headers },
        fetch: boundedFetch(MAX_MESSAGE_BYTES, () => this.cutOff(gen)),
      });
    }
    const cwd = c.cwd ?? this.opts.workspace;
    const env: Record<string, string> = { ...getDefaultEnvironment(), ...c.env };
    let spawn = { command: c.command, args: c.args, env };
    const wall = this.opts.wall ? await this.opts.wall : undefined;
    if (wall && wall.mode !== 'off') {
      if (wall.available) {
        // Its own `network` hosts, and only while the ceiling's network is on (read at each start).
        const hosts = c.network && this.opts.network?.() ? c.network : [];
        const w = await wall.wrapProgram([c.command, ...c.args], { cwd, env, hosts });
        this.release = w.release;
        this.refused = w.refused?.bind(w);
        spawn = { command: w.file, args: w.args, env: w.env as Record<string, string> };
      } else if (wall.closed) {
        throw new Error(`not started: the sandbox is closed (${wall.status().reason})`);
      } else if (wall.mode === 'required') {
        throw new Error(
          `not started: this workspace requires the sandbox (settings sandbox.mode "required") and it is unavailable: ${wall.status().reason}`,
        );
      } else {
        this.outside = `running outside the sandbox (unavailable: ${wall.status().reason})`;
      }
    }
    const t = new StdioClientTransport({ ...spawn, cwd, stderr: 'pipe', maxBufferSize: MAX_MESSAGE_BYTES });
    t.stderr?.on('data', (b: Buffer) => {
      for (const line of b.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        this.stderrTail.push(line.slice(0, 300));
        if (this.stderrTail.length > 20) this.stderrTail.shift();
      }
    });
    return t;
  }

  /** Connect and list tools. Resolves true on success; on failure schedules a retry and resolves false. Never throws. */
  async connect(): Promise<boolean> {
    if (this.isClosed()) return false;
    let sdk: McpSdk;
    try {
      sdk = await loadMcpSdk();
    } catch (e) {
      this.fail(`the MCP SDK could not be loaded: ${(e as Error).message}`);
      return false;
    }
    if (this.isClosed()) return false;
    clearTimeout(this.retryTimer);
    await this.teardown();
    const gen = ++this.generation;
    this.cutOffReason = undefined;
    this.setState('connecting');
    const client = new sdk.Client({ name: this.opts.clientName ?? 'knack', version: '0.1.0' }, { capabilities: {} });
    let transport: Transport;
    try {
      transport = await this.makeTransport(sdk, gen);
    } catch (e) {
      this.fail(`${(e as Error).message}`);
      return false;
    }
    if (gen !== this.generation || this.isClosed()) return false;
    this.client = client;
    this.transport = transport;
    try {
      await withTimeout(
        client.connect(transport, { timeout: this.config.connectTimeoutMs }),
        this.config.connectTimeoutMs,
        `connecting to "${this.name}"`,
      );
      if (transport instanceof sdk.StdioClientTransport) this.pid = transport.pid ?? undefined;
      const tools = await this.listTools(client);
      if (gen !== this.generation || this.isClosed()) return false;
      // A server may change its tools while connected (tools/list_changed): list again and re-register.
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => {
        if (gen !== this.generation || this.state !== 'connected') return;
        try {
          const next = await this.listTools(client);
          if (gen !== this.generation) return;
          this.toolCount = next.length;
          this.events.onTools(next);
        } catch (e) {
          this.lastError = `relisting tools failed: ${(e as Error).message}`;
        }
      });
      // From here on a close of the transport is a crash.
      client.onclose = () => {
        if (gen === this.generation && this.state === 'connected')
          this.fail(`server "${this.name}" closed the connection (crashed or exited)`);
      };
      client.onerror = (e) => {
        if (gen !== this.generation) return;
        this.lastError = e.message;
        // The SDK's stdio read buffer overflowed: it closes the transport; say why rather than "crashed".
        if (/exceeded maximum size/.test(e.message)) this.cutOff(gen);
      };
      this.failures = 0;
      this.lastError = this.outside;
      this.toolCount = tools.length;
      this.setState('connected');
      this.events.onTools(tools);
      return true;
    } catch (e) {
      if (gen !== this.generation || this.isClosed()) return false;
      const tail = this.stderrTail.length ? ` (stderr: ${this.stderrTail.slice(-2).join(' | ')})` : '';
      this.fail(`${(e as Error).message ?? String(e)}${tail}`);
      return false;
    }
  }

  private async listTools(client: Client): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await withTimeout(
        client.listTools(cursor ? { cursor } : undefined, { timeout: this.config.connectTimeoutMs }),
        this.config.connectTimeoutMs,
        `listing tools of "${this.name}"`,
      );
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < 5000);
    return tools;
  }

  /** The server sent a message past MAX_MESSAGE_BYTES: down, saying so (its pending calls fail with that reason). */
  private cutOff(gen: number): void {
    if (gen !== this.generation || this.isClosed()) return;
    this.cutOffReason = `server "${this.name}" sent a message of more than ${MAX_MESSAGE_TEXT}; it was disconnected`;
    this.fail(this.cutOffReason);
  }

  private fail(reason: string): void {
    this.generation++;
    this.lastError = reason;
    this.failures++;
    this.toolCount = 0;
    void this.teardown();
    this.events.onDown(reason);
    const b = this.opts.backoff ?? DEFAULT_BACKOFF;
    if (this.failures >= b.maxAttempts) {
      this.nextRetryAt = undefined;
      this.setState('failed');
      return;
    }
    const delay = backoffDelay(this.failures, b);
    this.nextRetryAt = Date.now() + delay;
    this.setState('retrying');
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  /** Start over now (after the user fixed the config or the server), resetting the failure count. */
  async reconnect(): Promise<boolean> {
    this.failures = 0;
    return this.connect();
  }

  private teardown(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    // A server that never finished the handshake has a process too: take its pid from the transport.
    const Stdio = loadedMcpSdk()?.StdioClientTransport;
    const pid = this.pid ?? (Stdio && transport instanceof Stdio ? (transport.pid ?? undefined) : undefined);
    const release = this.release;
    this.client = undefined;
    this.transport = undefined;
    this.pid = undefined;
    this.release = undefined;
    this.refused = undefined;
    const done = (async () => {
      if (client) {
        client.onclose = undefined;
        await withTimeout(client.close(), 2000, 'closing').catch(() => undefined);
      }
      // A server that ignores the close is killed: the app never waits on it.
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      // The sweep finishes before the teardown does; one that fails is said, not dropped.
      try {
        await release?.();
      } catch (e) {
        this.lastError = `the sandbox could not check what the server left behind: ${(e as Error).message}`;
        this.events.onStatus?.(this.status());
      }
    })();
    this.tearing = Promise.all([this.tearing, done]).then(() => undefined);
    return done;
  }

  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.generation++;
    this.state = 'closed';
    await this.teardown();
    // Teardowns started by a failure (fire and forget) finish too: close() leaves no server process behind.
    await this.tearing;
    this.events.onStatus?.(this.status());
  }

  private requireClient(): Client {
    if (!this.client || this.state !== 'connected')
      throw new Error(`MCP server "${this.name}" is not connected (${this.lastError ?? this.state})`);
    return this.client;
  }

  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallOutcome> {
    const client = this.requireClient();
    const ms = this.config.callTimeoutMs;
    const since = Date.now();
    let r: McpCallOutcome;
    try {
      r = (await withTimeout(
        client.callTool({ name: tool, arguments: args }, undefined, { timeout: ms, ...(signal ? { signal } : {}) }),
        ms + 500,
        `calling ${tool} on "${this.name}"`,
      )) as McpCallOutcome;
    } catch (e) {
      throw this.cutOffReason ? new Error(this.cutOffReason) : e;
    }
    // The proxy's refusal reaches the server as a bare 403; what the model and the user read names the host and why.
    const hosts = [...new Set((this.refused?.(since) ?? []).map((b) => b.target))];
    if (!hosts.length) return r;
    const note =
      `sandbox: refused ${hosts.join(', ')}: not in the "network" list of MCP server "${this.name}" ` +
      "(mcp.json), or the ceiling's network is off (policy.ceiling.network)";
    return { ...r, isError: true, content: [...(r.content ?? []), { type: 'text', text: note }] };
  }

  async listResources(): Promise<McpResourceInfo[]> {
    const client = this.requireClient();
    if (!client.getServerCapabilities()?.resources) return [];
    const out: McpResourceInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined, { timeout: this.config.callTimeoutMs });
      for (const r of page.resources) {
        out.push({
          server: this.name,
          uri: r.uri,
          name: r.name,
          ...(r.description ? { description: r.description } : {}),
          ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        });
      }
      cursor = page.nextCursor;
    } while (cursor && out.length < 5000);
    return out;
  }

  async readResource(uri: string): Promise<McpResourceContent[]> {
    const client = this.requireClient();
    const r = await client.readResource({ uri }, { timeout: this.config.callTimeoutMs });
    return r.contents.map((c) => {
      const x = c as { uri: string; mimeType?: string; text?: string; blob?: string };
      return {
        uri: x.uri,
        ...(x.mimeType ? { mimeType: x.mimeType } : {}),
        ...(x.text !== undefined ? { text: x.text } : {}),
        ...(x.blob !== undefined ? { blob: x.blob } : {}),
      };
    });
  }
}
