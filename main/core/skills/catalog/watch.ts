// Hot reload: watches the folders the catalog walked and the skill folders in them (node:fs watch, one per folder) and
// refreshes the catalog, debounced, when a skill is added, edited or removed. A tier folder that does not exist yet is
// watched from its nearest existing parent. After every build the watched folders follow what the catalog walked.
//
// node:fs watch, not chokidar (which the settings watcher uses for its few files): chokidar walks and stats every entry
// below the folders it is given, a second walk of what the catalog has just walked. At 5,000 skills that was ~30,000
// stats, 10,000 watches and ~5 s of CPU after every start (peak RSS 237-243 MB); one watch per walked folder is ~0.1 s
// and 5,009 watches (serve settles at 181-187 MB).
import { realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Catalog, CatalogChange } from './catalog.js';
import { tierRoots } from './discover.js';

export interface WatchOptions {
  /** Quiet time after the last file event before refreshing (ms). */
  debounceMs?: number;
  /** Called after each refresh the watcher triggered. */
  onRefresh?: (change: CatalogChange) => void;
  /**
   * A failure: a folder that could not be watched or whose watch ended (`dir`: its changes are not followed any more;
   * ENOSPC when no inotify watch is left, EMFILE), or a refresh that failed (no `dir`).
   */
  onError?: (err: Error, dir?: string) => void;
  /**
   * A folder said through `onError` whose changes are followed again (a later walk watched it) or that is no longer
   * to watch (it is gone): the caller stops counting it. No `dir`: a walk succeeded after a refresh said through
   * `onError` failed, so the skill list is current again.
   */
  onWatched?: (dir?: string) => void;
  /**
   * While a folder cannot be watched, it is tried again after this long (ms), then twice as long each time it still
   * fails, up to 5 minutes; a walk tries it too.
   */
  retryMs?: number;
  /** What makes one folder's watch: node:fs `watch` (tests give one that fails as the system can). */
  watch?: (dir: string, options: { persistent: boolean; encoding: 'utf8' }) => FSWatcher;
}

export interface CatalogWatcher {
  /** Resolves when the folders are watched (events after it trigger refreshes). */
  ready: Promise<void>;
  /** What is watched now (tests): each walked folder, and the SKILL.md of each folder watched for that alone. */
  watched(): string[];
  /** The delay of the next try of the folders that could not be watched, while one is set (tests). */
  retryIn(): number | undefined;
  close(): Promise<void>;
}

const SKILL_FILE = /^skill\.md$/i;
/** The longest wait between two tries of a folder that could not be watched. */
const RETRY_MAX_MS = 300_000;

/**
 * What an event in one watched folder can mean. `walked`: an entry there may be (or have been) a skill folder, so any
 * entry that is not a file counts. `skillFile`: only its SKILL.md counts (a skill folder, whose other files and
 * folders are resources; a folder at the depth bound). `toward`: a parent of a tier folder that does not exist yet,
 * where only the next name on the way to it counts.
 */
interface Spec {
  walked: boolean;
  skillFile: boolean;
  toward?: Set<string>;
}

/** Whether an event for `name` in a watched folder can change the catalog. */
function counts(dir: string, spec: Spec, name: string | null): boolean {
  if (name === null) return true; // the platform did not say which entry: read again
  if (spec.toward?.has(name)) return true;
  if (SKILL_FILE.test(name)) return spec.walked || spec.skillFile;
  if (!spec.walked || name.startsWith('.') || name === 'node_modules') return false;
  // A file beside the skill folders (a README) is not a skill; a folder, or an entry that is gone (a folder removed or
  // renamed away), may be. A link is followed, as discovery follows it.
  try {
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    return st === undefined || !st.isFile();
  } catch {
    return true;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/**
 * Watch the catalog's tier folders; every add/edit/remove refreshes it (only changed files are re-parsed). One watch
 * per folder and nothing read: the folders are the catalog's last walk, not a walk of the watcher's own (a recursive
 * watcher stat'ed some 30,000 entries of 5,000 skills at every start, ~5 s of CPU).
 */
export function watchCatalog(catalog: Catalog, opts: WatchOptions = {}): CatalogWatcher {
  const debounceMs = opts.debounceMs ?? 150;
  const watchDir = opts.watch ?? watch;
  const settings = catalog.settingsInUse;
  const roots = tierRoots(catalog.options.paths, catalog.options.workspace, settings.discovery.agentsFolders).map(
    (r) => r.dir,
  );
  const watchers = new Map<string, { w: FSWatcher; spec: Spec; stale: boolean }>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let started = false;
  /** Folders said through `onError`, until they are watched or not wanted any more. */
  const failed = new Set<string>();
  const unfailed = (dir: string): void => {
    if (failed.delete(dir)) opts.onWatched?.(dir);
  };
  /** A refresh failed and was said through `onError`; no walk has succeeded since. */
  let refreshFailed = false;
  // Folders that could not be watched are tried again on a timer (a watch may be left again: the limit raised, other
  // watches closed) as well as after each walk: no file event needs to come first. It backs off while they fail, and
  // never keeps the process alive.
  const retryFirstMs = opts.retryMs ?? 5_000;
  let retryMs = retryFirstMs;
  let retry: NodeJS.Timeout | undefined;
  const retryLater = (): void => {
    if (closed || failed.size === 0) {
      if (retry) clearTimeout(retry);
      retry = undefined;
      retryMs = retryFirstMs;
      return;
    }
    if (retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      sync();
    }, retryMs);
    retry.unref();
  };

  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      catalog.refresh().then(
        (c) => opts.onRefresh?.(c),
        (e: unknown) => {
          refreshFailed = true;
          opts.onError?.(e as Error);
        },
      );
    }, debounceMs);
  };

  /** The folders to watch now and what counts in each: the last walk's, and the way to each tier folder not there. */
  const wanted = (): Map<string, Spec> => {
    const specs = new Map<string, Spec>();
    const spec = (dir: string): Spec => {
      let s = specs.get(dir);
      if (!s) specs.set(dir, (s = { walked: false, skillFile: false }));
      return s;
    };
    const { walked, entries } = catalog.folders();
    for (const d of walked) spec(d).walked = true;
    for (const d of entries) spec(d).skillFile = true;
    for (const r of roots) {
      if (isDir(r)) {
        // There, but not walked yet (created since the last build): watched whole until the next walk lists it.
        spec(realOr(r)).walked = true;
        continue;
      }
      // Not there yet: its nearest existing parent, at most two levels up (`.workbuddy/skills` → `.workbuddy` → the
      // home or workspace), for the next name on the way.
      for (let t = r, up = 0; up < 2; up++) {
        const parent = dirname(t);
        if (parent === t) break;
        if (isDir(parent)) {
          (spec(realOr(parent)).toward ??= new Set()).add(basename(t));
          break;
        }
        t = parent;
      }
    }
    return specs;
  };

  /**
   * Watch what the last walk found and stop watching what it did not. A folder watched for the first time may have
   * changed between the walk and its watch: one more refresh (warm: a stat per file) sees anything that came then.
   */
  const sync = (): void => {
    if (closed) return;
    const next = wanted();
    for (const [dir, entry] of watchers) {
      if (next.has(dir)) continue;
      entry.w.close();
      watchers.delete(dir);
    }
    let added = false;
    for (const [dir, spec] of next) {
      const have = watchers.get(dir);
      if (have && !have.stale) {
        have.spec = spec;
        continue;
      }
      // A watch on a folder that was removed or moved away watches nothing: the folder there now is watched anew.
      if (have) {
        have.w.close();
        watchers.delete(dir);
      }
      let w: FSWatcher;
      try {
        w = watchDir(dir, { persistent: true, encoding: 'utf8' });
      } catch (e) {
        // Gone since the walk (its parent's event refreshes the catalog), or no watch left (ENOSPC, EMFILE): said.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') unfailed(dir);
        else {
          failed.add(dir);
          opts.onError?.(e as Error, dir);
        }
        continue;
      }
      unfailed(dir);
      const entry = { w, spec, stale: false };
      const self = basename(dir);
      w.on('change', (event, name: string | null) => {
        // The watched folder itself removed or moved (its own name, as a rename): watched again after the refresh.
        if (event === 'rename' && name === self) entry.stale = true;
        if (entry.stale || counts(dir, entry.spec, name)) schedule();
      });
      // A watched folder removed on some platforms ends its watch with EPERM; its parent's event refreshes the catalog.
      // Any other ending is said, and the folder is watched anew after the next walk.
      w.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPERM') return;
        entry.stale = true;
        failed.add(dir);
        opts.onError?.(e, dir);
        retryLater();
      });
      watchers.set(dir, entry);
      added = true;
    }
    // A folder that could not be watched and that the walk no longer lists is gone: nothing of it is left to follow.
    for (const dir of failed) if (!next.has(dir)) unfailed(dir);
    retryLater();
    // A folder watched for the first time, or again after it could not be: what changed in it meanwhile is read.
    if (added && started) schedule();
  };

  /** A walk finished (this watcher's refresh or anyone's): what a failed refresh left out of date is read now. */
  const walked = (): void => {
    if (refreshFailed && !closed) {
      refreshFailed = false;
      opts.onWatched?.();
    }
    sync();
  };

  catalog.on('walked', walked);
  sync();
  started = true;

  return {
    ready: Promise.resolve(),
    watched: () => {
      const out: string[] = [];
      for (const [dir, { spec }] of watchers) {
        if (spec.walked) out.push(dir);
        else if (spec.skillFile) out.push(join(dir, 'SKILL.md'));
        for (const t of spec.toward ?? []) out.push(join(dir, t));
      }
      return out;
    },
    retryIn: () => (retry ? retryMs : undefined),
    close() {
      closed = true;
      catalog.off('walked', walked);
      if (timer) clearTimeout(timer);
      retryLater();
      for (const { w } of watchers.values()) w.close();
      watchers.clear();
      return Promise.resolve();
    },
  };
}
