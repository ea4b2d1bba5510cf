// Settings: defaults ← user file (<dataDir>/settings.json) ← workspace file (<ws>/.workbuddy/settings.json).
// A broken settings file never stops the app: it is reported as a diagnostic and the other layers still apply.
import { isInside, readRegularFile } from '../base/index.js';
import { join } from 'node:path';
import { said, say, WORDS, type Diagnostic, type Said, type WordCode } from '../base/index.js';
import { z } from 'zod';
import { readJsonText } from './json-text.js';

/** Skill-script limits enforced inside the sandbox host for one run (meaning and bounds: sandbox/limits.ts). */
export interface RunLimits {
  /** Wall-clock budget for the whole run, bridged calls to the main process included. */
  timeoutMs: number;
  /** CPU time the isolate may burn. */
  cpuTimeMs: number;
  /** Isolate heap + ArrayBuffer memory, in MB (isolated-vm memoryLimit). */
  memoryMb: number;
  /** Size of the JSON result, in UTF-8 bytes, checked inside the isolate before it is copied out. */
  maxOutputBytes: number;
  /** Total `knack.log` output per run, in UTF-8 bytes. */
  maxLogBytes: number;
  /** Capability calls (readFile, writeFile, listDir, callTool) per run. */
  maxCapabilityCalls: number;
  /** Capability calls in flight at once. */
  maxPendingCalls: number;
}

/** Limits enforced by the client in the main process. */
export interface SandboxLimits extends RunLimits {
  /** Runs executing at once, across the pool. */
  maxConcurrent: number;
  /** Runs waiting for a slot; one more is refused with `limit.concurrency`. */
  maxQueued: number;
  /** Host processes kept warm. */
  poolSize: number;
  /** How often a host reports it is alive. */
  heartbeatMs: number;
  /** A busy host silent for this long is killed and restarted. */
  heartbeatTimeoutMs: number;
  /** After a run's deadline, how long the client waits for the host to stop it before killing the host. */
  killGraceMs: number;
  /** Largest file readFile returns or writeFile writes, in bytes. */
  maxFileBytes: number;
  /** Most entries listDir returns. */
  maxListEntries: number;
}

/**
 * How commands meet the OS sandbox (core/contain): `auto` runs them inside it when it is available and asks for every
 * command when it is not; `required` refuses commands while it is unavailable; `off` runs them without it (each asks).
 * A workspace's file may only make this stricter (off < auto < required).
 */
export type SandboxMode = 'auto' | 'required' | 'off';
const SANDBOX_MODES: readonly SandboxMode[] = ['off', 'auto', 'required'];

/**
 * A number setting in bounds; `what` is the code of the words that say what it is (preload/words.ts), for the message
 * when a file breaks them: zod carries the code as the issue's message, fieldProblem says it.
 */
const range = (what: WordCode, min: number, max: number, whole = true) =>
  z
    .number()
    .min(min, what)
    .max(max, what)
    .refine((v) => !whole || Number.isInteger(v), what);
const SHARE: WordCode = 'settings.what.share';
const strings = (dflt: string[]) => z.array(z.string()).default(dflt);
const limit = (dflt: number) => z.number().default(dflt);

/**
 * Every setting once: its type, its default and its bounds (zod). A file is read against it field by field
 * (mergeInto): a field of the wrong type or out of bounds is reported and skipped, the others still apply.
 */
const SettingsSchema = z.object({
  discovery: z.object({
    /** Also read the open standard's `.agents/skills` folders (user and project). */
    agentsFolders: z.boolean().default(true),
    /** Maximum folder depth below a tier root when looking for SKILL.md. */
    maxDepth: range('settings.what.levels', 0, 1_000).default(4),
    /** Maximum folders visited per tier root. */
    maxFolders: range('settings.what.folders', 1, 10_000_000).default(20_000),
  }),
  catalog: z.object({
    /** The model's context window in tokens. */
    contextWindow: range('settings.what.tokens1', 1, 100_000_000).default(200_000),
    /** Share of the context window the skill catalog may use. */
    budgetFraction: z.number().gt(0, SHARE).max(1, SHARE).default(0.02),
    /** Absolute budget; overrides budgetFraction when set. */
    budgetTokens: range('settings.what.tokens0', 0, 100_000_000).optional(),
  }),
  policy: z.object({
    ceiling: z.object({
      /** Tools the harness offers at all; `*` = every registered tool. */
      tools: strings(['*']),
      network: z.boolean().default(false),
      /** Extra read/write roots besides the workspace (absolute). */
      readRoots: strings([]),
      writeRoots: strings([]),
    }),
  }),
  tools: z.object({
    /** Tool names to defer (kept out of the prompt) in addition to the defaults. */
    deferred: strings([]),
    /** Tool names to always load even if deferred by default. */
    alwaysLoaded: strings([]),
  }),
  skills: z.object({
    /** Marketplaces `knack skills browse` and the Browse view read (sources as `knack skills add` takes them). */
    marketplaces: strings([]),
  }),
  /** Skill-script sandbox limits; meaning and bounds in main/core/sandbox/limits.ts and docs/skill-scripts.md. */
  sandbox: z.object({
    timeoutMs: limit(5_000),
    cpuTimeMs: limit(5_000),
    memoryMb: limit(64),
    maxOutputBytes: limit(1_000_000),
    maxLogBytes: limit(64_000),
    maxCapabilityCalls: limit(1_000),
    maxPendingCalls: limit(16),
    maxConcurrent: limit(4),
    maxQueued: limit(64),
    poolSize: limit(1),
    heartbeatMs: limit(100),
    heartbeatTimeoutMs: limit(2_000),
    killGraceMs: limit(250),
    maxFileBytes: limit(4_000_000),
    maxListEntries: limit(5_000),
    mode: z.enum(['auto', 'required', 'off']).default('auto'),
  }),
  agent: z.object({
    /** A model reply that receives no bytes for this many seconds ends as timed out (0: never). */
    stallSeconds: range('settings.what.seconds', 0, 86_400, false).default(90),
    /** Put the folder's AGENTS.md (else CLAUDE.md) in the system prompt (docs/agent.md). */
    projectInstructions: z.boolean().default(true),
  }),
});

export type Settings = z.output<typeof SettingsSchema>;

/** The defaults of every field, read from the schema. */
function defaultsOf(shape: Record<string, z.ZodType>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape)) {
    const v = s instanceof z.ZodObject ? defaultsOf(s.shape as Record<string, z.ZodType>) : s.parse(undefined);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export const DEFAULT_SETTINGS = defaultsOf(SettingsSchema.shape) as Settings;

export const SETTINGS_FILE = 'settings.json';

export function userSettingsPath(dataDir: string): string {
  return join(dataDir, SETTINGS_FILE);
}

export function workspaceSettingsPath(workspace: string): string {
  return join(workspace, '.workbuddy', SETTINGS_FILE);
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const TYPE_WORDS: Record<string, WordCode> = {
  array: 'settings.what.strings',
  object: 'settings.what.object',
  boolean: 'settings.what.boolean',
  number: 'settings.what.number',
  string: 'settings.what.string',
};

/** Values in words: `"a", "b" or "c"` (the values are JSON, shown as they are written). */
function oneOf(vals: string[]): Said | string {
  if (vals.length < 2) return vals[0] ?? '';
  return say('listOrWord', { a: vals.slice(0, -1).join(', '), b: vals.at(-1)! });
}

/** One field that does not fit its schema, in the file's words: `"catalog.maxDepth" must be … (got 2.5)`. */
function fieldProblem(file: string, field: string, v: unknown, issue: z.core.$ZodIssue): Diagnostic {
  const at = { severity: 'error' as const, file, field };
  const got = JSON.stringify(v) ?? String(v);
  if (issue.code === 'invalid_type') {
    const what: Said = issue.path.length
      ? say('settings.what.strings')
      : TYPE_WORDS[issue.expected]
        ? say(TYPE_WORDS[issue.expected]!)
        : say('settings.what.other', { type: issue.expected });
    return { ...at, code: 'settings.type', ...said(say('settings.mustBe', { field, what })) };
  }
  if (issue.code === 'invalid_value') {
    const what = oneOf(issue.values.map((x) => JSON.stringify(x)));
    return { ...at, code: 'settings.type', ...said(say('settings.mustBeGot', { field, what, got })) };
  }
  const code = issue.message as WordCode;
  const what = Object.prototype.hasOwnProperty.call(WORDS, code)
    ? say(code)
    : say('fs.other', { error: issue.message });
  return { ...at, code: 'settings.range', ...said(say('settings.mustBeGot', { field, what, got })) };
}

/** Merge `over` into `base` field by field against the schema; what does not fit is reported, not applied. */
function mergeInto(
  shape: Record<string, z.ZodType>,
  base: Json,
  over: Json,
  file: string,
  prefix: string,
  diags: Diagnostic[],
): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const field = prefix ? `${prefix}.${k}` : k;
    const schema = shape[k];
    if (!schema) {
      diags.push({
        severity: 'warning',
        code: 'settings.unknown',
        file,
        field,
        ...said(say('settings.unknown', { field })),
      });
    } else if (schema instanceof z.ZodObject) {
      if (isObject(v)) out[k] = mergeInto(schema.shape, (base[k] ?? {}) as Json, v, file, field, diags);
      else
        diags.push({
          severity: 'error',
          code: 'settings.type',
          file,
          field,
          ...said(say('settings.object', { field })),
        });
    } else {
      const r = schema.safeParse(v);
      if (r.success) out[k] = r.data;
      else diags.push(fieldProblem(file, field, v, r.error.issues[0]!));
    }
  }
  return out;
}

/** One settings file as read: its object (when it is one) and the line of each key, for diagnostics. */
interface Layer {
  json?: Json;
  keys: Map<string, number>;
}

function readLayer(file: string, diags: Diagnostic[]): Layer {
  let text: string;
  try {
    // Non-blocking open and fstat first: a pipe named settings.json would otherwise freeze start-up.
    text = readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      diags.push({
        severity: 'error',
        code: 'settings.read',
        file,
        ...said(say('settings.read', { error: (e as Error).message })),
      });
    }
    return { keys: new Map() };
  }
  const read = readJsonText(text);
  if (read.error) {
    diags.push({
      severity: 'error',
      code: 'settings.json',
      file,
      line: read.error.line,
      column: read.error.column,
      ...said(say('settings.json', { error: read.error.words })),
    });
    return { keys: read.keys };
  }
  if (!isObject(read.value)) {
    diags.push({ severity: 'error', code: 'settings.type', file, line: 1, ...said(say('settings.notObject')) });
    return { keys: read.keys };
  }
  return { json: read.value, keys: read.keys };
}

export interface LoadedSettings {
  settings: Settings;
  diagnostics: Diagnostic[];
}

type Ceiling = Settings['policy']['ceiling'];

/**
 * Where the last ceiling read from files that parsed is kept (the store's settings_ceiling table), by scope: `user`
 * (after the user's file) and `workspace:<real path>` (after both files).
 */
export interface CeilingMemory {
  last(scope: string): unknown;
  save(scope: string, ceiling: Ceiling): void;
}

const workspaceScope = (workspace: string): string => `workspace:${workspace}`;

const StoredCeiling = z.object({
  tools: z.array(z.string()),
  network: z.boolean(),
  readRoots: z.array(z.string()),
  writeRoots: z.array(z.string()),
});

/** A ceiling read back from the store; one of another shape counts as nothing allowed (it cannot be trusted wider). */
function storedCeiling(v: unknown): Ceiling {
  return StoredCeiling.safeParse(v).data ?? { tools: [], network: false, readRoots: [], writeRoots: [] };
}

/**
 * Load the settings: defaults ← the user's file ← the workspace's. With `memory`, a file that does not read cleanly
 * where the ceiling is concerned (blocksCeilingChange) applies the narrowest of the last good ceiling of its scope, the
 * defaults and what could be read; a file that reads cleanly saves its ceiling as the last good one. A file inside
 * one of the `hidden` paths is not read, as if it were absent: a sandboxed command that is still running may have
 * made it (the wall's guarded paths, which the sweep at its end moves aside).
 */
export function loadSettings(
  dataDir: string,
  workspace?: string,
  memory?: CeilingMemory,
  hidden: readonly string[] = [],
): LoadedSettings {
  const diagnostics: Diagnostic[] = [];
  let merged = structuredClone(DEFAULT_SETTINGS) as unknown as Json;
  const files = settingsFiles(dataDir, workspace).filter((f) => !hidden.some((h) => isInside(f, h)));
  let userCeiling: Ceiling | undefined;
  let userMode: SandboxMode | undefined;
  const lines = new Map<string, Map<string, number>>();
  const brokenFiles = new Set<string>();
  const current = (): Settings => merged as unknown as Settings;
  /** Narrow the ceiling in force to the last good one of `scope` (or the defaults), saying so for `file`. */
  const keepLastGood = (scope: string, file: string, base: Ceiling): Ceiling => {
    let last: unknown;
    try {
      last = memory?.last(scope);
    } catch (e) {
      last = {}; // unreadable: nothing is known to be allowed
      diagnostics.push({
        severity: 'error',
        code: 'settings.memory',
        file,
        ...said(say('settings.memoryRead', { error: (e as Error).message })),
      });
    }
    const floor = last === undefined ? DEFAULT_SETTINGS.policy.ceiling : storedCeiling(last);
    diagnostics.push({
      severity: 'warning',
      code: 'settings.kept',
      file,
      ...said(say(last === undefined ? 'settings.keptDefaults' : 'settings.keptLastGood')),
    });
    return narrowCeiling(narrowCeiling(DEFAULT_SETTINGS.policy.ceiling, floor, file, []), base, file, []);
  };
  const save = (scope: string, file: string, ceiling: Ceiling): void => {
    try {
      memory?.save(scope, ceiling);
    } catch (e) {
      diagnostics.push({
        severity: 'warning',
        code: 'settings.memory',
        file,
        ...said(say('settings.memorySave', { error: (e as Error).message })),
      });
    }
  };
  for (const f of files) {
    if (f !== files[0]) {
      userCeiling = structuredClone(current().policy.ceiling);
      userMode = current().sandbox.mode;
    }
    const from = diagnostics.length;
    const layer = readLayer(f, diagnostics);
    lines.set(f, layer.keys);
    if (layer.json) merged = mergeInto(SettingsSchema.shape, merged, layer.json, f, '', diagnostics);
    if (diagnostics.slice(from).some(blocksCeilingChange)) brokenFiles.add(f);
    if (f === files[0] && memory) {
      if (brokenFiles.has(f)) current().policy.ceiling = keepLastGood('user', f, current().policy.ceiling);
      else save('user', f, current().policy.ceiling);
    }
  }
  const settings = current();
  if (workspace && userCeiling)
    settings.policy.ceiling = narrowCeiling(
      userCeiling,
      settings.policy.ceiling,
      workspaceSettingsPath(workspace),
      diagnostics,
    );
  if (workspace && memory) {
    const wsFile = workspaceSettingsPath(workspace);
    if (brokenFiles.has(wsFile))
      settings.policy.ceiling = keepLastGood(workspaceScope(workspace), wsFile, settings.policy.ceiling);
    else if (!brokenFiles.size) save(workspaceScope(workspace), wsFile, settings.policy.ceiling);
  }
  // A cloned repository must not turn the sandbox off (or from required to auto) for itself.
  if (workspace && userMode && SANDBOX_MODES.indexOf(settings.sandbox.mode) < SANDBOX_MODES.indexOf(userMode)) {
    diagnostics.push({
      severity: 'warning',
      code: 'settings.ceiling-widening',
      file: workspaceSettingsPath(workspace),
      field: 'sandbox.mode',
      ...said(say('settings.widen.sandbox', { mode: settings.sandbox.mode, userMode })),
    });
    settings.sandbox.mode = userMode;
  }
  // Each problem about a key names the line the key is on: `…/.workbuddy/settings.json:4: policy.ceiling.network: …`.
  for (const d of diagnostics) {
    if (d.line === undefined && d.field) {
      const line = lines.get(d.file)?.get(d.field);
      if (line !== undefined) d.line = line;
    }
  }
  return { settings, diagnostics };
}

/** The settings files in the order they apply: the user's, then the workspace's (when a workspace is given). */
export function settingsFiles(dataDir: string, workspace?: string): string[] {
  return [userSettingsPath(dataDir), ...(workspace ? [workspaceSettingsPath(workspace)] : [])];
}

/**
 * A problem that makes a settings file unfit to change the ceiling in force: the file cannot be read or is not JSON, or
 * something under `policy` is of the wrong type or unknown. Read at open, such a file is skipped (defaults apply); read
 * again while a workspace is open, it must not replace the last good ceiling — a half-saved file or a typo would
 * otherwise drop a narrowing (turn the network back on, give back every tool).
 */
export function blocksCeilingChange(d: Diagnostic): boolean {
  if (!d.code.startsWith('settings.') || d.code === 'settings.ceiling-widening') return false;
  const underPolicy = d.field === 'policy' || d.field?.startsWith('policy.') === true;
  if (d.severity === 'error') return !d.field || underPolicy;
  return d.code === 'settings.unknown' && underPolicy;
}

/**
 * A workspace's own settings file may narrow the policy ceiling but never widen it: a cloned repository must not be able
 * to turn the network on, offer more tools or add read/write roots for itself. Widenings are dropped with a warning.
 */
export function narrowCeiling(
  user: Settings['policy']['ceiling'],
  merged: Settings['policy']['ceiling'],
  file: string,
  diags: Diagnostic[],
): Settings['policy']['ceiling'] {
  const warn = (field: string, words: Said): void => {
    diags.push({ severity: 'warning', code: 'settings.ceiling-widening', file, field, ...said(words) });
  };
  const userAll = user.tools.includes('*');
  const offered = (t: string): boolean => userAll || user.tools.includes(t);
  if (merged.tools.some((t) => !offered(t))) warn('policy.ceiling.tools', say('settings.widen.tools'));
  const tools = merged.tools.includes('*') && !userAll ? [...user.tools] : merged.tools.filter(offered);
  if (merged.network && !user.network) warn('policy.ceiling.network', say('settings.widen.network'));
  const roots = (kind: 'readRoots' | 'writeRoots'): string[] => {
    const extra = merged[kind].filter((r) => !user[kind].includes(r));
    if (extra.length) warn(`policy.ceiling.${kind}`, say('settings.widen.roots', { roots: extra.join(', ') }));
    return merged[kind].filter((r) => user[kind].includes(r));
  };
  return {
    ...merged,
    tools,
    network: user.network && merged.network,
    readRoots: roots('readRoots'),
    writeRoots: roots('writeRoots'),
  };
}
