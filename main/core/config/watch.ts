// Watches settings files edited by hand (settings.json, providers.json) and calls back, debounced, when one changes.
// chokidar does the watching (a few files, so its own walk costs nothing): each file is watched from above its folder, so an editor's
// save by rename, the folder removed and made again, or a folder that does not exist yet (`<ws>/.workbuddy`) are heard.
import { existsSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export interface FileWatcher {
  /** Resolves when the watching has started (changes from then on are heard), or when it is closed. */
  ready: Promise<void>;
  /** Stops calling back at once; resolves when every watch is gone (chokidar closes its watches asynchronously). */
  close(): Promise<void>;
}

export interface WatchFilesOptions {
  /** Quiet time after the last event before calling back (ms). */
  debounceMs?: number;
  /** How many folders up to look for an existing one (default 3: `.workbuddy` → the workspace → its parent). */
  maxUp?: number;
  onError?: (err: Error) => void;
}

/** `p` is `file` or a folder on the way to it. */
const onTheWay = (p: string, file: string): boolean => p === file || file.startsWith(p + sep);

/**
 * Watch `files`; `onChange` gets the files that saw events since the last call (they may be unchanged: read and
 * compare). Nothing is read here; chokidar hears nothing before `ready`. A file that is a symlink is followed to its target (chokidar's followSymlinks).
 * Closing stops every watcher and the pending call.
 */
export function watchFiles(
  files: string[],
  onChange: (files: string[]) => void,
  opts: WatchFilesOptions = {},
): FileWatcher {
  const debounceMs = opts.debounceMs ?? 100;
  const maxUp = opts.maxUp ?? 3;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  const schedule = (file: string): void => {
    if (closed) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const changed = [...pending];
      pending.clear();
      if (!closed) onChange(changed);
    }, debounceMs);
  };

  // Each file from the parent of its folder (a watched folder that is removed is not heard again when it comes back),
  // or from the nearest existing folder above that; files under the same folder share one watcher.
  const byRoot = new Map<string, string[]>();
  for (const file of new Set(files)) {
    let root = dirname(dirname(file));
    for (let up = 1; !existsSync(root) && up < maxUp; up++) root = dirname(root);
    if (existsSync(root)) byRoot.set(root, [...(byRoot.get(root) ?? []), file]);
  }
  const watchers = [...byRoot].map(([root, mine]) => {
    const depth = Math.max(...mine.map((f) => relative(root, f).split(sep).length - 1));
    let w: FSWatcher | undefined;
    /**
     * (Re)start the watcher. chokidar can lose a folder removed and made again at once (the next edits inside it go
     * unheard), so a folder on the way that comes or goes starts it afresh; what changed while it restarts is
     * reported once it is ready (callers compare, so a file reported unchanged costs a read).
     */
    const arm = (again: boolean): Promise<void> => {
      void w?.close();
      if (closed) return Promise.resolve();
      const fresh = watch(root, {
        ignoreInitial: true,
        persistent: false,
        followSymlinks: true,
        depth,
        ignored: (p) => !mine.some((f) => onTheWay(p, f)),
      });
      w = fresh;
      fresh.on('all', (event, path) => {
        if (fresh !== w) return;
        for (const f of mine) if (onTheWay(path, f)) schedule(f);
        if ((event === 'addDir' || event === 'unlinkDir') && mine.some((f) => f !== path && onTheWay(path, f)))
          void arm(true);
      });
      fresh.on('error', (e) => {
        if (!closed && fresh === w) opts.onError?.(e as Error);
      });
      return new Promise<void>((resolve) =>
        fresh.once('ready', () => {
          if (again && fresh === w) for (const f of mine) schedule(f);
          resolve();
        }),
      );
    };
    return { ready: arm(false), close: () => w?.close() ?? Promise.resolve() };
  });
  let stopped = (): void => {};
  const closing = new Promise<void>((resolve) => (stopped = resolve));
  return {
    // Closed before chokidar was ready, it never will be: waiting ends with the close.
    ready: Promise.race([Promise.all(watchers.map((x) => x.ready)).then(() => undefined), closing]),
    async close() {
      closed = true;
      stopped();
      if (timer) clearTimeout(timer);
      await Promise.all(watchers.map((x) => x.close()));
    },
  };
}
