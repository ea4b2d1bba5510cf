// Real-path containment at call time: resolve `..` and every symlink (also dangling ones), then test against roots.
// A write target that does not exist yet is judged by the real path of its nearest existing parent.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const MAX_LINKS = 40;

export interface RealPath {
  /** The fully resolved path (for a missing file: real parent + remaining names). */
  real: string;
  /** False when the target does not exist yet. */
  exists: boolean;
}

/** Resolve `p` (relative to `base`) to its real location, following symlinks even when the target is missing. */
export function realPathOf(p: string, base: string, depth = 0): RealPath {
  const abs = resolve(base, p);
  try {
    return { real: realpathSync.native(abs), exists: true };
  } catch {
    // fall through: something on the way is missing or a dangling link
  }
  if (depth > MAX_LINKS) throw new Error(`too many symbolic links resolving ${p}`);
  // Does the leaf itself exist as a (dangling) symlink? Then its target decides, not its name.
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) {
      const target = readlinkSync(abs);
      const parent = realPathOf(dirname(abs), base, depth + 1).real;
      return realPathOf(isAbsolute(target) ? target : join(parent, target), parent, depth + 1);
    }
  } catch {
    // leaf missing: resolve the parent
  }
  const parent = dirname(abs);
  if (parent === abs) return { real: abs, exists: false };
  const rp = realPathOf(parent, base, depth + 1);
  return { real: join(rp.real, abs.slice(parent.length).replace(/^[/\\]+/, '')), exists: false };
}

/** True when `child` is `root` or below it (both real paths). */
export function isInside(child: string, root: string): boolean {
  if (child === root) return true;
  const rel = relative(root, child);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/** Real path of a root folder (roots that do not exist resolve through their existing parent). */
export function realRoot(root: string): string {
  return realPathOf(root, '/').real;
}

/** Path of `real` relative to `root`, with "/" separators (for glob matching). */
export function relPosix(real: string, root: string): string {
  return relative(root, real).split(sep).join('/');
}
