// The strict permission manifest parser: `permissions:` and Agent Skills `allowed-tools` → one Permissions model.
// A manifest is a request, never a grant; anything outside the whitelist is rejected with a diagnostic naming the field.
import { english, say, type Diagnostic, type Said } from '../base/index.js';
import { COMMAND_TOOLS, SKILL_TOOL_NAMES, toolsWhere } from './tool-table.js';

/** A command pattern for a multi-purpose tool: `git` (prefix, from `Bash(git:*)`) or an exact command line. */
export interface CommandPattern {
  text: string;
  exact: boolean;
}

export interface Permissions {
  /** Knack tool names the skill may use (names of tool-table.ts, or `mcp__srv__tool`). */
  tools: string[];
  /** Per multi-purpose tool, the commands it may run; a tool absent here is unrestricted by the manifest. */
  commands: Record<string, CommandPattern[]>;
  network: boolean;
  /**
   * The hosts a skill's commands may reach through the OS sandbox's proxy (`network: [api.example.com, *.cdn.org]`).
   * Absent with `network: true`: the manifest names no hosts (the user's host rules decide).
   */
  hosts?: string[];
  /** Globs relative to the workspace; `skill:` prefix = relative to the skill's own folder. */
  read: string[];
  write: string[];
  /** Where the model came from. `none` = the documented default (least privilege for scripts). */
  declared: 'permissions' | 'allowed-tools' | 'both' | 'none';
}

export interface ParsedPermissions {
  /** Undefined when the manifest was rejected. */
  permissions?: Permissions;
  diagnostics: Diagnostic[];
}

const MAX_LIST = 64;
const MAX_ENTRY_CHARS = 256;
export const SKILL_PREFIX = 'skill:';

/** Least privilege for a skill that declares nothing: no tools, no network, read only its own folder. */
export function defaultPermissions(): Permissions {
  return { tools: [], commands: {}, network: false, read: [`${SKILL_PREFIX}**`], write: [], declared: 'none' };
}

/** Agent Skills / Claude Code tool names → Knack tool names (lowercase keys), from the one table (tool-table.ts). */
const TOOL_ALIASES: Readonly<Record<string, string>> = SKILL_TOOL_NAMES;

/** Tools whose effect is not described by their arguments (Access.command): they always need a rule or approval. */
export { COMMAND_TOOLS };
/**
 * `allowed-tools` names tools only: a tool that touches workspace paths or runs commands reaches the workspace; one
 * that writes or runs commands may write it; a network tool gets the network (the table's `args` and access class).
 */
const READS_WORKSPACE = toolsWhere(
  (s) => s.args !== undefined && (s.args.read ?? s.args.write ?? s.args.command) !== undefined,
);
const WRITES_WORKSPACE = toolsWhere((s) => s.args !== undefined && (s.args.write ?? s.args.command) !== undefined);
const NETWORK_TOOLS = toolsWhere((s) => s.access === 'network');

export function canonicalToolName(name: string): string {
  if (name.startsWith('mcp__')) return name;
  const alias = TOOL_ALIASES[name.toLowerCase()];
  return alias ?? name.toLowerCase();
}

const TOOL_RE = /^([A-Za-z][A-Za-z0-9_.-]{0,127})(?:\((.*)\))?$/s;

/** Split an allowed-tools string on spaces/commas, keeping `Bash(git status:*)` whole. */
export function splitAllowedTools(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ' ' || ch === ',' || ch === '\t' || ch === '\n')) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function percentDecode(s: string): string {
  let cur = s;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      next = cur.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}

/** Why a path glob is unacceptable, in words, or undefined when it is fine. */
function pathGlobProblem(glob: string, kind: 'read' | 'write'): Said | undefined {
  if (glob.length === 0) return say('permissions.path.empty');
  if (glob.length > MAX_ENTRY_CHARS) return say('permissions.tooLong', { max: MAX_ENTRY_CHARS });
  if (/[\u0000-\u001f\u007f]/.test(glob)) return say('permissions.path.control');
  // NFKC too: full-width "．．／" would otherwise be a different spelling of "../".
  const decoded = percentDecode(glob).normalize('NFKC');
  const body = decoded.startsWith(SKILL_PREFIX) ? decoded.slice(SKILL_PREFIX.length) : decoded;
  const where = say(decoded.startsWith(SKILL_PREFIX) ? 'permissions.where.skill' : 'permissions.where.workspace');
  if (decoded.includes('..'))
    return say(decoded !== glob ? 'permissions.path.leavesSpelled' : 'permissions.path.leaves', { where });
  if (decoded.includes('\\')) return say('permissions.path.backslash');
  if (/^\/\//.test(body)) return say('permissions.path.unc');
  if (body.startsWith('/')) return say('permissions.path.absolute', { where });
  if (/^[A-Za-z]:/.test(body)) return say('permissions.path.drive');
  if (body.startsWith('~')) return say('permissions.path.home');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(body)) return say('permissions.path.url');
  if (body.length === 0) return say('permissions.path.noPath');
  if (kind === 'write' && decoded.startsWith(SKILL_PREFIX)) return say('permissions.path.skillReadOnly');
  return undefined;
}

function parseToolEntry(
  entry: string,
  field: string,
  push: (field: string, words: Said) => void,
): { tool: string; pattern?: CommandPattern } | undefined {
  const m = TOOL_RE.exec(entry.trim());
  if (!m || !m[1]) {
    push(field, say('permissions.notTool', { entry }));
    return undefined;
  }
  const tool = canonicalToolName(m[1]);
  const inner = m[2]?.trim();
  if (inner === undefined || inner === '*' || inner === '') return { tool };
  if (!COMMAND_TOOLS.has(tool)) {
    const tools = [...COMMAND_TOOLS].map((t): Said | string => t).reduce((a, b) => say('listAnd', { a, b }));
    push(field, say('permissions.commandOnly', { entry, tools }));
    return undefined;
  }
  if (inner.endsWith(':*'))
    return { tool, pattern: { text: inner.slice(0, -2).trim().replace(/\s+/g, ' '), exact: false } };
  if (inner.endsWith('*'))
    return { tool, pattern: { text: inner.slice(0, -1).trim().replace(/\s+/g, ' '), exact: false } };
  return { tool, pattern: { text: inner.replace(/\s+/g, ' '), exact: true } };
}

function addTool(p: Permissions, t: { tool: string; pattern?: CommandPattern }, restrictOnly: boolean): void {
  if (!p.tools.includes(t.tool)) p.tools.push(t.tool);
  if (t.pattern) (p.commands[t.tool] ??= []).push(t.pattern);
  else if (!restrictOnly && COMMAND_TOOLS.has(t.tool)) p.commands[t.tool] = p.commands[t.tool] ?? [];
}

export interface ManifestSource {
  /** The frontmatter `permissions` value (undefined when absent). */
  permissions?: unknown;
  /** The frontmatter `allowed-tools` value (string or list; undefined when absent). */
  allowedTools?: unknown;
  /** SKILL.md path for diagnostics. */
  file: string;
  /** Line lookup for a field path. */
  lineOf?: (path: (string | number)[]) => number | undefined;
}

/** Parse a skill's permission request. Strict: any problem rejects the whole block. */
export function parsePermissions(src: ManifestSource): ParsedPermissions {
  const diagnostics: Diagnostic[] = [];
  const push = (field: string, words: Said, path?: (string | number)[]): void => {
    const line = src.lineOf?.(
      path ??
        field
          .replace(/\[(\d+)\]/g, '.$1')
          .split('.')
          .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    );
    diagnostics.push({
      severity: 'error',
      code: 'permissions.invalid',
      file: src.file,
      field,
      message: english(words),
      words,
      ...(line ? { line } : {}),
    });
  };
  // A key left empty (`permissions:`, `allowed-tools:`) says nothing: the same as leaving it out.
  const fromBlock =
    src.permissions === undefined || src.permissions === null ? undefined : parseBlock(src.permissions, push);
  const fromAllowed = emptyValue(src.allowedTools) ? undefined : parseAllowedTools(src.allowedTools, push);
  if (diagnostics.length) return { diagnostics };
  if (!fromBlock && !fromAllowed) return { permissions: defaultPermissions(), diagnostics };
  if (fromBlock && fromAllowed) {
    diagnostics.push({
      severity: 'warning',
      code: 'permissions.both',
      file: src.file,
      field: 'allowed-tools',
      message: english(say('permissions.both')),
      words: say('permissions.both'),
    });
    const tools = fromBlock.tools.filter((t) => fromAllowed.tools.includes(t));
    const commands: Permissions['commands'] = {};
    for (const t of tools) {
      const a = fromBlock.commands[t];
      const b = fromAllowed.commands[t];
      if (a && b)
        commands[t] =
          a.length === 0
            ? b
            : b.length === 0
              ? a
              : a.filter((x) => b.some((y) => y.text === x.text && y.exact === x.exact));
      else if (a || b) commands[t] = (a ?? b)!;
    }
    return {
      permissions: {
        ...fromBlock,
        tools,
        commands,
        network: fromBlock.network && fromAllowed.network,
        declared: 'both',
      },
      diagnostics,
    };
  }
  return { permissions: (fromBlock ?? fromAllowed)!, diagnostics };
}

type Push = (field: string, words: Said, path?: (string | number)[]) => void;

/** `allowed-tools` absent, left empty, `[]` or `""`: it names no tool, the same as not being there. */
function emptyValue(v: unknown): boolean {
  return (
    v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && v.trim() === '')
  );
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list of strings. An empty list (or an empty key, YAML null) means "none": the same as leaving the field out. */
function stringList(v: unknown, field: string, push: Push): string[] | undefined {
  if (v === null) return [];
  if (!Array.isArray(v)) {
    push(field, say('permissions.list', { got: describe(v) }));
    return undefined;
  }
  if (v.length > MAX_LIST) {
    push(field, say('permissions.tooMany', { count: v.length, max: MAX_LIST }));
    return undefined;
  }
  const out: string[] = [];
  v.forEach((x, i) => {
    if (typeof x !== 'string') push(`${field}[${i}]`, say('permissions.string', { got: describe(x) }));
    else if (x.length > MAX_ENTRY_CHARS) push(`${field}[${i}]`, say('permissions.tooLong', { max: MAX_ENTRY_CHARS }));
    else out.push(x);
  });
  return out.length === v.length ? out : undefined;
}

/** What a value is, in words: a string, number or boolean with its start as written. */
function describe(v: unknown): Said {
  if (v === null) return say('permissions.got.null');
  if (Array.isArray(v)) return say('permissions.got.list');
  if (typeof v === 'object') return say('permissions.got.mapping');
  const value = String(JSON.stringify(v)?.slice(0, 40));
  if (typeof v === 'string') return say('permissions.got.string', { value });
  if (typeof v === 'number') return say('permissions.got.number', { value });
  if (typeof v === 'boolean') return say('permissions.got.boolean', { value });
  return say('permissions.got.other', { type: typeof v, value });
}

function parseBlock(raw: unknown, push: Push): Permissions | undefined {
  if (!isMap(raw)) {
    push('permissions', say('permissions.block', { got: describe(raw) }));
    return undefined;
  }
  const p: Permissions = { tools: [], commands: {}, network: false, read: [], write: [], declared: 'permissions' };
  for (const key of Object.keys(raw)) {
    if (!['tools', 'network', 'paths'].includes(key))
      push(`permissions.${key}`, say('permissions.unknownField', { key }));
  }
  if ('tools' in raw) {
    const list = stringList(raw.tools, 'permissions.tools', push);
    list?.forEach((e, i) => {
      const t = parseToolEntry(e, `permissions.tools[${i}]`, push);
      if (t) addTool(p, t, false);
    });
  }
  if ('network' in raw && raw.network !== null) {
    if (Array.isArray(raw.network)) {
      const hosts: string[] = [];
      raw.network.forEach((h, i) => {
        if (
          typeof h !== 'string' ||
          !/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/.test(
            h,
          )
        )
          push(`permissions.network[${i}]`, say('permissions.host', { got: describe(h) }));
        else hosts.push(h.toLowerCase());
      });
      if (hosts.length > MAX_LIST) push('permissions.network', say('permissions.tooManyHosts', { max: MAX_LIST }));
      else {
        p.network = hosts.length > 0;
        if (hosts.length) p.hosts = hosts;
      }
    } else if (typeof raw.network !== 'boolean')
      push('permissions.network', say('permissions.network', { got: describe(raw.network) }));
    else p.network = raw.network;
  }
  if ('paths' in raw && raw.paths !== null) {
    const paths = raw.paths;
    if (!isMap(paths)) push('permissions.paths', say('permissions.paths', { got: describe(paths) }));
    else {
      for (const key of Object.keys(paths)) {
        if (key !== 'read' && key !== 'write')
          push(`permissions.paths.${key}`, say('permissions.unknownPathsField', { key }));
      }
      for (const kind of ['read', 'write'] as const) {
        if (!(kind in paths)) continue;
        const list = stringList(paths[kind], `permissions.paths.${kind}`, push);
        list?.forEach((g, i) => {
          const problem = pathGlobProblem(g, kind);
          if (problem) push(`permissions.paths.${kind}[${i}]`, say('permissions.glob', { glob: g, problem }));
          else p[kind].push(g.replace(/^\.\//, ''));
        });
      }
    }
  }
  return p;
}

function parseAllowedTools(raw: unknown, push: Push): Permissions | undefined {
  let entries: string[] | undefined;
  if (typeof raw === 'string') {
    entries = splitAllowedTools(raw);
    if (entries.length > MAX_LIST) {
      push('allowed-tools', say('permissions.tooMany', { count: entries.length, max: MAX_LIST }));
      return undefined;
    }
  } else {
    entries = stringList(raw, 'allowed-tools', push);
  }
  if (!entries) return undefined;
  const p: Permissions = { tools: [], commands: {}, network: false, read: [], write: [], declared: 'allowed-tools' };
  entries.forEach((e, i) => {
    const t = parseToolEntry(e, Array.isArray(raw) ? `allowed-tools[${i}]` : 'allowed-tools', push);
    if (t) addTool(p, t, false);
  });
  // allowed-tools names tools only; their reach is the workspace (the ceiling still bounds it).
  if (p.tools.some((t) => READS_WORKSPACE.has(t))) p.read.push('**');
  if (p.tools.some((t) => WRITES_WORKSPACE.has(t))) p.write.push('**');
  if (p.tools.some((t) => NETWORK_TOOLS.has(t))) p.network = true;
  return p;
}

/** Parse permissions straight from a frontmatter mapping. */
export function permissionsFromFrontmatter(
  data: Record<string, unknown>,
  file: string,
  lineOf?: (path: (string | number)[]) => number | undefined,
): ParsedPermissions {
  // Most skills ask for nothing: the defaults, as parsePermissions gives them for a frontmatter without either key,
  // without going through it (a large function, called once per SKILL.md, that V8 would otherwise compile during the
  // first opens of a big folder for a path that reads nothing).
  if (!('permissions' in data) && !('allowed-tools' in data))
    return { permissions: defaultPermissions(), diagnostics: [] };
  return parsePermissions({
    file,
    ...(lineOf ? { lineOf } : {}),
    ...('permissions' in data ? { permissions: data.permissions } : {}),
    ...('allowed-tools' in data ? { allowedTools: data['allowed-tools'] } : {}),
  });
}

/** Human one-liner: "tools read_file, bash(git:*); network off; read **; write —". */
export function describePermissions(p: Permissions): string {
  const tools = p.tools.map((t) => {
    const c = p.commands[t];
    return c && c.length ? `${t}(${c.map((x) => (x.exact ? x.text : `${x.text}:*`)).join(', ')})` : t;
  });
  return `tools ${tools.join(', ') || '—'}; network ${p.network ? 'on' : 'off'}; read ${p.read.join(', ') || '—'}; write ${p.write.join(', ') || '—'}`;
}
