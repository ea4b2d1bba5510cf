// The one table of Knack's tool names: each tool's access class, the arguments that name what a call touches, its
// role at the gate and its spelling in skills' `allowed-tools`. The gate, permissions, the registry and the tools read it.
import type { Access } from './types.js';

/** What a call of a tool does, as the gate and plan mode see it (a tool definition's `risk`). */
export type AccessClass = 'read' | 'write' | 'execute' | 'network' | 'meta';

export interface ToolSpec {
  access: AccessClass;
  /**
   * The arguments that say what a call touches: a workspace path it reads or writes, its command line, its URL.
   * A tool with any of them is a workspace tool: naming it in `allowed-tools` reaches the workspace (see permissions.ts).
   */
  args?: { read?: string; write?: string; command?: string; url?: string };
  /** Its names in the Agent Skills / Claude Code vocabulary (`allowed-tools: Read, Bash(git:*)`), case-insensitive. */
  skillNames?: readonly string[];
  /**
   * The harness's own tools (finding and running tools, finding and loading skills): while skills with declared
   * permissions are loaded the agent may still use them as far as they touch nothing or only read skill folders.
   */
  harness?: true;
  /**
   * Acts as another identity (runs a skill's script, which then acts as that skill) or creates identities: never
   * callable by a skill's script, directly or through any indirection.
   */
  notForSkills?: true;
  /** A skill script's file capability (readFile, writeFile, listDir): bounded by the manifest's paths, not its tools. */
  scriptCapability?: true;
  /** Offered whatever the ceiling's tool list says (deferral needs them). */
  alwaysOffered?: true;
  /**
   * `false`: a name of the Agent Skills vocabulary that Knack does not offer. Kept so that a skill asking for it reads
   * the same everywhere (and gets what it implies, such as network); no call of it ever reaches the gate.
   */
  provided?: false;
}

export const TOOLS = {
  read_file: { access: 'read', args: { read: 'path' }, skillNames: ['Read'], scriptCapability: true },
  write_file: { access: 'write', args: { write: 'path' }, skillNames: ['Write'], scriptCapability: true },
  edit_file: {
    access: 'write',
    args: { read: 'path', write: 'path' },
    skillNames: ['Edit', 'MultiEdit', 'NotebookEdit'],
  },
  list_dir: { access: 'read', args: { read: 'path' }, skillNames: ['LS'], scriptCapability: true },
  glob: { access: 'read', args: { read: 'path' }, skillNames: ['Glob'] },
  grep: { access: 'read', args: { read: 'path' }, skillNames: ['Grep'] },
  bash: { access: 'execute', args: { command: 'command' }, skillNames: ['Bash', 'Shell'] },
  web_fetch: { access: 'network', args: { url: 'url' }, skillNames: ['WebFetch'] },
  web_search: { access: 'network', skillNames: ['WebSearch'], provided: false },
  task: { access: 'meta', skillNames: ['Task'], provided: false },
  todo_write: { access: 'meta', skillNames: ['TodoWrite'], provided: false },
  ListMcpResources: { access: 'read' },
  ReadMcpResource: { access: 'read' },
  ToolSearch: { access: 'meta', harness: true, alwaysOffered: true },
  DeferExecuteTool: { access: 'meta', harness: true, alwaysOffered: true },
  Skill: { access: 'read', harness: true },
  SkillSearch: { access: 'meta', harness: true },
  list_skills: { access: 'meta', harness: true },
  read_skill_resource: { access: 'read', harness: true },
  run_skill_script: { access: 'execute', notForSkills: true },
  create_skill: { access: 'write', notForSkills: true },
  /** Searches the configured marketplaces and proposes an install the user reviews; it installs nothing itself. */
  skill_marketplace: { access: 'meta' },
} as const satisfies Record<string, ToolSpec>;

export type ToolName = keyof typeof TOOLS;

/** Each name as a value: `TOOL.read_file` is `'read_file'` — a tool renamed in the table fails to compile everywhere. */
export const TOOL = Object.fromEntries(Object.keys(TOOLS).map((n) => [n, n])) as { readonly [K in ToolName]: K };

/** The table's entry for a name (undefined for connector, catalog and unknown tools). */
export function toolSpec(name: string): ToolSpec | undefined {
  return Object.hasOwn(TOOLS, name) ? (TOOLS as Record<string, ToolSpec>)[name] : undefined;
}

/** The names whose entry satisfies `test`, as a set (the gate's and the permission reader's lists). */
export function toolsWhere(test: (spec: ToolSpec) => boolean): ReadonlySet<string> {
  return new Set(
    Object.entries(TOOLS as Record<string, ToolSpec>)
      .filter(([, s]) => test(s))
      .map(([n]) => n),
  );
}

/** Tools whose effect is their command line (Access.command): they always need a rule or an approval. */
export const COMMAND_TOOLS = toolsWhere((s) => s.args?.command !== undefined);

/** Agent Skills / Claude Code names (lowercase) → Knack tool names: `read` → `read_file`, `ls` → `list_dir`. */
export const SKILL_TOOL_NAMES: Readonly<Record<string, string>> = Object.assign(
  Object.create(null) as Record<string, string>, // no prototype: `constructor` is not a tool name
  Object.fromEntries(
    Object.entries(TOOLS as Record<string, ToolSpec>).flatMap(([name, s]) =>
      (s.skillNames ?? []).map((a) => [a.toLowerCase(), name]),
    ),
  ),
);

/**
 * What a call of a tool in the table touches, from its arguments (the names in `args`): paths read (default `.`),
 * paths written, its command line, the network and its host. Tools outside the table touch nothing known: `{}`.
 */
export function accessForArgs(tool: string, args: Record<string, unknown>): Access {
  const spec = toolSpec(tool);
  if (!spec) return {};
  const str = (k: string | undefined): string | undefined =>
    k !== undefined && typeof args[k] === 'string' ? (args[k] as string) : undefined;
  const a = spec.args ?? {};
  const access: Access = {};
  if (a.read !== undefined) access.read = [str(a.read) ?? '.'];
  if (a.write !== undefined) access.write = [str(a.write) ?? ''].filter(Boolean);
  if (a.command !== undefined) access.command = str(a.command) ?? '';
  // `sandbox: false`: the command asks to run outside the OS sandbox (its own approval, policy/gate.ts).
  if (a.command !== undefined && args.sandbox === false) access.unsandboxed = true;
  if (spec.access === 'network') {
    access.network = true;
    let host: string | undefined;
    try {
      host = new URL(str(a.url) ?? '').hostname;
    } catch {
      host = undefined;
    }
    if (host) access.host = host;
  }
  return access;
}
