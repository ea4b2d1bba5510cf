// Wires a gate for one workspace from settings, the user's rules (from the store) and the acting skills' policies;
// derives Access for built-in tools. The catalog's live gate (skills/use/catalog-gate.ts) builds on buildGate().
import { join } from 'node:path';
import type { Settings } from '../config/index.js';
import type { Store } from '../store/index.js';
import type { Gate } from './types.js';
import { ceilingFrom, type Ceiling } from './ceiling.js';
import { appOwnedRoots, createGate, type SkillPolicy } from './gate.js';
import { nameKey, type Said } from '../base/index.js';
import { accessForArgs, TOOL } from './tool-table.js';

export interface GateSetup {
  settings: Settings;
  workspace: string;
  store?: Store;
  /**
   * The skills that act (not shadowed), each with its real folder and requested permissions: their folders become
   * read-only roots and their manifests bind them. When two share a name, the first one binds it.
   */
  skills: SkillPolicy[];
  /** The home and data folder in use (`--home`, `--data-dir`): their Knack folders always ask for writes. */
  paths?: { home: string; dataDir: string };
  /** The workspace's OS sandbox as it is now: commands inside it run without a question (policy/gate.ts). */
  wall?: Ceiling['wall'];
}

/** Knack's own folders for these paths and for the defaults (policy/gate.ts appOwnedRoots). */
export function ownRoots(paths?: { home: string; dataDir: string }): string[] {
  return paths ? [...appOwnedRoots(paths), ...appOwnedRoots()] : appOwnedRoots();
}

/** The workspace part of the ceiling (tools, network, read/write roots), without skill folders. */
export function workspaceCeiling(settings: Settings, workspace: string): Ceiling {
  return ceilingFrom(settings, workspace, []);
}

/**
 * A gate over `ceiling` with `skills` (keyed by nameKey) and the store's rules, read at every call. The skill roots
 * are `roots` (default: the skills' folders — real paths already, the catalog resolved them when it found them).
 */
export function gateOver(
  ceiling: Ceiling,
  skills: ReadonlyMap<string, SkillPolicy>,
  store?: Store,
  roots: string[] = [...skills.values()].map((s) => s.dir),
  protectedRoots: string[] = ownRoots(),
  contentHash?: (sp: SkillPolicy) => string | undefined,
  rulesUnreadable?: () => Said | undefined,
): { gate: Gate; ceiling: Ceiling } {
  const full: Ceiling = { ...ceiling, skillRoots: roots };
  const gate = createGate({
    ceiling: full,
    rules: () => store?.policy.rules() ?? [],
    ...(rulesUnreadable ? { rulesUnreadable } : {}),
    skill: (name) => skills.get(nameKey(name)),
    protectedRoots,
    ...(contentHash ? { contentHash } : {}),
  });
  return { gate, ceiling: full };
}

export function buildGate(setup: GateSetup): { gate: Gate; ceiling: Ceiling } {
  const policies = new Map<string, SkillPolicy>();
  for (const s of setup.skills) if (!policies.has(nameKey(s.name))) policies.set(nameKey(s.name), s);
  // Every acting skill's folder is a read-only root, also one whose name another binds first.
  return gateOver(
    { ...workspaceCeiling(setup.settings, setup.workspace), ...(setup.wall ? { wall: setup.wall } : {}) },
    policies,
    setup.store,
    setup.skills.map((s) => s.dir),
    ownRoots(setup.paths),
  );
}

/** Access of a tool call from its arguments, by the one tool table (tool-table.ts). */
export { accessForArgs } from './tool-table.js';

/**
 * Whether the agent may read a file by its path from `root`: the gate, asked as it would be for the agent's read_file,
 * says anything but deny (an ask still lets the name be shown or the text be read for the prompt). One answer for the
 * `@` file menu and the folder's instructions files.
 */
export function agentMayRead(gate: Gate, root: string): (rel: string) => boolean {
  return (rel) => {
    const args = { path: join(root, rel) };
    const call = { tool: TOOL.read_file, args, access: accessForArgs(TOOL.read_file, args) };
    return gate.authorize(call, { kind: 'agent', activeSkills: [] }).verdict !== 'deny';
  };
}
