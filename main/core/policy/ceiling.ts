// The harness ceiling: what any call may touch at all (tools, network, read/write roots), from settings.policy.ceiling.
// Default: the open workspace read/write, each skill's own folder read-only, network off. Configurable per workspace.
import type { Settings } from '../config/index.js';
import { realRoot, type Said } from '../base/index.js';

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
  /**
   * The OS sandbox of this workspace as it is now (core/contain wallSeen, from the wall bash runs commands in): when it
   * is available, a plain command that is not destructive runs inside it without a question. Absent: no sandbox is
   * known (every command asks, as one that runs without it).
   */
  wall?: () => WallView | undefined;
}

/** What the gate needs to know of the sandbox: the workspace's mode and whether it is up. */
export interface WallView {
  mode: 'auto' | 'required' | 'off';
  available: boolean;
  /** Why it is unavailable. */
  reason: string;
  /** `reason` as words the window says in its language (absent for the sandbox runtime's own words). */
  reasonWords?: Said;
  /** Closed with its workspace: nothing runs for it, whatever the mode, so every command is refused. */
  closed?: boolean;
  /** It has not answered yet (past the bounded wait for it): treated as not there. */
  starting?: boolean;
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
