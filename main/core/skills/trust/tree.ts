// A skill folder's fingerprint as it is now, with one stat per folder and per file: a stored tree (each folder's times
// when the audit listed it, the files in fingerprint order) stands in for listing every folder again. See FolderTree.
import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { fingerprintLine, listSkillFiles, type DirStamp, type FolderTree } from './audit.js';

/**
 * A folder's listing stands only when the folder last changed at least this long before it was listed. File-system
 * clocks are coarse (a few ms on Linux, 1–2 s on HFS+/FAT): an entry added in the same tick as the listing would not
 * move the folder's times. A tree with a folder listed that close to a change is not kept (the next open walks).
 */
export const TREE_RACY_MS = 2000;

/** The stored form of a tree (audit_fingerprints.tree). */
export function encodeTree(tree: FolderTree): string {
  return JSON.stringify({ v: 1, d: tree.dirs, f: tree.files });
}

/** A stored tree, or undefined when it is not one this version wrote (then the folder is walked). */
function decodeTree(text: string): FolderTree | undefined {
  try {
    const t = JSON.parse(text) as { v?: unknown; d?: unknown; f?: unknown };
    if (t.v !== 1 || !Array.isArray(t.d) || !Array.isArray(t.f)) return undefined;
    for (const d of t.d as unknown[]) {
      if (!Array.isArray(d) || typeof d[0] !== 'string' || d.slice(1, 4).some((x) => typeof x !== 'number'))
        return undefined;
    }
    if ((t.f as unknown[]).some((f) => typeof f !== 'string')) return undefined;
    return { dirs: t.d as DirStamp[], files: t.f as string[] };
  } catch {
    return undefined;
  }
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
 * with), every file lstat'ed. Undefined when the tree cannot vouch for the folder now: a folder changed (an entry came,
 * went or was renamed) or was listed too close to a change, a file is gone or is no longer a regular file.
 */
function fromTree(dir: string, tree: FolderTree, racyMs: number): string | undefined {
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
  const fp = createHash('sha256');
  for (const rel of tree.files) {
    let st;
    try {
      st = lstatSync(under(dir, rel));
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    fp.update(fingerprintLine({ rel }, st.size, st.mtimeMs, st.ctimeMs));
  }
  return fp.digest('hex');
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
  return { fingerprint, tree: { dirs, files: files.map((f) => f.rel) } };
}

/**
 * A skill folder's (path, size, mtime, ctime, link) fingerprint as it is now: from `stored` (a tree kept with the
 * folder's audit) when it still vouches for the folder, else from a walk, which gives the tree to keep next (`tree`).
 * `racyMs`: tests lower TREE_RACY_MS.
 */
export function fingerprintNow(
  dir: string,
  stored?: string | null,
  racyMs = TREE_RACY_MS,
): { fingerprint: string; tree?: FolderTree } {
  const tree = stored ? decodeTree(stored) : undefined;
  const fast = tree ? fromTree(dir, tree, racyMs) : undefined;
  return fast !== undefined ? { fingerprint: fast } : walked(dir, racyMs);
}

/** The stored form of an audit's tree when it can vouch for its folder later, else undefined (none is kept). */
export function treeToKeep(tree: FolderTree | undefined, racyMs = TREE_RACY_MS): string | undefined {
  return tree && vouches(tree.dirs, racyMs) ? encodeTree(tree) : undefined;
}
