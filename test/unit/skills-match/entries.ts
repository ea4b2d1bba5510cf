// Test helpers for matching and loading: catalog entries built in memory or from SKILL.md files on disk.
// Real files where the behaviour reads the disk (loader, resources); in-memory manifests where it does not.
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import type { CatalogEntry, SkillManifest, Tier } from '../../../main/core/skills/format/types.js';
import { defaultPermissions } from '../../../main/core/policy/permissions.js';
import { skillMd, writeTree } from '../../helpers/tmp.js';

export function manifest(name: string, over: Partial<SkillManifest> = {}): SkillManifest {
  return {
    name,
    description: `${name} skill`,
    metadata: {},
    allowedTools: [],
    readWhen: [],
    agentCreated: false,
    dependsOn: [],
    extra: {},
    requested: { permissions: defaultPermissions(), diagnostics: [] },
    ...over,
  };
}

export function entry(m: SkillManifest, over: Partial<CatalogEntry> = {}): CatalogEntry {
  const dir = over.dir ?? `/skills/${m.name}`;
  return {
    manifest: m,
    tier: 'user' as Tier,
    source: 'workbuddy',
    dir,
    realDir: dir,
    file: join(dir, 'SKILL.md'),
    size: 0,
    mtimeMs: 0,
    diagnostics: [],
    enabled: true,
    ...over,
  };
}

/** Write `<root>/<name>/SKILL.md` (+ extra files) and return its catalog entry, parsed by the real parser. */
export function diskSkill(
  root: string,
  name: string,
  fm: Record<string, unknown>,
  body = '# Steps\n\nDo it.\n',
  files: Record<string, string> = {},
): CatalogEntry {
  const tree: Record<string, string> = {
    [`${name}/SKILL.md`]: skillMd({ name, description: `${name} skill`, ...fm }, body),
  };
  for (const [k, v] of Object.entries(files)) tree[`${name}/${k}`] = v;
  writeTree(root, tree);
  const file = join(root, name, 'SKILL.md');
  const parsed = parseSkillFile(file);
  if (!parsed.manifest) throw new Error(`fixture ${file} did not parse: ${JSON.stringify(parsed.diagnostics)}`);
  const dir = dirname(file);
  return entry(parsed.manifest, {
    dir,
    realDir: realpathSync(dir),
    file,
    tier: basename(root) === 'builtin' ? 'builtin' : 'user',
  });
}

/** A lookup by name over entries, as the catalog's get() behaves (case-insensitive). */
export function lookupOf(entries: CatalogEntry[]): (n: string) => CatalogEntry | undefined {
  const m = new Map(entries.map((e) => [e.manifest.name.toLowerCase(), e]));
  return (n) => m.get(n.normalize('NFKC').toLowerCase());
}
