// Hot reload: watches the folders the catalog walked and the skill folders in them, each with every folder inside it
// (node:fs watch, one per folder), and refreshes the catalog, debounced, when a skill is added, edited or removed. A
// tier folder that does not exist yet is watched from its nearest existing parent. After every build the watched
// folders follow what the catalog walked.
//
// A refresh the watcher starts tells the trust review which skill folders it can vouch for (RefreshOptions.unchanged):
// watched all along and touched by no event since the last build. Only the others are looked at again (a stat of each
// file against the kept tree, or an audit); at 5,000 skills that pass over every folder was most of a hot reload. When
// the events cannot be trusted to be complete the refresh looks at every folder, as any other caller's does (`full`).
//
// node:fs watch, not chokidar (which the settings watcher uses for its few files): chokidar walks and stats every entry
// below the folders it is given, a second walk of what the catalog has just walked. At 5,000 skills that was ~30,000
// stats, 10,000 watches and ~5 s of CPU after every start (peak RSS 237-243 MB); one watch per walked folder is ~0.1 s
// and 5,009 watches (serve settles at 181-187 MB).
import { readdirSync, realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
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
 * A skill with more folders than this inside it is not followed folder by folder: it is looked at in every refresh
 * (a `node_modules` of thousands of folders would cost as many watches).
 */
const SKILL_FOLDERS_MAX = 64;
/**
 * This many file events before one refresh and it looks at every folder. The kernel's event queue (inotify,
 * fs.inotify.max_queued_events, 16,384 by default) drops what comes once it is full, and node:fs never says so (libuv
 * drops the overflow event): a burst this big is where that can have happened.
 */
const BURST_EVENTS = 2048;
/**
 * The system's limits on watches (inotify's max_user_watches, descriptors per process or in all): met once, every
 * other folder of the same pass would fail the same way.
 */
const NO_WATCH_LEFT = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

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
  /** A skill's folder or a folder inside it (the skill's real folder): every event in it touches that skill. */
  skill?: string;
}

/**
 * The folders inside a skill folder (every one its audit reads), and whether watching them follows every change to
 * its files: not when one is a link (a watch of the folder holding it does not see its target change), cannot be
 * listed, or the skill holds more than SKILL_FOLDERS_MAX of them.
 */
function foldersIn(skill: string): { dirs: string[]; complete: boolean } {
  const dirs: string[] = [];
  let complete = true;
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      complete = false;
      return;
    }
    for (const e of entries) {
      if (e.isSymbolicLink()) complete = false;
      if (!e.isDirectory()) continue;
      if (dirs.length >= SKILL_FOLDERS_MAX) {
        complete = false;
        return;
      }
      const p = dir + sep + e.name;
      dirs.push(p);
      walk(p);
    }
  };
  walk(skill);
  return { dirs, complete };
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
  /** Skill folders (and, for an entry of a walked folder, its path) that file events touched since the last refresh. */
  let touched = new Set<string>();
  /** File events since the last refresh, counted or not (BURST_EVENTS). */
  let events = 0;
  /**
   * The next refresh looks at every folder. First set because the catalog walked before these watches were made: what
   * changed in between is not known (the first refresh after watching starts).
   */
  let full = true;
  /** Each skill's folders as last listed (foldersIn), by the skill's real folder. */
  const inside = new Map<string, { dirs: string[]; complete: boolean }>();
  /** Skills whose folders are listed again at the next sync: an event in them (a folder may have come or gone). */
  const relist = new Set<string>();
  /** What each folder was wanted for at the last sync (a folder that could not be watched, too). */
  let lastWanted = new Map<string, Spec>();

  /**
   * Whether every folder of a skill is watched now, and was since the last refresh looked at it: a folder watched anew
   * (a retry, a folder made again) touches its skill, so the refresh after it looks at the skill again.
   */
  const followed = (skill: string): boolean => {
    const w = watchers.get(skill);
    if (!w || w.stale || w.spec.skill !== skill) return false;
    const ins = inside.get(skill);
    if (!ins?.complete) return false;
    for (const d of ins.dirs) {
      const x = watchers.get(d);
      if (!x || x.stale) return false;
    }
    return true;
  };

  /**
   * What the next refresh may keep from the last one (RefreshOptions.unchanged): the skill folders followed all along
   * and touched by no event. Undefined (every folder looked at, as any other refresh does) when the events cannot be
   * trusted to be complete: the first refresh after watching starts, a burst that may have filled the kernel's queue, a
   * watch that ended with an error, a walked folder that could not be watched or moved away, an event without a name,
   * a tier folder that came, a refresh that failed. Takes the events counted so far: later ones are the next refresh's.
   */
  const vouched = (): ((dir: string) => boolean) | undefined => {
    const t = touched;
    const n = events;
    const f = full;
    touched = new Set();
    events = 0;
    full = false;
    if (f || n >= BURST_EVENTS) return undefined;
    // A walked folder not watched: a skill below it may have come, gone or been replaced without an event.
    for (const d of failed) if (lastWanted.get(d)?.skill === undefined) return undefined;
    const under = [...t].map((p) => p + sep);
    return (dir) => {
      if (t.has(dir) || !followed(dir)) return false;
      for (const u of under) if (dir.startsWith(u)) return false;
      return true;
    };
  };
  // Folders that could not be watched are tried again on a timer (a watch may be left again: the limit raised, other
  // watches closed) as well as after each walk: no file event needs to come first. It backs off while they fail, and
  // never keeps the process alive. A pass stops trying at the first folder the system's limit refuses (sync).
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
      const unchanged = vouched();
      catalog.refresh(unchanged ? { unchanged } : {}).then(
        (c) => opts.onRefresh?.(c),
        (e: unknown) => {
          // What this refresh was to look at again is not known to have been looked at: the next one looks at all.
          full = true;
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
    const { walked, entries, skills } = catalog.folders();
    for (const d of walked) spec(d).walked = true;
    const again = new Set(relist);
    relist.clear();
    for (const d of entries) {
      spec(d).skillFile = true;
      // A skill folder whose path is its real one: it and every folder in it, listed when first seen or touched.
      if (!skills.has(d)) continue;
      spec(d).skill = d;
      let ins = inside.get(d);
      if (!ins || again.has(d)) inside.set(d, (ins = foldersIn(d)));
      for (const r of ins.dirs) spec(r).skill = d;
    }
    for (const d of inside.keys()) if (specs.get(d)?.skill !== d) inside.delete(d);
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
    /** A watch of this pass met the system's limit. */
    let noneLeft = false;
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
      // Met the system's limit: the folders already said as not watched wait for the next pass (a retry, a walk), so a
      // pass makes one failed try for them, not one each (thousands can be waiting for a watch). A folder never tried
      // is tried, and said with its own error.
      if (noneLeft && failed.has(dir)) continue;
      let w: FSWatcher;
      try {
        w = watchDir(dir, { persistent: true, encoding: 'utf8' });
      } catch (e) {
        // Gone since the walk (its parent's event refreshes the catalog), or no watch left (ENOSPC, EMFILE): said.
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') unfailed(dir);
        else {
          if (code !== undefined && NO_WATCH_LEFT.has(code)) noneLeft = true;
          failed.add(dir);
          opts.onError?.(e as Error, dir);
        }
        continue;
      }
      unfailed(dir);
      const entry = { w, spec, stale: false };
      const self = basename(dir);
      w.on('change', (event, name: string | null) => {
        events++;
        // The watched folder itself removed or moved (its own name, as a rename): watched again after the refresh.
        if (event === 'rename' && name === self) entry.stale = true;
        const s = entry.spec;
        if (s.skill !== undefined) {
          // Every file in a skill's folders is part of what its audit read: any event there touches the skill, and a
          // folder may have come or gone in it.
          touched.add(s.skill);
          relist.add(s.skill);
          schedule();
          return;
        }
        if (entry.stale) {
          // A walked folder moved away: what is under its name now came without events.
          full = true;
          schedule();
          return;
        }
        if (!counts(dir, s, name)) return;
        // No name: the platform did not say what changed. A tier folder on its way: all of it is new.
        if (name === null || s.toward?.has(name)) full = true;
        else touched.add(s.walked ? join(dir, name) : dir);
        schedule();
      });
      // A watched folder removed on some platforms ends its watch with EPERM; its parent's event refreshes the catalog.
      // Any other ending is said, and the folder is watched anew after the next walk.
      w.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPERM') return;
        entry.stale = true;
        // Events may have been lost before it ended, anywhere: the next refresh looks at every folder.
        full = true;
        failed.add(dir);
        opts.onError?.(e, dir);
        retryLater();
      });
      watchers.set(dir, entry);
      added = true;
      // What changed in a folder before its watch was made came without events: its skill is looked at again, and
      // every folder when it is a walked folder (a skill may have come under it).
      if (started) {
        if (spec.skill !== undefined) touched.add(spec.skill);
        else full = true;
      }
    }
    lastWanted = next;
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
        if (spec.walked || spec.skill !== undefined) out.push(dir);
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
