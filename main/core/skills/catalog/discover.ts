// Finds skill folders on disk: the three tiers (builtin, user, project), `.workbuddy/skills` and `.agents/skills`,
// symlinked folders followed with cycle safety, a bounded walk that says when a bound was hit. Stats files; never parses.
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { projectSkillDirs, userSkillDirs, type KnackPaths } from '../../config/index.js';
import type { Tier } from '../format/index.js';
import type { Diagnostic } from '../../base/index.js';
import { english, fsWords, say, type Said } from '../../base/index.js';

export interface TierRoot {
  tier: Tier;
  source: 'workbuddy' | 'agents';
  dir: string;
}

/** A SKILL.md found on disk (not parsed yet). */
export interface FoundSkill {
  tier: Tier;
  source: 'workbuddy' | 'agents';
  /** The skill folder as discovered (may be or sit under a symlink). */
  dir: string;
  /** Real path of the folder. */
  realDir: string;
  /** SKILL.md (preferred) or skill.md inside `dir`. */
  file: string;
  /** Real path of the file (cache key). */
  realFile: string;
  size: number;
  mtimeMs: number;
  /** Status-change time: also moves when an edit restores the old mtime (touch -r, cp -p, tar). */
  ctimeMs: number;
}

export interface DiscoverOptions {
  maxDepth: number;
  maxFolders: number;
}

/** A skill folder whose SKILL.md exists but cannot be read as a file (a folder, a pipe, no permission). */
export interface UnreadableSkill {
  tier: Tier;
  source: 'workbuddy' | 'agents';
  dir: string;
  file: string;
  /** The same object as in `Discovery.diagnostics`. */
  diagnostic: Diagnostic;
}

export interface Discovery {
  found: FoundSkill[];
  diagnostics: Diagnostic[];
  /** Skill folders whose SKILL.md could not be read (each also has its diagnostic in `diagnostics`). */
  unreadable: UnreadableSkill[];
  /** Folders visited per root. */
  visited: number;
  /** Folders whose entries were read from disk (readdir); the others came from a FolderLister's cache. */
  listed: number;
}

/**
 * The entries of a folder the walk may descend into, in name order: sub-folders and symbolic links (followed when
 * they lead to a folder). Hidden entries and node_modules are left out. `links` names the symbolic links.
 */
export interface Children {
  names: string[];
  links?: string[];
}

/**
 * Gives the walk a folder's children. The default reads the folder; a cache (catalog-cache.ts) may answer from a
 * stored listing when the folder has not changed. Throws as readdir does. `listed` counts real reads.
 */
export interface FolderLister {
  list(dir: string, real: string): Children;
  listed: number;
}

/** Read a folder's walkable children. */
export function readChildren(dir: string): Children {
  const ents = readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && !SKIP.has(e.name) && (e.isDirectory() || e.isSymbolicLink()))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const links = ents.filter((e) => e.isSymbolicLink()).map((e) => e.name);
  return links.length ? { names: ents.map((e) => e.name), links } : { names: ents.map((e) => e.name) };
}

/** The lister without a cache: every folder is read. */
function plainLister(): FolderLister {
  return {
    listed: 0,
    list(dir: string): Children {
      this.listed++;
      return readChildren(dir);
    },
  };
}

const SKIP = new Set(['node_modules', '.git']);

/** The roots to walk, lowest precedence first. Project roots equal to user roots (workspace = home) are skipped. */
export function tierRoots(paths: KnackPaths, workspace: string | undefined, agentsFolders: boolean): TierRoot[] {
  const roots: TierRoot[] = [{ tier: 'builtin', source: 'workbuddy', dir: paths.builtinSkillsDir }];
  const u = userSkillDirs(paths.home);
  roots.push({ tier: 'user', source: 'workbuddy', dir: u.workbuddy });
  if (agentsFolders) roots.push({ tier: 'user', source: 'agents', dir: u.agents });
  if (workspace) {
    const p = projectSkillDirs(workspace);
    roots.push({ tier: 'project', source: 'workbuddy', dir: p.workbuddy });
    if (agentsFolders) roots.push({ tier: 'project', source: 'agents', dir: p.agents });
  }
  return roots;
}

/** A discovery finding in words and their English (the CLI's). */
function finding(severity: Diagnostic['severity'], code: string, file: string, words: Said): Diagnostic {
  return { severity, code, file, message: english(words), words };
}

const SKILL_NAMES = ['SKILL.md', 'skill.md'] as const;
const NO_THROW = { throwIfNoEntry: false } as const;

/** stat SKILL.md, then skill.md, in a folder: the skill file, or undefined when neither exists as a file. */
function statSkillFile(
  dir: string,
): { name: string; file: string; st: Stats } | { error: unknown; file: string } | undefined {
  for (let i = 0; i < SKILL_NAMES.length; i++) {
    const name = SKILL_NAMES[i]!;
    const file = dir + sep + name;
    let st: Stats | undefined;
    try {
      st = statSync(file, NO_THROW);
    } catch (e) {
      return { error: e, file };
    }
    if (st === undefined) continue;
    if (st.isFile()) return { name, file, st };
    if (st.isDirectory())
      return { error: Object.assign(new Error('SKILL.md is a folder, not a file'), { code: 'EISDIR' }), file };
    return {
      error: Object.assign(new Error('not a regular file (a pipe, socket or device)'), { code: 'ENOTREG' }),
      file,
    };
  }
  return undefined;
}

/**
 * Walk one tier root. A folder holding SKILL.md is a skill (its subfolders are its resources, not searched);
 * other folders are searched up to `maxDepth` levels. Symlinks are followed; a folder whose real path was
 * already visited is skipped (loops end). Hidden folders and node_modules are skipped.
 */
export function discoverRoot(
  root: TierRoot,
  opts: DiscoverOptions,
  seenReal = new Set<string>(),
  lister: FolderLister = plainLister(),
): Discovery {
  const listedBefore = lister.listed;
  const found: FoundSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const unreadable: UnreadableSkill[] = [];
  const realRoot = realRootOf(root, diagnostics);
  if (realRoot === undefined || seenReal.has(realRoot))
    return { found, diagnostics, unreadable, visited: 0, listed: 0 };
  seenReal.add(realRoot);
  let visited = 0;
  let depthHit = 0;
  let folderHit = false;
  // Stack of [path, realPath, depth]; depth 0 = the root itself. The walk's rare cases (an unreadable SKILL.md or
  // folder, symbolic links, bounds hit) are in their own functions: this loop runs for every folder of every open.
  const stack: [string, string, number][] = [[root.dir, realRoot, 0]];
  while (stack.length) {
    const [dir, real, depth] = stack.pop()!;
    if (depth > 0) {
      const skill = statSkillFile(dir);
      if (skill) {
        if ('st' in skill) found.push(foundSkill(root, dir, real, skill));
        else unreadableSkill(root, dir, skill, diagnostics, unreadable);
        continue;
      }
      if (depth >= opts.maxDepth) {
        depthHit++;
        continue;
      }
    }
    if (visited >= opts.maxFolders) {
      folderHit = true;
      break;
    }
    visited++;
    const children = listOrReport(lister, dir, real, diagnostics);
    if (!children) continue;
    const { names } = children;
    const links = children.links ? new Set(children.links) : undefined;
    // Push in reverse so the stack pops children in name order.
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i]!;
      const child = dir + sep + name;
      if (!links?.has(name)) stack.push([child, real === dir ? child : real + sep + name, depth + 1]);
      else {
        const target = linkedFolder(child, real, seenReal, diagnostics);
        if (target !== undefined) stack.push([child, target, depth + 1]);
      }
    }
  }
  if (depthHit || folderHit) boundsHit(root, opts, depthHit, folderHit, diagnostics);
  return { found, diagnostics, unreadable, visited, listed: lister.listed - listedBefore };
}

/** The root's real path; undefined when it cannot be resolved (a missing root says nothing, others a warning). */
function realRootOf(root: TierRoot, diagnostics: Diagnostic[]): string | undefined {
  try {
    return realpathSync.native(root.dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      diagnostics.push(
        finding(
          'warning',
          'discovery.root',
          root.dir,
          say('discovery.root', { tier: say(`shadowTier.${root.tier}`), error: fsWords(e) }),
        ),
      );
    }
    return undefined;
  }
}

function foundSkill(
  root: TierRoot,
  dir: string,
  real: string,
  skill: { name: string; file: string; st: Stats },
): FoundSkill {
  return {
    tier: root.tier,
    source: root.source,
    dir,
    realDir: real,
    file: skill.file,
    // Without symbolic links on the way the real path is the path: share the string.
    realFile: real === dir ? skill.file : real + sep + skill.name,
    size: skill.st.size,
    mtimeMs: skill.st.mtimeMs,
    ctimeMs: skill.st.ctimeMs,
  };
}

/** A SKILL.md that exists but cannot be read as a file: a broken skill, with its diagnostic. */
function unreadableSkill(
  root: TierRoot,
  dir: string,
  skill: { error: unknown; file: string },
  diagnostics: Diagnostic[],
  unreadable: UnreadableSkill[],
): void {
  const diagnostic = finding(
    'error',
    'file.unreadable',
    skill.file,
    (skill.error as NodeJS.ErrnoException).code === 'EISDIR'
      ? say('diag.fileFolder')
      : say('discovery.skillUnreadable', { error: fsWords(skill.error) }),
  );
  diagnostics.push(diagnostic);
  unreadable.push({ tier: root.tier, source: root.source, dir, file: skill.file, diagnostic });
}

/** A folder's walkable children, or undefined (with a warning) when it cannot be listed. */
function listOrReport(
  lister: FolderLister,
  dir: string,
  real: string,
  diagnostics: Diagnostic[],
): Children | undefined {
  try {
    return lister.list(dir, real);
  } catch (e) {
    diagnostics.push(
      finding('warning', 'discovery.unreadable', dir, say('discovery.unreadable', { error: fsWords(e) })),
    );
    return undefined;
  }
}

/**
 * Where a symbolic link child leads, when the walk should follow it: a folder not visited yet. A link's target can
 * change without its parent folder changing: it is resolved on every walk.
 */
function linkedFolder(
  child: string,
  real: string,
  seenReal: Set<string>,
  diagnostics: Diagnostic[],
): string | undefined {
  let childReal: string;
  let st: Stats;
  try {
    childReal = realpathSync.native(child);
    st = statSync(childReal);
  } catch (e) {
    diagnostics.push(finding('warning', 'discovery.symlink', child, say('discovery.symlink', { error: fsWords(e) })));
    return undefined;
  }
  if (!st.isDirectory()) return undefined;
  if (seenReal.has(childReal) || isAncestorOrSelf(childReal, real)) {
    diagnostics.push(finding('info', 'discovery.loop', child, say('discovery.loop', { target: childReal })));
    return undefined;
  }
  seenReal.add(childReal);
  return childReal;
}

/** The walk stopped at a bound: say which, and where to change it. */
function boundsHit(
  root: TierRoot,
  opts: DiscoverOptions,
  depthHit: number,
  folderHit: boolean,
  diagnostics: Diagnostic[],
): void {
  if (depthHit) {
    diagnostics.push(
      finding('warning', 'discovery.depth', root.dir, say('discovery.depth', { count: depthHit, max: opts.maxDepth })),
    );
  }
  if (folderHit) {
    diagnostics.push(
      finding('warning', 'discovery.folders', root.dir, say('discovery.folders', { max: opts.maxFolders })),
    );
  }
}

/** `anc` is `p` or one of its ancestors (a link back up the tree: a loop). */
function isAncestorOrSelf(anc: string, p: string): boolean {
  return p === anc || p.startsWith(anc.endsWith(sep) ? anc : anc + sep);
}

/** Walk every root. One unreadable folder or file never hides the rest. `listerFor` gives each root its (cached) lister. */
export function discoverAll(
  roots: TierRoot[],
  opts: DiscoverOptions,
  listerFor?: (root: TierRoot) => FolderLister,
): Discovery {
  const found: FoundSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  const unreadable: UnreadableSkill[] = [];
  let visited = 0;
  let listed = 0;
  const seenRoots = new Set<string>();
  for (const r of roots) {
    // Each root has its own loop guard, but the same real root is never walked twice (workspace = home).
    const d = discoverRoot(r, opts, new Set(seenRoots), listerFor?.(r));
    try {
      seenRoots.add(realpathSync.native(r.dir));
    } catch {
      // missing root: nothing to remember
    }
    for (const f of d.found) found.push(f);
    diagnostics.push(...d.diagnostics);
    unreadable.push(...d.unreadable);
    visited += d.visited;
    listed += d.listed;
  }
  return { found, diagnostics, unreadable, visited, listed };
}
