// MCP server configuration: `mcpServers` files in the format Claude Desktop / Claude Code use, read per user
// (<dataDir>/mcp.json) and per workspace (<ws>/.workbuddy/mcp.json; same name → the workspace wins).
// Every problem is a diagnostic naming file, line and field; one bad server never hides the others. Each entry is read
// with a zod schema; the file with jsonc-parser (config/json-text.ts).
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { english, readRegularFile, say, WORDS, type Diagnostic, type Said, type WordCode } from '../base/index.js';
import { readJsonText } from '../config/index.js';

const MCP_FILE = 'mcp.json';

export interface StdioServerConfig {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Working folder of the server process (default: the workspace, or the config file's folder). */
  cwd?: string;
  /**
   * Hosts the server may reach through the sandbox's proxy (`api.example.com`, `*.example.com`), and only while the
   * ceiling's network is on. None: no network.
   */
  network?: string[];
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

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

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

// Each field's problem is a word code (preload/words.ts `mcp.why.*`), said by issueWords.
const TIMEOUT = 'mcp.why.timeout';
const timeoutMs = (dflt: number) =>
  z.number({ error: TIMEOUT }).min(100, { error: TIMEOUT }).max(600_000, { error: TIMEOUT }).default(dflt);
const STRINGS = 'mcp.why.strings';
const stringMap = z.record(z.string(), z.string({ error: STRINGS }), { error: STRINGS }).default({});
const HOSTS = 'mcp.why.hosts';
const NOT_HOST = 'mcp.why.notHost ';
/** A host name, or `*.` and one: what the sandbox's proxy matches (no scheme, port, path or other pattern). */
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const hostList = z.array(
  z
    .string({ error: HOSTS })
    .transform((h) => h.trim().toLowerCase())
    .refine((h) => h.length <= 253 && HOST.test(h), {
      error: (i) => `${NOT_HOST}${String(i.input)}`,
    }),
  { error: HOSTS },
);

/** A field's problem as words: its code, a host that is not one, or zod's own text as it said it. */
function issueWords(message: string): Said {
  if (message.startsWith(NOT_HOST)) return say('mcp.why.notHost', { host: message.slice(NOT_HOST.length) });
  if (Object.prototype.hasOwnProperty.call(WORDS, message)) return say(message as WordCode);
  return say('mcp.other', { error: message });
}

/** One server's entry as Claude Desktop / Claude Code write it; what it means (stdio or http) is checked after. */
const ServerEntry = z.object({
  command: z.string({ error: 'mcp.why.string' }).optional(),
  args: z.array(z.string(), { error: 'mcp.why.stringList' }).default([]),
  env: stringMap,
  cwd: z.string({ error: 'mcp.why.string' }).optional(),
  network: hostList.optional(),
  url: z.string({ error: 'mcp.why.string' }).optional(),
  type: z.unknown().optional(),
  transport: z.unknown().optional(),
  headers: stringMap,
  disabled: z.unknown().optional(),
  connectTimeoutMs: timeoutMs(DEFAULT_CONNECT_TIMEOUT_MS),
  callTimeoutMs: timeoutMs(DEFAULT_CALL_TIMEOUT_MS),
  description: z.unknown().optional(),
});
const KNOWN = new Set(Object.keys(ServerEntry.shape));

/** Parse one config object (already JSON-decoded). `baseDir` resolves a relative cwd. */
export function parseMcpConfig(
  value: unknown,
  file: string,
  baseDir: string,
): { servers: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const servers: McpServerConfig[] = [];
  const problem = (field: string, words: Said, severity: Diagnostic['severity'] = 'error'): void => {
    diagnostics.push({ severity, code: 'mcp.config', file, field, message: english(words), words });
  };
  if (!isObject(value) || !isObject(value.mcpServers)) {
    problem('mcpServers', say('mcp.expected'));
    return { servers, diagnostics };
  }
  for (const [name, raw] of Object.entries(value.mcpServers)) {
    const f = `mcpServers.${name}`;
    if (!SERVER_NAME.test(name)) {
      problem(f, say('mcp.badName', { name }));
      continue;
    }
    if (!isObject(raw)) {
      problem(f, say('mcp.notObject'));
      continue;
    }
    if (raw.disabled === true) continue;
    for (const k of Object.keys(raw))
      if (!KNOWN.has(k)) problem(`${f}.${k}`, say('mcp.unknownField', { key: k }), 'warning');
    const type = raw.type ?? raw.transport;
    const http = raw.url !== undefined || type === 'http' || type === 'streamable-http';
    if (!http && (typeof raw.command !== 'string' || !raw.command.trim())) {
      problem(`${f}.command`, say('mcp.needsCommand'));
      continue;
    }
    const parsed = ServerEntry.safeParse(raw);
    if (!parsed.success) {
      // Each wrong field once, in the file's own words: `mcpServers.db.env: env must be an object of strings`.
      const said = new Set<string>();
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (!said.has(key)) problem(`${f}.${key}`, say('mcp.fieldIssue', { key, why: issueWords(issue.message) }));
        said.add(key);
      }
      continue;
    }
    const entry = parsed.data;
    const { connectTimeoutMs, callTimeoutMs } = entry;
    if (http) {
      if (entry.url === undefined) {
        problem(`${f}.url`, say('mcp.needsUrl'));
        continue;
      }
      let url: URL;
      try {
        url = new URL(entry.url);
      } catch {
        problem(`${f}.url`, say('mcp.badUrl', { url: entry.url }));
        continue;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        problem(`${f}.url`, say('mcp.notHttp'));
        continue;
      }
      if (entry.network !== undefined) problem(`${f}.network`, say('mcp.networkIgnored'), 'warning');
      if (!LOOPBACK.has(url.hostname)) {
        problem(`${f}.url`, say('mcp.notLoopback', { host: url.hostname }));
        continue;
      }
      servers.push({
        kind: 'http',
        name,
        url: url.toString(),
        headers: entry.headers,
        connectTimeoutMs,
        callTimeoutMs,
        source: file,
      });
      continue;
    }
    const command = entry.command ?? '';
    const cwd = entry.cwd === undefined ? undefined : isAbsolute(entry.cwd) ? entry.cwd : resolve(baseDir, entry.cwd);
    servers.push({
      kind: 'stdio',
      name,
      command,
      args: entry.args,
      env: entry.env,
      ...(cwd ? { cwd } : {}),
      ...(entry.network?.length ? { network: [...new Set(entry.network)] } : {}),
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
    // Non-blocking open and fstat first: a pipe named mcp.json would otherwise freeze start-up.
    text = readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      const words = say('mcp.cannotRead', { error: (e as Error).message });
      diags.push({ severity: 'error', code: 'mcp.config', file, message: english(words), words });
    }
    return [];
  }
  const read = readJsonText(text);
  if (read.error) {
    const { line, column, message } = read.error;
    const words = say('mcp.invalidJson', { detail: message });
    diags.push({ severity: 'error', code: 'mcp.config', file, line, column, message: english(words), words });
    return [];
  }
  const r = parseMcpConfig(read.value, file, baseDir);
  // Each problem about a key names the line the key is on (or the nearest key above it that is in the file).
  for (const d of r.diagnostics) {
    for (
      let field = d.field;
      field && d.line === undefined;
      field = field.slice(0, Math.max(0, field.lastIndexOf('.')))
    ) {
      const line = read.keys.get(field);
      if (line !== undefined) d.line = line;
    }
  }
  diags.push(...r.diagnostics);
  return r.servers;
}

/**
 * A user server's relative command path (`bin/server`) from its cwd, else the data folder: never from the folder that
 * is open, where a cloned repository could have planted a program of that name. A bare name (`npx`) is looked up on
 * PATH as before.
 */
function ownCommand(s: McpServerConfig, dataDir: string): McpServerConfig {
  if (s.kind !== 'stdio' || isAbsolute(s.command) || !/[/\\]/.test(s.command)) return s;
  return { ...s, command: resolve(s.cwd ?? dataDir, s.command) };
}

/**
 * User servers, then workspace servers. A workspace's mcp.json comes with whatever repository was cloned, so its
 * servers start only when the user trusts them (`trustWorkspace`, or `trusted` for one server: the window's form):
 * then a workspace server replaces a user server of the same name. Untrusted ones come back in `held`, and never
 * displace the user's own server of that name.
 */
export function loadMcpConfig(
  dataDir: string,
  workspace?: string,
  opts: { trustWorkspace?: boolean; trusted?: (s: McpServerConfig) => boolean } = {},
): { servers: McpServerConfig[]; held: McpServerConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, McpServerConfig>();
  const held: McpServerConfig[] = [];
  for (const s of readConfigFile(userMcpPath(dataDir), dataDir, diagnostics))
    byName.set(s.name, ownCommand(s, dataDir));
  if (workspace) {
    for (const s of readConfigFile(workspaceMcpPath(workspace), workspace, diagnostics)) {
      if (opts.trustWorkspace === false && !opts.trusted?.(s)) held.push(s);
      else byName.set(s.name, s);
    }
  }
  return { servers: [...byName.values()], held, diagnostics };
}
