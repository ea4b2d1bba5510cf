// The harness ceiling: what any call may touch at all (tools, network, read/write roots), from settings.policy.ceiling.
// Default: the open workspace read/write, each skill's own folder read-only, network off. Configurable per workspace.
import { DEFAULT_SETTINGS, loadSettings, workspaceSettingsPath, type Settings } from '../config.js';
import type { Diagnostic } from '../skills/types.js';
import { realRoot } from './paths.js';

export interface Ceiling {
  /** Tool names offered at all; `*` = every registered tool. */
  tools: string[];
  network: boolean;
  /** Real paths. The workspace comes first. */
  readRoots: string[];
  writeRoots: string[];
  /** Real paths of skill folders: readable, never writable. */
  skillRoots: string[];
  workspace: string;
}

export function ceilingFrom(settings: Settings, workspace: string, skillDirs: string[] = []): Ceiling {
  const c = settings.policy.ceiling;
  const ws = realRoot(workspace);
  return {
    tools: [...c.tools],
    network: c.network,
    readRoots: [ws, ...c.readRoots.map(realRoot)],
    writeRoots: [ws, ...c.writeRoots.map(realRoot)],
    skillRoots: skillDirs.map(realRoot),
    workspace: ws,
  };
}

export function ceilingAllowsTool(c: Ceiling, tool: string): boolean {
  return c.tools.includes('*') || c.tools.includes(tool);
}

export interface LoadedCeiling {
  ceiling: Ceiling;
  /** Widenings the workspace file asked for and did not get. */
  diagnostics: Diagnostic[];
}

/**
 * The ceiling for a workspace: the user's settings, narrowed (never widened) by the workspace's own
 * `.workbuddy/settings.json` — a cloned repository must not be able to turn the network on or add roots for itself.
 */
export function loadCeiling(dataDir: string, workspace: string, skillDirs: string[] = []): LoadedCeiling {
  const user = loadSettings(dataDir).settings.policy.ceiling;
  const merged = loadSettings(dataDir, workspace).settings.policy.ceiling;
  const file = workspaceSettingsPath(workspace);
  const diagnostics: Diagnostic[] = [];
  const warn = (field: string, message: string): void => {
    diagnostics.push({ severity: 'warning', code: 'settings.ceiling-widening', file, field, message });
  };
  const userAll = user.tools.includes('*');
  const tools = merged.tools.filter((t) => userAll || user.tools.includes(t) || t === '*');
  const narrowedTools = tools.includes('*') && !userAll ? [...user.tools] : tools;
  if (merged.tools.some((t) => !(userAll || user.tools.includes(t)))) warn('policy.ceiling.tools', 'a workspace cannot offer tools your user settings do not; ignored');
  const network = user.network && merged.network;
  if (merged.network && !user.network) warn('policy.ceiling.network', 'a workspace cannot turn the network on; set it in your user settings');
  const keep = (kind: 'readRoots' | 'writeRoots'): string[] => {
    const extra = merged[kind].filter((r) => !user[kind].includes(r));
    if (extra.length) warn(`policy.ceiling.${kind}`, `a workspace cannot add roots (${extra.join(', ')}); ignored`);
    return merged[kind].filter((r) => user[kind].includes(r));
  };
  const settings = { ...DEFAULT_SETTINGS, policy: { ceiling: { tools: narrowedTools, network, readRoots: keep('readRoots'), writeRoots: keep('writeRoots') } } };
  return { ceiling: ceilingFrom(settings, workspace, skillDirs), diagnostics };
}
