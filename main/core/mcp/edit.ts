// MCP servers as the window edits them: each configured server of the user's and the workspace's mcp.json with its
// secrets left out (env and header names only), and add / edit / remove / enable written back to the right file.
// Every entry written is first read with the loader's own parser (config.ts), so what the form saves is what loads;
// the file is edited in place with jsonc-parser's `modify` (the other servers, their order and fields stay as written)
// and written atomically, readable by the user only (it holds env values and headers).
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { english, readRegularFile, Refusal, say, writeFileAtomic, type Diagnostic, type Said } from '../base/index.js';
import { readJsonText } from '../config/index.js';
import { parseMcpConfig, userMcpPath, workspaceMcpPath, type McpServerConfig } from './config.js';

export type McpScope = 'user' | 'project';

/** One configured server as the window shows it: never an env value or a header value. */
export interface McpEntryView {
  name: string;
  scope: McpScope;
  file: string;
  kind: 'stdio' | 'http';
  enabled: boolean;
  command?: string;
  args: string[];
  /** Names of its environment variables; their values stay in the file. */
  envKeys: string[];
  cwd?: string;
  network: string[];
  url?: string;
  headerKeys: string[];
}

/** A name and, when the user typed one, a new value; no value keeps what the file holds under that name. */
export interface SecretField {
  name: string;
  value?: string;
}

/** What the form sends for one server. */
export interface McpEntryInput {
  kind: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: SecretField[];
  cwd?: string;
  network?: string[];
  url?: string;
  headers?: SecretField[];
}

/** A problem with the entry or its file, naming the file, line and field as the loader does. */
export class McpEditError extends Error {
  /** The problems as words the window says in its language: each field and why, one after another. */
  readonly words: Said | undefined;
  constructor(readonly diagnostics: Diagnostic[]) {
    super(
      diagnostics
        .map((d) => `${d.file}${d.line ? `:${d.line}` : ''}: ${d.field ? `${d.field}: ` : ''}${d.message}`)
        .join('\n'),
    );
    const each = diagnostics.map((d) =>
      say('mcp.problemAt', { field: d.field ?? d.file, why: d.words ?? say('mcp.other', { error: d.message }) }),
    );
    this.words = each.length ? each.reduce((a, b) => say('listSemicolon', { a, b })) : undefined;
  }
}

/** An error of the file, as words and their English. */
function problemOf(file: string, words: Said): Diagnostic {
  return { severity: 'error', code: 'mcp.config', file, message: english(words), words };
}

export function mcpFileOf(scope: McpScope, dataDir: string, workspace: string): string {
  return scope === 'user' ? userMcpPath(dataDir) : workspaceMcpPath(workspace);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file's text and its `mcpServers` object; a missing file is an empty one, a file that is not JSON an error. */
function readFile(file: string): { text: string; servers: Record<string, unknown> } {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { text: '{\n  "mcpServers": {}\n}\n', servers: {} };
    throw new McpEditError([problemOf(file, say('mcp.cannotRead', { error: (e as Error).message }))]);
  }
  const read = readJsonText(text);
  if (read.error) {
    const { line, column, message } = read.error;
    // Never written over: the user's own text stays as it is until they mend it.
    throw new McpEditError([{ ...problemOf(file, say('mcp.invalidJsonKept', { detail: message })), line, column }]);
  }
  const value = read.value;
  if (!isObject(value) || (value.mcpServers !== undefined && !isObject(value.mcpServers)))
    throw new McpEditError([{ ...problemOf(file, say('mcp.expected')), field: 'mcpServers' }]);
  return { text, servers: (value.mcpServers as Record<string, unknown> | undefined) ?? {} };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const keysOf = (v: unknown): string[] => (isObject(v) ? Object.keys(v) : []);

/** Every server of the user's and the workspace's file, disabled ones too; a file that cannot be read lists none. */
export function listMcpEntries(dataDir: string, workspace: string): { entries: McpEntryView[]; errors: string[] } {
  const entries: McpEntryView[] = [];
  const errors: string[] = [];
  for (const scope of ['user', 'project'] as const) {
    const file = mcpFileOf(scope, dataDir, workspace);
    let servers: Record<string, unknown>;
    try {
      servers = readFile(file).servers;
    } catch (e) {
      errors.push((e as Error).message);
      continue;
    }
    for (const [name, raw] of Object.entries(servers)) {
      if (!isObject(raw)) continue;
      const http = raw.url !== undefined || raw.type === 'http' || raw.type === 'streamable-http';
      entries.push({
        name,
        scope,
        file,
        kind: http ? 'http' : 'stdio',
        enabled: raw.disabled !== true,
        ...(typeof raw.command === 'string' ? { command: raw.command } : {}),
        args: strings(raw.args),
        envKeys: keysOf(raw.env),
        ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}),
        network: strings(raw.network),
        ...(typeof raw.url === 'string' ? { url: raw.url } : {}),
        headerKeys: keysOf(raw.headers),
      });
    }
  }
  return { entries, errors };
}

/** Names with their values: a field without a value keeps the one `before` holds under that name. */
function secrets(
  fields: SecretField[] | undefined,
  before: unknown,
  file: string,
  field: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  const old = isObject(before) ? before : {};
  for (const f of fields ?? []) {
    const name = f.name.trim();
    if (!name) continue;
    const value = f.value ?? (typeof old[name] === 'string' ? (old[name] as string) : undefined);
    if (value === undefined)
      throw new McpEditError([{ ...problemOf(file, say('mcp.needsValue', { name })), field: `${field}.${name}` }]);
    out[name] = value;
  }
  return out;
}

/** The entry as the file will hold it, checked with the loader's parser; throws McpEditError naming each field. */
export function checkMcpEntry(
  scope: McpScope,
  name: string,
  input: McpEntryInput,
  opts: { dataDir: string; workspace: string; previousName?: string; enabled?: boolean },
): { raw: Record<string, unknown>; config: McpServerConfig } {
  const file = mcpFileOf(scope, opts.dataDir, opts.workspace);
  const { servers } = readFile(file);
  const before = servers[opts.previousName ?? name];
  const old = isObject(before) ? before : {};
  const f = `mcpServers.${name}`;
  if ((opts.previousName === undefined || opts.previousName !== name) && name in servers)
    throw new McpEditError([{ ...problemOf(file, say('mcp.exists', { name })), field: f }]);
  const raw: Record<string, unknown> =
    input.kind === 'http'
      ? {
          url: input.url?.trim() ?? '',
          ...(input.headers?.length ? { headers: secrets(input.headers, old.headers, file, `${f}.headers`) } : {}),
        }
      : {
          command: input.command?.trim() ?? '',
          ...(input.args?.length ? { args: input.args } : {}),
          ...(input.env?.length ? { env: secrets(input.env, old.env, file, `${f}.env`) } : {}),
          ...(input.cwd?.trim() ? { cwd: input.cwd.trim() } : {}),
          ...(input.network?.length ? { network: input.network } : {}),
        };
  // The timeouts a user set by hand go on as they were.
  for (const k of ['connectTimeoutMs', 'callTimeoutMs', 'description']) if (old[k] !== undefined) raw[k] = old[k];
  const parsed = parseMcpConfig({ mcpServers: { [name]: raw } }, file, dirname(file));
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length || !parsed.servers[0]) throw new McpEditError(errors);
  if (opts.enabled === false) raw.disabled = true;
  return { raw, config: parsed.servers[0] };
}

/** How jsonc-parser's `modify` writes what it adds: as the file's own JSON is written. */
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** Write `raw` as server `name` (replacing `previousName` when renamed) into the scope's file. */
export function writeMcpEntry(
  file: string,
  name: string,
  raw: Record<string, unknown> | undefined,
  previousName?: string,
): void {
  let { text } = readFile(file);
  if (previousName !== undefined && previousName !== name)
    text = applyEdits(text, modify(text, ['mcpServers', previousName], undefined, FORMAT));
  text = applyEdits(text, modify(text, ['mcpServers', name], raw, FORMAT));
  writeFileAtomic(file, text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
}

/** Turn server `name` of the file on or off (`disabled: true`), leaving the rest of its entry as it is. */
export function setMcpEntryEnabled(file: string, name: string, enabled: boolean): void {
  const { text, servers } = readFile(file);
  if (!isObject(servers[name]))
    throw new McpEditError([{ ...problemOf(file, say('mcp.noServer', { name })), field: `mcpServers.${name}` }]);
  const next = applyEdits(text, modify(text, ['mcpServers', name, 'disabled'], enabled ? undefined : true, FORMAT));
  writeFileAtomic(file, next, { mode: 0o600 });
}

/** Remove server `name` from the file; false when it is not there. */
export function removeMcpEntry(file: string, name: string): boolean {
  const { servers } = readFile(file);
  if (!(name in servers)) return false;
  writeMcpEntry(file, name, undefined);
  return true;
}

/**
 * A workspace's server is started only when the user trusted it as it is now (its folder's mcp.json comes with
 * whatever repository was cloned): the trust is kept in the user's data folder, bound to the server's settings.
 */
export function mcpTrustKey(config: McpServerConfig): string {
  const { source: _s, ...rest } = config;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

const TRUST_FILE = 'mcp-trust.json';

/** The workspace's servers the user trusted: name → mcpTrustKey of the settings they trusted. */
export function trustedMcpServers(dataDir: string, workspace: string): Record<string, string> {
  let text: string;
  try {
    text = readRegularFile(join(dataDir, TRUST_FILE));
  } catch {
    return {};
  }
  const read = readJsonText(text);
  const all = isObject(read.value) ? read.value : {};
  const mine = all[workspace];
  if (!isObject(mine)) return {};
  return Object.fromEntries(Object.entries(mine).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * The trust record as it is now (`file`), and `restore`, which puts it back so: a change of it whose workspace's
 * mcp.json then cannot be written is undone, and no server stays trusted, or forgotten, for a setup never written.
 */
export function keepMcpTrust(dataDir: string): { file: string; restore(): void } {
  const file = join(dataDir, TRUST_FILE);
  /** Its text; undefined when there is none; null when it cannot be read (a change of it is refused, nothing written). */
  const read = (): string | undefined | null => {
    try {
      return readRegularFile(file);
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
    }
  };
  const was = read();
  return {
    file,
    restore: () => {
      if (was === null || read() === was) return;
      if (was === undefined) rmSync(file, { force: true });
      else writeFileAtomic(file, was, { mode: 0o600 });
    },
  };
}

/**
 * Trust the workspace's server `name` as `config` is now (undefined: no longer trusted). A read-modify-write of the
 * record: run it holding withMcpEditLock (lock.ts), so no other process's change comes between the read and the write.
 */
export function trustMcpServer(
  dataDir: string,
  workspace: string,
  name: string,
  config: McpServerConfig | undefined,
): void {
  const file = join(dataDir, TRUST_FILE);
  let all: Record<string, unknown> = {};
  let text: string | undefined;
  try {
    text = readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Refusal(say('mcp.trustUnreadable', { file, error: (e as Error).message }));
  }
  if (text !== undefined) {
    // A damaged record is never written over (it trusts nothing meanwhile: trustedMcpServers reads it as empty).
    const read = readJsonText(text);
    if (!isObject(read.value)) {
      const at = read.error ? `:${read.error.line}:${read.error.column}` : '';
      throw new Refusal(say('mcp.trustDamaged', { file: `${file}${at}` }));
    }
    all = read.value;
  }
  const mine = { ...(isObject(all[workspace]) ? all[workspace] : {}) } as Record<string, unknown>;
  if (config) mine[name] = mcpTrustKey(config);
  else if (name in mine) delete mine[name];
  else return; // nothing to forget: nothing written
  all[workspace] = mine;
  writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n', { mode: 0o600 });
}
