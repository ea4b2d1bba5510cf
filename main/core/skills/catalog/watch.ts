// Hot reload: watches the tier folders (chokidar) and refreshes the catalog, debounced, when a skill is added,
// edited or removed. Folders that do not exist yet are watched from their nearest existing parent.
import { existsSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Catalog, CatalogChange } from './catalog.js';
import { tierRoots } from './discover.js';

export interface WatchOptions {
  /** Quiet time after the last file event before refreshing (ms). */
  debounceMs?: number;
  /** Called after each refresh the watcher triggered. */
  onRefresh?: (change: CatalogChange) => void;
  onError?: (err: Error) => void;
}

export interface CatalogWatcher {
  /** Resolves when the initial scan of the watched folders is done (events after it trigger refreshes). */
  ready: Promise<void>;
  /** Every folder and file watched now (tests). */
  watched(): string[];
  close(): Promise<void>;
}

function isUnder(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

const SKILL_FILE = /^skill\.md$/i;

/** Watch the catalog's tier folders; every add/edit/remove refreshes it (only changed files are re-parsed). */
export function watchCatalog(catalog: Catalog, opts: WatchOptions = {}): CatalogWatcher {
  const debounceMs = opts.debounceMs ?? 150;
  const settings = catalog.settingsInUse;
  const roots = tierRoots(catalog.options.paths, catalog.options.workspace, settings.discovery.agentsFolders).map(
    (r) => r.dir,
  );
  // Watch each root, or its nearest existing parent (at most two levels up: `.workbuddy/skills` → `.workbuddy` → home).
  const targets = new Map<string, number>();
  for (const r of roots) {
    let t = r;
    let up = 0;
    while (!existsSync(t) && up < 2) {
      t = dirname(t);
      up++;
    }
    if (!existsSync(t)) continue;
    targets.set(t, Math.max(targets.get(t) ?? 0, up + settings.discovery.maxDepth + 1));
  }
  // Whether a folder holds a SKILL.md, asked once per folder (forgotten when one of its SKILL.md files comes or goes).
  const skillFolders = new Map<string, boolean>();
  const isSkillFolder = (dir: string): boolean => {
    let yes = skillFolders.get(dir);
    if (yes === undefined) {
      yes = existsSync(join(dir, 'SKILL.md')) || existsSync(join(dir, 'skill.md'));
      skillFolders.set(dir, yes);
    }
    return yes;
  };
  const ignored = (p: string, stats?: Stats): boolean => {
    for (const r of roots) {
      if (isUnder(p, r)) {
        const rel = relative(r, p);
        if (rel.split(sep).some((part) => part === 'node_modules' || part.startsWith('.'))) return true;
        // Inside a skill folder only its SKILL.md changes the catalog: its resources (scripts, references, assets;
        // their folders are never searched for skills) are not watched. 5,000 skills are 25,000 files and more.
        return !!stats && p !== r && isSkillFolder(dirname(p)) && !(stats.isFile() && SKILL_FILE.test(basename(p)));
      }
      if (isUnder(r, p)) return false; // an ancestor on the way to a root
    }
    return true;
  };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      catalog.refresh().then(
        (c) => opts.onRefresh?.(c),
        (e: unknown) => opts.onError?.(e as Error),
      );
    }, debounceMs);
  };
  const watchers: FSWatcher[] = [];
  const readies: Promise<void>[] = [];
  for (const [target, depth] of targets) {
    const w = watch(target, { ignoreInitial: true, followSymlinks: true, depth, ignored });
    w.on('all', (event, path) => {
      // Resource files inside a skill do not change the catalog; SKILL.md files and folders do.
      if ((event === 'change' || event === 'add' || event === 'unlink') && !SKILL_FILE.test(basename(path))) return;
      if (event === 'add' || event === 'unlink') skillFolders.delete(dirname(path));
      if (event === 'unlinkDir') skillFolders.delete(path);
      schedule();
    });
    w.on('error', (e) => opts.onError?.(e as Error));
    readies.push(new Promise((resolve) => w.once('ready', () => resolve())));
    watchers.push(w);
  }
  return {
    ready: Promise.all(readies).then(() => undefined),
    watched: () =>
      watchers.flatMap((w) =>
        Object.entries(w.getWatched()).flatMap(([dir, names]) => [dir, ...names.map((n) => join(dir, n))]),
      ),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
