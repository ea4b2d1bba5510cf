// A bounded walk of a workspace folder that respects .gitignore files (root and nested, via the `ignore`
// package) and always skips .git and node_modules; shared by glob and grep.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** Files one walk lists at most (grep's JavaScript engine, glob): past it the results are partial, and say so. */
export const WALK_MAX_FILES = 100_000;

/** What a tool's result and the log say when the walk stopped at its cap. */
export function walkCapNote(maxFiles: number, root: string): string {
  return `results are partial: the file walk stopped after ${maxFiles} files under ${root} (its cap); files past them were not searched; narrow path or glob`;
}

export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
}

interface Layer {
  /** Folder the .gitignore lives in, relative to the root ('' for the root). */
  base: string;
  ig: Ignore;
}

async function loadIgnore(dir: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

function ignored(layers: Layer[], rel: string, isDir: boolean): boolean {
  for (const l of layers) {
    const sub = l.base ? rel.slice(l.base.length + 1) : rel;
    if (sub && l.ig.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/**
 * A walk that stopped at its cap, in the process's log (stderr for the CLI and serve) as well as in the result the
 * model sees and the session keeps. Returns the note.
 */
export function logWalkCap(tool: string, note: string): string {
  process.emitWarning(`${tool}: ${note}`, { code: 'KNACK_WALK_CAP' });
  return note;
}

export interface WalkOptions {
  /** Stop after this many files (default WALK_MAX_FILES); onCapped is told when a file past them was left out. */
  maxFiles?: number;
  /** Called once when the walk stopped at maxFiles with a file left: whoever shows the results must say they are partial. */
  onCapped?: (maxFiles: number) => void;
  /** Respect .gitignore files (default true). */
  gitignore?: boolean;
  signal?: AbortSignal;
}

/**
 * Files under `root`, depth-first in name order, ignored paths skipped. Symlinked folders are not followed; a
 * symlinked file is listed only when its real path stays inside the root.
 */
export async function* walkFiles(root: string, opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const max = opts.maxFiles ?? WALK_MAX_FILES;
  const useIgnore = opts.gitignore !== false;
  let count = 0;
  let capped = false;
  const top = await stat(root);
  if (!top.isDirectory()) {
    yield { path: root, rel: '' };
    return;
  }
  // The gate checked the root; a symlink below it must not lead the walk anywhere else.
  const realRoot = await realpath(root);
  const staysInside = async (p: string): Promise<boolean> => {
    try {
      const r = relative(realRoot, await realpath(p));
      return !r.startsWith('..') && !isAbsolute(r) && (await stat(p)).isFile();
    } catch {
      return false;
    }
  };
  async function* visit(dir: string, layers: Layer[]): AsyncGenerator<WalkEntry> {
    if (opts.signal?.aborted || capped) return;
    const rel = relative(root, dir).split(sep).join('/');
    let here = layers;
    if (useIgnore) {
      const ig = await loadIgnore(dir);
      if (ig) here = [...layers, { base: rel, ig }];
    }
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (capped) return;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ALWAYS_SKIPPED.has(e.name) || (useIgnore && ignored(here, childRel, true))) continue;
        yield* visit(join(dir, e.name), here);
      } else if (e.isFile() || e.isSymbolicLink()) {
        if (useIgnore && ignored(here, childRel, false)) continue;
        if (e.isSymbolicLink() && !(await staysInside(join(dir, e.name)))) continue;
        if (count >= max) {
          // A file past the cap: the walk ends here, and says so (never a silent cut).
          capped = true;
          opts.onCapped?.(max);
          return;
        }
        count++;
        yield { path: join(dir, e.name), rel: childRel };
      }
    }
  }
  yield* visit(root, []);
}
