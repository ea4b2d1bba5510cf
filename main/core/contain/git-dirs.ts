// The git dirs below a workspace (protect.ts: gitDirsBelow), kept up to date by watching its folders instead of walking
// them twice per command: the walk runs once, as the wall opens, and again whenever the watching cannot be trusted (an
// error, a possible overflow of the kernel's event queue, an event without a name). A command's own changes are all
// heard before its git dirs are read again after it: Knack writes a mark in a folder of its own and waits until that
// mark is heard. Events come in the order they happened (inotify keeps one queue, and libuv reads every fs.watch of
// the process from one inotify descriptor), so every change made before the mark has been handled by then.
//
// Node's fs.watch, not chokidar (which the settings watcher uses): chokidar reads a new folder before it
// watches it, so what is made in it meanwhile goes unheard until the next change there, and it handles events
// asynchronously, so nothing tells when it has caught up with a moment. Here a folder is watched first and read after,
// within the event's own callback: once the mark is heard, every folder made before it is watched and has been read.
import { lstatSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isInside } from '../base/index.js';
import { gitDirsBelow, gitDirsOf, listing, UNWALKED } from './protect.js';

/** Folders watched and read per turn of the event loop while the watch is built. */
const SLICE = 256;

/** How long to wait for the mark before walking instead (a loaded machine; never a result, only slower). */
const MARK_WAIT_MS = 10_000;

/** The kernel's queue length (events are lost past it, unseen: libuv drops the overflow notice). */
function queueLimit(): number {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()) || 16_384;
  } catch {
    return 16_384;
  }
}

/** A path's inode (its own, not a link's target); 0 when it is missing. */
function inoOf(p: string): number {
  try {
    return lstatSync(p).ino;
  } catch {
    return 0;
  }
}

/**
 * Test seams, each the real thing unless given: they let a test lose events, fail a watch or shorten the waits, to
 * reach the fallbacks a loaded kernel reaches (test/unit/contain/git-dirs-fallbacks.test.ts). The wall gives none.
 */
export interface GitDirWatchOptions {
  /** Watch one folder (its own folders and Knack's mark folder): fs.watch, not keeping the process alive. */
  watch?: (dir: string, listener: (event: string, name: string | null) => void) => FSWatcher;
  /** The kernel's queue length: /proc/sys/fs/inotify/max_queued_events. */
  queueLimit?: number;
  /** How long to wait for the mark: MARK_WAIT_MS. */
  markWaitMs?: number;
}

const watchFolder = (dir: string, listener: (event: string, name: string | null) => void): FSWatcher =>
  watch(dir, { persistent: false }, listener);

export class GitDirWatch {
  /**
   * The folders watched. A path's folder replaced by another (`rm -rf x && mkdir x`, a rename over it) is said by an
   * event in its parent, which watches the path afresh: no inode is kept to tell the two apart, nor stat-ed to keep.
   */
  private readonly folders = new Map<string, FSWatcher>();
  /** Every entry named `.git` below the roots (in folders walked: not in node_modules, not inside a `.git`). */
  private readonly entries = new Set<string>();
  /** Folders that could not be watched or read (as a walk skips them): looked at again when their entry changes. */
  private readonly unreadable = new Set<string>();
  /** Not to be trusted: the next read walks again. */
  private stale = true;
  /** Watching cannot work here (no inotify, no watches left): every read walks, as without this. */
  private walkOnly = process.platform !== 'linux';
  private events = 0;
  private readonly limit: number;
  private readonly markWaitMs: number;
  private readonly watch: NonNullable<GitDirWatchOptions['watch']>;
  private markDir: string | undefined;
  private markWatch: FSWatcher | undefined;
  private marks = 0;
  private readonly waiting = new Map<number, (heard: boolean) => void>();
  private closed = false;
  /** Each root's inode when it was walked (0: missing): one made, removed or swapped since is walked again. */
  private readonly rootIno = new Map<string, number>();
  /** The walk at open (or after a failure) under way; a read waits for it. */
  private building: Promise<void> | undefined;
  /** Counts the walks: a slice of an abandoned one stops. */
  private generation = 0;

  constructor(
    private readonly roots: string[],
    options: GitDirWatchOptions = {},
  ) {
    this.limit = options.queueLimit ?? queueLimit();
    this.markWaitMs = options.markWaitMs ?? MARK_WAIT_MS;
    this.watch = options.watch ?? watchFolder;
  }

  /**
   * Walk the roots and watch them (the wall opens): once, unless the watching fails later. In slices of a few hundred
   * folders, each its own turn of the event loop: watching 20,000 folders takes seconds on a loaded machine, and the
   * window's answers keep streaming meanwhile. A read meanwhile waits for it.
   */
  start(): void {
    if (this.walkOnly || this.closed || !this.stale || this.building) return;
    this.rebuild();
  }

  /**
   * The git dirs below the roots now, with their identities, as gitDirsBelow gives them: every change made before this
   * call is in it (the mark is heard first). Walks when the watching cannot be trusted.
   */
  async current(): Promise<Map<string, string>> {
    if (this.roots.some((r) => this.rootIno.get(r) !== inoOf(r))) this.stale = true;
    if (!this.walkOnly && !this.closed) {
      if (this.stale && !this.building) this.rebuild();
      if (this.building) await this.building;
      const heard = await this.mark();
      // More events since the last read than half the kernel's queue: some may have been lost (the process's other
      // watchers share the queue; half leaves them room). Watched afresh; this read walks.
      if (!heard || this.stale || this.events >= this.limit / 2) {
        this.stale = true;
        this.start();
        return gitDirsBelow(this.roots);
      }
      this.events = 0;
      return gitDirsOf(this.entries, this.roots);
    }
    return gitDirsBelow(this.roots);
  }

  close(): void {
    this.closed = true;
    this.unwatchAll();
    this.dropMark();
  }

  /**
   * End the mark's watch and its folder; marks still awaited count as not heard. The next mark is written in a new
   * folder watched afresh: a watcher that failed closes itself, and every later mark would go unheard (each read
   * waiting its full time before walking).
   */
  private dropMark(): void {
    this.markWatch?.close();
    this.markWatch = undefined;
    if (this.markDir) rmSync(this.markDir, { recursive: true, force: true });
    this.markDir = undefined;
    for (const done of this.waiting.values()) done(false);
    this.waiting.clear();
  }

  /** Watch everything afresh (the walk of gitDirsBelow, each folder watched before it is read), a slice a turn. */
  private rebuild(): void {
    this.unwatchAll();
    const generation = ++this.generation;
    this.stale = false;
    this.events = 0;
    const queue: string[] = [];
    for (const r of this.roots) {
      this.rootIno.set(r, inoOf(r));
      queue.push(r);
    }
    this.building = (async () => {
      while (queue.length && generation === this.generation && !this.closed && !this.walkOnly) {
        for (let n = 0; n < SLICE && queue.length; n++) this.addOne(queue.pop()!, queue);
        if (queue.length) await new Promise((r) => setImmediate(r));
      }
    })().finally(() => {
      if (generation === this.generation) this.building = undefined;
    });
  }

  private unwatchAll(): void {
    this.generation++;
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    this.entries.clear();
    this.unreadable.clear();
  }

  /** Watch `dir` and everything walkable below it now, reading each folder once its watch has begun. */
  private add(dir: string): void {
    const stack = [dir];
    while (stack.length) this.addOne(stack.pop()!, stack);
  }

  /** Watch `dir`, then read it: its `.git` is noted, the folders to walk in it are pushed on `next`. */
  private addOne(dir: string, next: string[]): void {
    if (this.walkOnly || this.stale) return;
    // Watched already: an event and the walk both reached it. Had its folder been replaced since, its parent's event
    // for it (handled in order, before any read) drops it and watches the new one.
    if (this.folders.has(dir)) return;
    let w: FSWatcher;
    try {
      w = this.watch(dir, (event, name) => this.heard(dir, event, name));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return; // gone meanwhile: its parent's event said so, or will
      if (code === 'EACCES' || code === 'EPERM') {
        this.unreadable.add(dir);
        return;
      }
      // No inotify watches left (ENOSPC) or another failure: walk at every read, as without the watching.
      this.walkOnly = true;
      this.unwatchAll();
      return;
    }
    w.on('error', () => void (this.stale = true));
    this.folders.set(dir, w);
    for (const e of listing(dir)) {
      const p = join(dir, e.name);
      if (e.name === '.git') this.entries.add(p);
      else if (e.isDirectory() && !UNWALKED.has(e.name)) next.push(p);
    }
  }

  /** Stop watching `dir` and everything below it; forget the `.git` entries there. */
  private drop(dir: string): void {
    for (const [d, w] of this.folders)
      if (isInside(d, dir)) {
        w.close();
        this.folders.delete(d);
      }
    for (const e of this.entries) if (isInside(e, dir)) this.entries.delete(e);
    for (const u of this.unreadable) if (isInside(u, dir)) this.unreadable.delete(u);
  }

  /** An event in the watched folder `dir`: bring what is known of the entry `name` up to date, now. */
  private heard(dir: string, event: string, name: string | Buffer | null): void {
    if (this.closed || this.stale || this.walkOnly) return;
    this.events++;
    if (typeof name !== 'string' || name === '') {
      this.stale = true;
      return;
    }
    // A watch's own folder removed or moved is said by its own name, and the kernel reuses a removed folder's inode
    // for the next one made (`rm -rf x && mkdir x`): its watch is ended and the path watched afresh, whatever it is now.
    // (A child of the same name is taken as that: read again, needlessly but harmlessly.)
    if (name === basename(dir)) {
      const now = lstatSync(dir, { throwIfNoEntry: false });
      this.drop(dir);
      if (now?.isDirectory()) this.add(dir);
    }
    const p = join(dir, name);
    // A file's content changed: it cannot have become a folder or a `.git`, unless it is one that could not be read.
    if (event === 'change' && !this.unreadable.has(p)) return;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      st = undefined;
    }
    if (name === '.git') {
      if (st) this.entries.add(p);
      else this.entries.delete(p);
      return;
    }
    // A folder's own entry created, removed or renamed: whatever is at the path now is watched and read afresh.
    if (this.folders.has(p) || this.unreadable.has(p)) this.drop(p);
    if (st?.isDirectory() && !UNWALKED.has(name)) this.add(p);
  }

  /** Write a mark in Knack's own folder and wait until it is heard; false when it was not (then the caller walks). */
  private mark(): Promise<boolean> {
    try {
      if (!this.markDir) {
        this.markDir = mkdtempSync(join(tmpdir(), 'knack-gitdirs-'));
        this.markWatch = this.watch(this.markDir, (_event, name) => {
          const n = Number(name);
          for (const [k, done] of this.waiting)
            if (k <= n) {
              this.waiting.delete(k);
              done(true);
            }
        });
        this.markWatch.on('error', () => {
          this.stale = true;
          this.dropMark();
        });
      }
      const n = ++this.marks;
      const heard = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.waiting.delete(n);
          this.dropMark(); // a watcher that hears nothing more may have failed without a word
          resolve(false);
        }, this.markWaitMs); // kept: it holds the process alive until the mark is heard (the watches do not)
        this.waiting.set(n, (heard) => {
          clearTimeout(timer);
          resolve(heard && !this.closed);
        });
      });
      const file = join(this.markDir, String(n));
      writeFileSync(file, '');
      rmSync(file, { force: true });
      return heard;
    } catch {
      return Promise.resolve(false);
    }
  }
}
