// MCP server configuration: `mcpServers` files in the format Claude Desktop / Claude Code use, read per user
// (<dataDir>/mcp.json) and per workspace (<ws>/.workbuddy/mcp.json; same name → the workspace wins).
// Every problem is a diagnostic naming file and field; one bad server never hides the others.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Diagnostic } from '../base/index.js';

export const MCP_FILE = 'mcp.json';

export interface StdioServerConfig {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Working folder of the server process (default: the workspace, or the config file's folder). */
  cwd?: string;
  /** Milliseconds allowed for start + handshake + tool listing (default 15 s). */
  connectTimeoutMs: number;
  /** Milliseconds allowed for one tool call (default 60 s). */
  callTimeoutMs: number;
  /** Which file defined it. */
  source: string;
}

export interface HttpServerConfig {
  kind: 'http';
  name: string;
  url: string;
  headers: Record<string, string>;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  source: string;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function userMcpPath(dataDir: string): string {
  return join(dataDir, MCP_FILE);
}

export function workspaceMcpPath(workspace: string): string {
  return join(workspace, '.workbuddy', MCP_FILE);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown, field: string, file: string, diags: Diagnostic[]): Record<string, string> | undefined {
  if (v === undefined) return {};
  if (!isObject(v) || !Object.values(v).every((x) => typeof x === 'string')) {
    diags.push({
      severity: 'error',
      code: 'mcp.config',
      file,
      field,
      message: `${field} must be an object of strings`,
    });
    return undefined;
  }
  return v as Record<string, string>;
}

function timeout(v: unknown, field: string, dflt: number, file: string, diags: Diagnostic[]): number | undefined {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 100 || v > 600_000) {
    diags.push({
      severity: 'error',
      code: 'mcp.config',
      file,
      field,
      message: `${field} must be a number of milliseconds between 100 and 600000`,
    });
    return undefined;
  }
  return v;
}

/** Parse one config object (already JSON-decoded). `baseDir` resolves a relative cwd. */
export function parseMcpConfig(
  value: unknown,
  file: string,
  baseDir: string,
): { servers: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const servers: McpServerConfig[] = [];
  if (!isObject(value) || !isObject(value.mcpServers)) {
    diagnostics.push({
      severity: 'error',
      code: 'mcp.config',
      file,
      field: 'mcpServers',
      message: 'expected {"mcpServers": {"name": {...}}}',
    });
    return { servers, diagnostics };
  }
  for (const [name, raw] of Object.entries(value.mcpServers)) {
    const f = `mcpServers.${name}`;
    if (!SERVER_NAME.test(name)) {
      diagnostics.push({
        severity: 'error',
        code: 'mcp.config',
        file,
        field: f,
        message: `server name "${name}" must be 1–40 letters, digits, "_" or "-"`,
      });
      continue;
    }
    if (!isObject(raw)) {
      diagnostics.push({
        severity: 'error',
        code: 'mcp.config',
        file,
        field: f,
        message: 'must be an object with "command" or "url"',
      });
      continue;
    }
    if (raw.disabled === true) continue;
    const known = new Set([
      'command',
      'args',
      'env',
      'cwd',
      'url',
      'type',
      'transport',
      'headers',
      'disabled',
      'connectTimeoutMs',
      'callTimeoutMs',
      'description',
    ]);
    for (const k of Object.keys(raw)) {
      if (!known.has(k))
        diagnostics.push({
          severity: 'warning',
          code: 'mcp.config',
          file,
          field: `${f}.${k}`,
          message: `unknown field "${k}" (ignored)`,
        });
    }
    const connectTimeoutMs = timeout(
      raw.connectTimeoutMs,
      `${f}.connectTimeoutMs`,
      DEFAULT_CONNECT_TIMEOUT_MS,
      file,
      diagnostics,
    );
    const callTimeoutMs = timeout(raw.callTimeoutMs, `${f}.callTimeoutMs`, DEFAULT_CALL_TIMEOUT_MS, file, diagnostics);
    if (connectTimeoutMs === undefined || callTimeoutMs === undefined) continue;
    const type = raw.type ?? raw.transport;
    if (typeof raw.url === 'string' || type === 'http' || type === 'streamable-http') {
      if (typeof raw.url !== 'string') {
        diagnostics.push({
          severity: 'error',
          code: 'mcp.config',
          file,
          field: `${f}.url`,
          message: 'an http server needs a "url"',
        });
        continue;
      }
      let url: URL;
      try {
        url = new URL(raw.url);
      } catch {
        diagnostics.push({
          severity: 'error',
          code: 'mcp.config',
          file,
          field: `${f}.url`,
          message: `"${raw.url}" is not a valid URL`,
        });
        continue;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        diagnostics.push({
          severity: 'error',
          code: 'mcp.config',
          file,
          field: `${f}.url`,
          message: 'must be an http:// URL',
        });
        continue;
      }
      if (!LOOPBACK.has(url.hostname)) {
        diagnostics.push({
          severity: 'error',
          code: 'mcp.config',
          file,
          field: `${f}.url`,
          message: `only loopback servers are supported (127.0.0.1, localhost, ::1), not ${url.hostname}`,
        });
        continue;
      }
      const headers = stringMap(raw.headers, `${f}.headers`, file, diagnostics);
      if (!headers) continue;
      servers.push({ kind: 'http', name, url: url.toString(), headers, connectTimeoutMs, callTimeoutMs, source: file });
      continue;
    }
    if (typeof raw.command !== 'string' || !raw.command.trim()) {
      diagnostics.push({
        severity: 'error',
        code: 'mcp.config',
        file,
        field: `${f}.command`,
        message: 'a stdio server needs a "command" (or give "url" for http)',
      });
      continue;
    }
    if (raw.args !== undefined && (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === 'string'))) {
      diagnostics.push({
        severity: 'error',
        code: 'mcp.config',
        file,
        field: `${f}.args`,
        message: 'args must be a list of strings',
      });
      continue;
    }
    const env = stringMap(raw.env, `${f}.env`, file, diagnostics);
    if (!env) continue;
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') {
      diagnostics.push({
        severity: 'error',
        code: 'mcp.config',
        file,
        field: `${f}.cwd`,
        message: 'cwd must be a string',
      });
      continue;
    }
    const cwd = typeof raw.cwd === 'string' ? (isAbsolute(raw.cwd) ? raw.cwd : resolve(baseDir, raw.cwd)) : undefined;
    servers.push({
      kind: 'stdio',
      name,
      command: raw.command,
      args: (raw.args as string[] | undefined) ?? [],
      env,
      ...(cwd ? { cwd } : {}),
      connectTimeoutMs,
      callTimeoutMs,
      source: file,
    });
  }
  return { servers, diagnostics };
}

function readConfigFile(file: string, baseDir: string, diags: Diagnostic[]): McpServerConfig[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      diags.push({ severity: 'error', code: 'mcp.config', file, message: `cannot read: ${(e as Error).message}` });
    }
    return [];
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    diags.push({ severity: 'error', code: 'mcp.config', file, message: `invalid JSON: ${(e as Error).message}` });
    return [];
  }
  const r = parseMcpConfig(value, file, baseDir);
  diags.push(...r.diagnostics);
  return r.servers;
}

/**
 * User servers, then workspace servers. A workspace's mcp.json comes with whatever repository was cloned, so its
 * servers start only when the user trusts them (`trustWorkspace`): then a workspace server replaces a user server of
 * the same name. Untrusted ones come back in `held`, and never displace the user's own server of that name.
 */
export function loadMcpConfig(
  dataDir: string,
  workspace?: string,
  opts: { trustWorkspace?: boolean } = {},
): { servers: McpServerConfig[]; held: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, McpServerConfig>();
  const held: McpServerConfig[] = [];
  for (const s of readConfigFile(userMcpPath(dataDir), dataDir, diagnostics)) byName.set(s.name, s);
  if (workspace) {
    for (const s of readConfigFile(workspaceMcpPath(workspace), workspace, diagnostics)) {
      if (opts.trustWorkspace === false) held.push(s);
      else byName.set(s.name, s);
    }
  }
  return { servers: [...byName.values()], held, diagnostics };
}
