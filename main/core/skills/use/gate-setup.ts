// Wires a gate for one workspace from settings, the store's rules and the skill catalog; derives Access for built-in tools.
// The agent loop and the CLI call buildGate(); tools with their own access() should use that instead of accessForArgs().
import type { Settings } from '../../config/settings.js';
import type { Store } from '../../store/index.js';
import type { CatalogEntry } from '../format/types.js';
import type { Access, Gate } from '../../policy/types.js';
import { ceilingFrom, type Ceiling } from '../../policy/ceiling.js';
import { appOwnedRoots, createGate, type SkillPolicy } from '../../policy/gate.js';
import { defaultPermissions, permissionsFromFrontmatter } from '../../policy/permissions.js';
import { readFrontmatterFile } from '../format/skill-frontmatter.js';
import { nameKey } from '../../base/names.js';

/** A catalog entry's reviewed permissions. A manifest that fails review constrains to nothing (no tools). */
export function skillPolicyOf(entry: Pick<CatalogEntry, 'file' | 'realDir' | 'manifest'> & { tier?: string }): SkillPolicy {
  let permissions = defaultPermissions();
  try {
    const fm = readFrontmatterFile(entry.file);
    if (fm.data) {
      const parsed = permissionsFromFrontmatter(fm.data, entry.file, fm.lineOf);
      permissions = parsed.permissions ?? { ...defaultPermissions(), read: [], declared: 'permissions' };
    }
  } catch {
    permissions = { ...defaultPermissions(), read: [], declared: 'permissions' };
  }
  return { name: entry.manifest.name, dir: entry.realDir, permissions, ...(entry.tier ? { tier: entry.tier } : {}) };
}

export interface GateSetup {
  settings: Settings;
  workspace: string;
  store?: Store;
  /** Skills known to the catalog (their folders become read-only roots; their manifests bind them). */
  skills: Pick<CatalogEntry, 'file' | 'realDir' | 'manifest'>[];
  /** The home and data folder in use (`--home`, `--data-dir`): their Knack folders always ask for writes. */
  paths?: { home: string; dataDir: string };
}

export function buildGate(setup: GateSetup): { gate: Gate; ceiling: Ceiling } {
  const policies = new Map<string, SkillPolicy>();
  for (const e of setup.skills) {
    if ((e as Partial<CatalogEntry>).shadowedBy) continue; // a shadowed skill never acts: the winner's manifest applies
    const key = nameKey(e.manifest.name);
    if (!policies.has(key)) policies.set(key, skillPolicyOf(e));
  }
  const ceiling = ceilingFrom(setup.settings, setup.workspace, setup.skills.map((s) => s.realDir));
  const gate = createGate({
    ceiling,
    rules: () => setup.store?.policy.rules() ?? [],
    skill: (name) => policies.get(nameKey(name)),
    ...(setup.paths ? { protectedRoots: [...appOwnedRoots(setup.paths), ...appOwnedRoots()] } : {}),
  });
  return { gate, ceiling };
}

/** Access of the built-in tool names from their arguments (read_file … {path}, bash {command}, web_fetch {url}). */
export function accessForArgs(tool: string, args: Record<string, unknown>): Access {
  const str = (k: string): string | undefined => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  switch (tool) {
    case 'read_file': case 'list_dir': case 'glob': case 'grep':
      return { read: [str('path') ?? '.'] };
    case 'write_file': case 'edit_file':
      return { write: [str('path') ?? ''].filter(Boolean) };
    case 'bash':
      return { command: str('command') ?? '' };
    case 'web_fetch': {
      const url = str('url') ?? '';
      let host: string | undefined;
      try { host = new URL(url).hostname; } catch { host = undefined; }
      return { network: true, ...(host ? { host } : {}) };
    }
    case 'web_search':
      return { network: true };
    default:
      return {};
  }
}
