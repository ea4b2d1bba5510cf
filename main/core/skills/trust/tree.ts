// A skill folder's fingerprint as it is now, with one stat per folder and per file: a stored tree (each folder's times
// when the audit listed it, each file's size and times in fingerprint order, and the fingerprint they make) stands in
// for listing every folder again and for hashing the files' stamps. See FolderTree.
import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { fingerprintLine, listSkillFiles, type DirStamp, type FileStamp, type FolderTree } from './audit.js';

/**
 * A folder's listing stands only when the folder last changed at least this long before it was listed. File-system
 * clocks are coarse (a few ms on Linux, 1–2 s on HFS+/FAT): an entry added in the same tick as the listing would not
 * move the folder's times. A tree with a folder listed that close to a change is not kept (the next open walks).
 */
export const TREE_RACY_MS = 2000;

/** The stored form of a tree (audit_fingerprints.tree). */
export function encodeTree(tree: FolderTree): string {
  return JSON.stringify({ v: 2, d: tree.dirs, f: tree.files, fp: tree.fingerprint });
}

/** A stored tree, or undefined when it is not one this version wrote (then the folder is walked). */
function decodeTree(text: string): FolderTree | undefined {
  try {
    const t = JSON.parse(text) as { v?: unknown; d?: unknown; f?: unknown; fp?: unknown };
    // A version 1 tree (paths only) is walked past once; the walk keeps one of this version.
    if (t.v !== 2 || !Array.isArray(t.d) || !Array.isArray(t.f) || typeof t.fp !== 'string') return undefined;
    for (const d of t.d as unknown[]) if (!stamp(d)) return undefined;
    for (const f of t.f as unknown[]) if (!stamp(f)) return undefined;
    return { dirs: t.d as DirStamp[], files: t.f as FileStamp[], fingerprint: t.fp };
  } catch {
    return undefined;
  }
}

/** [string, number, number, number, …]: a folder's or a file's stamp as stored. */
function stamp(x: unknown): boolean {
  return (
    Array.isArray(x) &&
    typeof x[0] === 'string' &&
    typeof x[1] === 'number' &&
    typeof x[2] === 'number' &&
    typeof x[3] === 'number'
  );
}

/** Whether every folder of a walk was listed far enough from its last change for its listing to stand later. */
function vouches(dirs: readonly DirStamp[], racyMs: number): boolean {
  return dirs.every((d) => d[3] - Math.max(d[1], d[2]) >= racyMs);
}

/** A path of the tree ("a/b/" for a folder, "a/b" for a file) under the skill folder. */
function under(dir: string, rel: string): string {
  if (!rel) return dir;
  const r = rel.endsWith('/') ? rel.slice(0, -1) : rel;
  return dir + sep + (sep === '/' ? r : r.split('/').join(sep));
}

/**
 * The fingerprint from a stored tree: every folder stat'ed (its listing stands while its times are those it was listed
 * with), every file lstat'ed and found with the size and times it was fingerprinted with (then the stamps make the
 * tree's fingerprint, with nothing to hash). Undefined when the tree cannot vouch for the folder now: a folder changed
 * (an entry came, went or was renamed) or was listed too close to a change, a file is gone, is no longer a regular file
 * or has another size or times (the folder is then walked and hashed).
 */
function fromTree(dir: string, tree: FolderTree, racyMs: number, seen?: FileStamp): string | undefined {
  if (!vouches(tree.dirs, racyMs)) return undefined;
  for (const [rel, mtimeMs, ctimeMs] of tree.dirs) {
    let st;
    try {
      st = statSync(under(dir, rel));
    } catch {
      return undefined;
    }
    if (st.mtimeMs !== mtimeMs || st.ctimeMs !== ctimeMs) return undefined;
  }
  for (const [rel, size, mtimeMs, ctimeMs] of tree.files) {
    if (seen && rel === seen[0]) {
      if (seen[1] !== size || seen[2] !== mtimeMs || seen[3] !== ctimeMs) return undefined;
      continue;
    }
    let st;
    try {
      st = lstatSync(under(dir, rel));
    } catch {
      return undefined;
    }
    if (!st.isFile() || st.size !== size || st.mtimeMs !== mtimeMs || st.ctimeMs !== ctimeMs) return undefined;
  }
  return tree.fingerprint;
}

/** The fingerprint from a walk of the folder, and the tree to keep beside it when it can vouch for one. */
function walked(dir: string, racyMs: number): { fingerprint: string; tree?: FolderTree } {
  const dirs: DirStamp[] = [];
  const { files, truncated } = listSkillFiles(dir, dirs);
  const fp = createHash('sha256');
  let links = false;
  for (const f of files) {
    fp.update(fingerprintLine(f, f.size, f.mtimeMs, f.ctimeMs ?? 0));
    if (f.link !== undefined) links = true;
  }
  const fingerprint = fp.digest('hex');
  if (truncated || links || !vouches(dirs, racyMs)) return { fingerprint };
  return {
    fingerprint,
    tree: { dirs, files: files.map((f): FileStamp => [f.rel, f.size, f.mtimeMs, f.ctimeMs ?? 0]), fingerprint },
  };
}

/**
 * A skill folder's (path, size, mtime, ctime, link) fingerprint as it is now: from `stored` (a tree kept with the
 * folder's audit) when it still vouches for the folder, else from a walk, which gives the tree to keep next (`tree`).
 * `seen`: one file's stamp the caller took in this same open (the catalog's stat of SKILL.md), used instead of a
 * second stat of that file. Its stat follows links where the tree's does not, and that is the same answer here: the
 * tree only holds regular files, and a file turned into a link changes its folder's times, which are stat'ed.
 * `racyMs`: tests lower TREE_RACY_MS.
 */
export function fingerprintNow(
  dir: string,
  stored?: string | null,
  racyMs = TREE_RACY_MS,
  seen?: FileStamp,
): { fingerprint: string; tree?: FolderTree } {
  const tree = stored ? decodeTree(stored) : undefined;
  const fast = tree ? fromTree(dir, tree, racyMs, seen) : undefined;
  return fast !== undefined ? { fingerprint: fast } : walked(dir, racyMs);
}

/** The stored form of an audit's tree when it can vouch for its folder later, else undefined (none is kept). */
export function treeToKeep(tree: FolderTree | undefined, racyMs = TREE_RACY_MS): string | undefined {
  return tree && vouches(tree.dirs, racyMs) ? encodeTree(tree) : undefined;
}
