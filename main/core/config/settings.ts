// Settings: defaults ← user file (<dataDir>/settings.json) ← workspace file (<ws>/.workbuddy/settings.json).
// A broken settings file never stops the app: it is reported as a diagnostic and the other layers still apply.
import { readRegularFile } from '../base/index.js';
import { join } from 'node:path';
import type { Diagnostic } from '../base/index.js';
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
export const SANDBOX_MODES: readonly SandboxMode[] = ['off', 'auto', 'required'];

export interface Settings {
  discovery: {
    /** Also read the open standard's `.agents/skills` folders (user and project). */
    agentsFolders: boolean;
    /** Maximum folder depth below a tier root when looking for SKILL.md. */
    maxDepth: number;
    /** Maximum folders visited per tier root. */
    maxFolders: number;
  };
  catalog: {
    /** The model's context window in tokens. */
    contextWindow: number;
    /** Share of the context window the skill catalog may use. */
    budgetFraction: number;
    /** Absolute budget; overrides budgetFraction when set. */
    budgetTokens?: number;
  };
  policy: {
    ceiling: {
      /** Tools the harness offers at all; `*` = every registered tool. */
      tools: string[];
      network: boolean;
      /** Extra read/write roots besides the workspace (absolute). */
      readRoots: string[];
      writeRoots: string[];
    };
  };
  tools: {
    /** Tool names to defer (kept out of the prompt) in addition to the defaults. */
    deferred: string[];
    /** Tool names to always load even if deferred by default. */
    alwaysLoaded: string[];
  };
  skills: {
    /** Marketplaces `knack skills browse` and the Browse view read (sources as `knack skills add` takes them). */
    marketplaces: string[];
  };
  /** Skill-script sandbox limits; meaning and bounds in main/core/sandbox/limits.ts and docs/skill-scripts.md. */
  sandbox: SandboxLimits & { mode: SandboxMode };
  agent: {
    /** A model reply that receives no bytes for this many seconds ends as timed out (0: never). */
    stallSeconds: number;
  };
}

export const DEFAULT_SETTINGS: Settings = {
  discovery: { agentsFolders: true, maxDepth: 4, maxFolders: 20_000 },
  catalog: { contextWindow: 200_000, budgetFraction: 0.02 },
  policy: { ceiling: { tools: ['*'], network: false, readRoots: [], writeRoots: [] } },
  tools: { deferred: [], alwaysLoaded: [] },
  skills: { marketplaces: [] },
  sandbox: {
    timeoutMs: 5_000,
    cpuTimeMs: 5_000,
    memoryMb: 64,
    maxOutputBytes: 1_000_000,
    maxLogBytes: 64_000,
    maxCapabilityCalls: 1_000,
    maxPendingCalls: 16,
    maxConcurrent: 4,
    maxQueued: 64,
    poolSize: 1,
    heartbeatMs: 100,
    heartbeatTimeoutMs: 2_000,
    killGraceMs: 250,
    maxFileBytes: 4_000_000,
    maxListEntries: 5_000,
    mode: 'auto',
  },
  agent: { stallSeconds: 90 },
};

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

/** Numbers that only make sense in a range: [minimum, maximum, whole numbers only, what the number is]. */
const NUMBER_RULES: Record<string, [number, number, boolean, string]> = {
  'discovery.maxDepth': [0, 1_000, true, 'a whole number of folder levels, 0 or more'],
  'discovery.maxFolders': [1, 10_000_000, true, 'a whole number of folders, 1 or more'],
  'catalog.contextWindow': [1, 100_000_000, true, 'a whole number of tokens, 1 or more'],
  'catalog.budgetFraction': [
    Number.MIN_VALUE,
    1,
    false,
    'a share of the context window above 0 and at most 1 (0.02 = 2%)',
  ],
  'catalog.budgetTokens': [0, 100_000_000, true, 'a whole number of tokens, 0 or more'],
  'agent.stallSeconds': [0, 86_400, false, 'a number of seconds from 0 (never) to 86400'],
};

/** Why a number breaks its field's rule, or undefined when it fits (or the field has no rule). */
function numberProblem(field: string, v: number): string | undefined {
  const rule = NUMBER_RULES[field];
  if (!rule) return undefined;
  const [min, max, whole, what] = rule;
  return v < min || v > max || (whole && !Number.isInteger(v)) ? `"${field}" must be ${what} (got ${v})` : undefined;
}

/** Merge `over` into `base` following the shape of DEFAULT_SETTINGS; wrong types are reported, not applied. */
function mergeInto(base: Json, over: Json, file: string, prefix: string, diags: Diagnostic[]): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const field = prefix ? `${prefix}.${k}` : k;
    if (!(k in base) && !(field === 'catalog.budgetTokens')) {
      diags.push({
        severity: 'warning',
        code: 'settings.unknown',
        file,
        field,
        message: `unknown setting "${field}" (ignored)`,
      });
      continue;
    }
    const cur = field === 'catalog.budgetTokens' ? 0 : base[k];
    if (isObject(cur)) {
      if (!isObject(v)) {
        diags.push({ severity: 'error', code: 'settings.type', file, field, message: `"${field}" must be an object` });
        continue;
      }
      out[k] = mergeInto(cur, v, file, field, diags);
    } else if (Array.isArray(cur)) {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
        diags.push({
          severity: 'error',
          code: 'settings.type',
          file,
          field,
          message: `"${field}" must be a list of strings`,
        });
        continue;
      }
      out[k] = v;
    } else if (cur !== undefined && typeof v !== typeof cur) {
      diags.push({
        severity: 'error',
        code: 'settings.type',
        file,
        field,
        message: `"${field}" must be a ${typeof cur}`,
      });
    } else if (field === 'sandbox.mode' && !SANDBOX_MODES.includes(v as SandboxMode)) {
      diags.push({
        severity: 'error',
        code: 'settings.type',
        file,
        field,
        message: `"sandbox.mode" must be "auto", "required" or "off" (got ${JSON.stringify(v)})`,
      });
    } else if (typeof v === 'number' && numberProblem(field, v)) {
      diags.push({ severity: 'error', code: 'settings.range', file, field, message: numberProblem(field, v)! });
    } else {
      out[k] = v;
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
        message: `cannot read settings: ${(e as Error).message}`,
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
      message: `invalid JSON: ${read.error.message}`,
    });
    return { keys: read.keys };
  }
  if (!isObject(read.value)) {
    diags.push({ severity: 'error', code: 'settings.type', file, line: 1, message: 'settings must be a JSON object' });
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

export const workspaceScope = (workspace: string): string => `workspace:${workspace}`;

/** A ceiling read back from the store; one of another shape counts as nothing allowed (it cannot be trusted wider). */
function storedCeiling(v: unknown): Ceiling {
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (
    isObject(v) &&
    strings(v.tools) &&
    typeof v.network === 'boolean' &&
    strings(v.readRoots) &&
    strings(v.writeRoots)
  )
    return { tools: v.tools, network: v.network, readRoots: v.readRoots, writeRoots: v.writeRoots };
  return { tools: [], network: false, readRoots: [], writeRoots: [] };
}

/**
 * Load the settings: defaults ← the user's file ← the workspace's. With `memory`, a file that does not read cleanly
 * where the ceiling is concerned (blocksCeilingChange) applies the narrowest of the last good ceiling of its scope, the
 * defaults and what could be read; a file that reads cleanly saves its ceiling as the last good one.
 */
export function loadSettings(dataDir: string, workspace?: string, memory?: CeilingMemory): LoadedSettings {
  const diagnostics: Diagnostic[] = [];
  let merged = structuredClone(DEFAULT_SETTINGS) as unknown as Json;
  const files = settingsFiles(dataDir, workspace);
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
        message: `cannot read the last good ceiling: ${(e as Error).message}`,
      });
    }
    const floor = last === undefined ? DEFAULT_SETTINGS.policy.ceiling : storedCeiling(last);
    diagnostics.push({
      severity: 'warning',
      code: 'settings.kept',
      file,
      message: `does not read cleanly: until it is fixed, the narrowest of ${last === undefined ? 'the defaults' : 'the last good permission ceiling and the defaults'} applies`,
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
        message: `cannot keep this ceiling as the last good one: ${(e as Error).message}`,
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
    if (layer.json) merged = mergeInto(merged, layer.json, f, '', diagnostics);
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
      message: `a workspace cannot loosen the sandbox ("${settings.sandbox.mode}" after your "${userMode}"); ignored`,
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
  const warn = (field: string, message: string): void => {
    diags.push({ severity: 'warning', code: 'settings.ceiling-widening', file, field, message });
  };
  const userAll = user.tools.includes('*');
  const offered = (t: string): boolean => userAll || user.tools.includes(t);
  if (merged.tools.some((t) => !offered(t)))
    warn('policy.ceiling.tools', 'a workspace cannot offer tools your user settings do not; ignored');
  const tools = merged.tools.includes('*') && !userAll ? [...user.tools] : merged.tools.filter(offered);
  if (merged.network && !user.network)
    warn('policy.ceiling.network', 'a workspace cannot turn the network on; set it in your user settings');
  const roots = (kind: 'readRoots' | 'writeRoots'): string[] => {
    const extra = merged[kind].filter((r) => !user[kind].includes(r));
    if (extra.length) warn(`policy.ceiling.${kind}`, `a workspace cannot add roots (${extra.join(', ')}); ignored`);
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
