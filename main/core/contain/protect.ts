// The protected paths inside the write roots (.git/hooks, .git/config, .workbuddy, .mcp.json, …) for one command: the
// ones that exist are denied to it; the missing ones are not handed to the sandbox, which would stub each with an
// empty file in the workspace for as long as the command runs. After the command, one it created is moved aside
// (renamed beside itself, never deleted) and reported as a blocked write, so it never takes effect.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type Dirent, readFileSync, realpathSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fsWords, isInside, say, type OwnContents, type Said } from '../base/index.js';
import { blocked, type Blocked } from './blocked.js';

export interface ProtectPlan {
  /** Protected paths that exist now: denied to the command (bound read-only). */
  deny: string[];
  /** Protected paths missing now inside a write root: checked once the command has ended. */
  watch: string[];
}

const exists = (p: string): boolean => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * Split the protected paths for one command. A missing one outside every write root needs nothing: the command cannot
 * create it. A missing `.git/hooks` or `.git/config` whose `.git` is missing too is watched through `.git` itself.
 */
export function planProtect(paths: string[], writeRoots: string[]): ProtectPlan {
  const deny: string[] = [];
  const watch: string[] = [];
  for (const p of paths) {
    if (exists(p)) deny.push(p);
    else if (writeRoots.some((r) => isInside(p, r))) watch.push(p);
  }
  // `.git` missing: it is watched too (a `.git` file can point git at hooks elsewhere).
  for (const p of watch) {
    const dotGit = /\/\.git\/(hooks|config|commondir)$/.test(p) ? dirname(p) : undefined;
    if (dotGit && !exists(dotGit) && !watch.includes(dotGit)) watch.push(dotGit);
  }
  return { deny, watch };
}

/**
 * The keys `git init`, `git clone` and `git remote` write: a `.git/config` a command created holding only these is
 * kept. Any other (core.fsmonitor, core.hooksPath, alias.*, filter.*, include.path, credential.helper, …) can run a
 * program when the user's git next runs on the host. `*` stands for a subsection.
 */
const SAFE_GIT_KEYS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'extensions.objectformat',
  'remote.*.url',
  'remote.*.fetch',
  'branch.*.remote',
  'branch.*.merge',
  'user.name',
  'user.email',
]);

/** Whether every key of a git config file is one of SAFE_GIT_KEYS (a line it cannot read counts as unsafe). */
function gitConfigIsInert(text: string): boolean {
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]$/.exec(line);
    if (head) {
      section = `${head[1]!.toLowerCase()}${line.includes('"') ? '.*' : ''}`;
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(line);
    if (!key || !section || !SAFE_GIT_KEYS.has(`${section}.${key[1]!.toLowerCase()}`)) return false;
  }
  return true;
}

/** Folders never walked for nested repositories (see gitDirsBelow). */
export const UNWALKED = new Set(['node_modules']);

/** What git runs or obeys in a git dir: its hooks, and the settings that can name programs (core.hooksPath, …). */
const GIT_DIR_PROTECTED = ['hooks', 'config', 'config.worktree'];

/** The real path of the git dir a `.git` entry leads to (a folder, a link to one, or a `gitdir:` file); else undefined. */
function gitDirOf(entry: string): string | undefined {
  try {
    const st = lstatSync(entry);
    if (st.isDirectory()) return realpathSync(entry);
    if (st.isSymbolicLink()) return statSync(entry).isDirectory() ? realpathSync(entry) : undefined;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(entry, 'utf8').slice(0, 4096));
    return m ? realpathSync(resolve(dirname(entry), m[1]!)) : undefined;
  } catch {
    return undefined;
  }
}

/** `dev:ino` of a path (its own, not a link's target); '' once it is gone. */
function identity(p: string): string {
  try {
    const st = lstatSync(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return '';
  }
}

/**
 * The git dirs a command in `roots` could plant hooks or settings in, each with its identity (`dev:ino`): every `.git`
 * below the roots, at any depth (a repository nested in the workspace, a checked-out submodule, a clone), what a `.git`
 * file or link leads to, what a git dir's `commondir` leads to (a linked worktree's repository), and the submodules'
 * git dirs under `modules/` (nested ones included). Only those inside a root are kept: a command cannot write the others.
 * `node_modules` folders are not walked: they hold tens of thousands of files, which took 0.3 s per walk here, and git
 * is not run inside them (VS Code's git skips them too). Symbolic links are not followed but for a `.git` itself.
 */
export function gitDirsBelow(roots: string[]): Map<string, string> {
  const entries: string[] = [];
  const walk = (dir: string): void => {
    for (const e of listing(dir)) {
      const p = join(dir, e.name);
      if (e.name === '.git') entries.push(p);
      else if (e.isDirectory() && !UNWALKED.has(e.name)) walk(p);
    }
  };
  for (const r of roots) walk(r);
  return gitDirsOf(entries, roots);
}

/** A folder's entries; none when it cannot be read (as a walk skips it). */
export function listing(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The git dirs the `.git` entries `entries` lead to, with the worktrees' repositories and the submodules' git dirs in
 * them (see gitDirsBelow), each with its identity now; only those inside `roots`.
 */
export function gitDirsOf(entries: Iterable<string>, roots: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const inRoots = (p: string): boolean => roots.some((r) => isInside(p, r));
  const addGitDir = (dir: string | undefined): void => {
    if (!dir || found.has(dir) || !inRoots(dir)) return;
    found.set(dir, identity(dir));
    try {
      const common = readFileSync(join(dir, 'commondir'), 'utf8').trim();
      if (common) addGitDir(realpathSync(resolve(dir, common)));
    } catch {
      // no commondir: a repository's own git dir
    }
    modules(join(dir, 'modules'), 0);
  };
  // Under `modules/`, a submodule's name may hold slashes: every folder holding HEAD, config or hooks is a git dir.
  const modules = (dir: string, depth: number): void => {
    if (depth > 16) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (depth > 0 && entries.some((e) => e.name === 'HEAD' || e.name === 'config' || e.name === 'hooks')) {
      addGitDir(realpathSync(dir));
      return;
    }
    for (const e of entries) if (e.isDirectory()) modules(join(dir, e.name), depth + 1);
  };
  for (const e of entries) addGitDir(gitDirOf(e));
  return found;
}

/** The paths of a git dir that are protected like the workspace's own `.git/hooks` and `.git/config`. */
export function gitDirProtected(gitDir: string): string[] {
  return GIT_DIR_PROTECTED.map((n) => join(gitDir, n));
}

/**
 * The protected paths of the git dirs in `after` that were not in `before` (or are another folder now, by identity):
 * a command made them, so what they hold is judged after it as any protected path it created.
 */
export function newGitDirProtected(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([dir, id]) => before.get(dir) !== id).flatMap(([dir]) => gitDirProtected(dir));
}

/** Whether `dir` is a git dir: named `.git`, or holding HEAD (a submodule's or a worktree's). */
function isGitDir(dir: string): boolean {
  return basename(dir) === '.git' || exists(join(dir, 'HEAD'));
}

/** What a path created at a protected name holds that can take effect; undefined when nothing can. */
function effectOf(p: string): Said | undefined {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return say('wall.effectLink');
  const name = basename(p);
  const inGit = isGitDir(dirname(p));
  if (name === '.git') return st.isDirectory() ? undefined : say('wall.effectGitFile');
  if (inGit && name === 'hooks') {
    if (!st.isDirectory()) return undefined;
    const hooks = readdirSync(p, { withFileTypes: true }).filter((e) => !(e.isFile() && e.name.endsWith('.sample')));
    return hooks.length ? say('wall.effectHooks', { hooks: hooks.map((e) => e.name).join(', ') }) : undefined;
  }
  if (inGit && (name === 'config' || name === 'config.worktree'))
    return st.isFile() && gitConfigIsInert(readFileSync(p, 'utf8')) ? undefined : say('wall.effectGitConfig');
  return holdsAnything(p) ? say('wall.effectContent') : undefined;
}

/** A file with bytes, or a folder holding one (or a link, or anything but empty folders). */
function holdsAnything(p: string): boolean {
  const st = lstatSync(p);
  if (st.isFile()) return st.size > 0;
  if (!st.isDirectory()) return true;
  return readdirSync(p).some((e) => holdsAnything(join(p, e)));
}

/** `<path>.blocked-<time>`, beside it: same folder, so the rename cannot cross file systems. */
function asideName(p: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  let aside = `${p}.blocked-${stamp}`;
  for (let i = 2; exists(aside); i++) aside = `${p}.blocked-${stamp}-${i}`;
  return aside;
}

/**
 * What an entry is now, to tell later whether it is still the one Knack wrote: a folder by its inode, a file or a link
 * also by its size and times (ctime cannot be set back by a program). '' once it is gone.
 */
function ownIdentity(p: string): string {
  try {
    const st = lstatSync(p);
    return st.isDirectory() ? `d:${st.dev}:${st.ino}` : `f:${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return '';
  }
}

/**
 * Record Knack's own write of `path` (a file, or a folder with everything in it) below the watched path `watched`, in
 * `claims` (path → identity, or `h:<sha256>` for a file whose content Knack gave): the path, what it holds, and each
 * folder from `watched` down to it (Knack made them).
 */
export function claimOwnWrite(
  claims: Map<string, string>,
  path: string,
  watched: string,
  contents?: OwnContents,
): void {
  for (let d = dirname(path); isInside(d, watched) && d !== dirname(d); d = dirname(d)) claims.set(d, ownIdentity(d));
  // With `contents`: only the files Knack wrote, by what they hold, and the folders on their way.
  const onTheWay = new Set<string>();
  for (const f of contents?.keys() ?? [])
    for (let d = dirname(f); isInside(d, path) && !onTheWay.has(d); d = dirname(d)) onTheWay.add(d);
  const tree = (p: string): void => {
    if (contents) {
      const sha = contents.get(p);
      if (sha !== undefined) claims.set(p, `h:${sha}`);
      else if (onTheWay.has(p)) claims.set(p, ownIdentity(p));
      else return;
    } else claims.set(p, ownIdentity(p));
    let entries: string[] = [];
    try {
      if (lstatSync(p).isDirectory()) entries = readdirSync(p);
    } catch {
      return;
    }
    for (const e of entries) tree(join(p, e));
  };
  tree(path);
}

/** SHA-256 (hex) of a regular file's bytes, read without following a link; '' when it cannot be read. */
function contentHash(p: string): string {
  try {
    if (!lstatSync(p).isFile()) return '';
    return createHash('sha256').update(readFileSync(p)).digest('hex');
  } catch {
    return '';
  }
}

/** Move `p` aside as a blocked write: what appeared there, where it went and how to get it back. */
function moveAside(p: string, effect: Said, workspace: string): Blocked {
  const rel = isInside(p, workspace) ? relative(workspace, p) : p;
  try {
    const aside = asideName(p);
    renameSync(p, aside);
    const asideRel = isInside(aside, workspace) ? relative(workspace, aside) : aside;
    // The command that moves it back stays a command in every language.
    return blocked('write', p, 'wall.movedAside', {
      path: rel,
      effect,
      aside: basename(aside),
      command: `mv '${asideRel}' '${rel}'`,
    });
  } catch (e) {
    return blocked('write', p, 'wall.moveAsideFailed', { path: rel, effect, error: fsWords(e) });
  }
}

/** What `p` holds that can take effect, or why it cannot be read; undefined when nothing can. */
function effectOrUnreadable(p: string): Said | undefined {
  try {
    return effectOf(p);
  } catch (e) {
    return say('wall.effectUnreadable', { error: fsWords(e) });
  }
}

/**
 * Below a watched path Knack wrote to while the command ran: what is still as Knack wrote it stays, and each other
 * entry that can take effect is moved aside (a folder Knack made is looked into; one it did not is moved whole).
 */
function sweepForeign(p: string, claims: ReadonlyMap<string, string>, workspace: string, out: Blocked[]): void {
  const id = ownIdentity(p);
  const claim = claims.get(p);
  if (claim?.startsWith('h:') && id.startsWith('f:') && contentHash(p) === claim.slice(2)) return;
  if (id && claim === id) {
    if (!id.startsWith('d:')) return;
    for (const e of readdirSync(p)) sweepForeign(join(p, e), claims, workspace, out);
    return;
  }
  const effect = effectOrUnreadable(p);
  if (effect) out.push(moveAside(p, effect, workspace));
}

/**
 * After a command: each watched path it created that can take effect is renamed aside and returned as a blocked
 * write. One that cannot be moved is reported as such (the command still counts as blocked, never as success).
 * `claims`: what Knack itself wrote below watched paths meanwhile (claimOwnWrite); that stays, the rest is judged.
 */
export function sweepProtect(watch: string[], workspace: string, claims?: ReadonlyMap<string, string>): Blocked[] {
  const out: Blocked[] = [];
  // Deepest first: `.git/hooks` is judged before `.git`, and a moved `.git` takes its pieces with it.
  for (const p of [...watch].sort((a, b) => b.length - a.length)) {
    if (!exists(p)) continue;
    const effect = effectOrUnreadable(p);
    if (!effect) continue;
    if (claims && [...claims.keys()].some((c) => isInside(c, p))) {
      try {
        sweepForeign(p, claims, workspace, out);
      } catch (e) {
        out.push(moveAside(p, say('wall.effectUnreadable', { error: fsWords(e) }), workspace));
      }
    } else out.push(moveAside(p, effect, workspace));
  }
  return out;
}
