// Watches settings files edited by hand (settings.json, providers.json) and calls back, debounced, when one changes.
// Editors save by writing a new file and renaming it over the old one, so each file is watched through its folder;
// a folder that does not exist yet (`<ws>/.workbuddy`) is watched from its nearest existing parent until it appears.
import { existsSync, realpathSync, watch, type FSWatcher } from 'node:fs';
import { dirname, relative, sep } from 'node:path';

export interface FileWatcher {
  close(): void;
}

export interface WatchFilesOptions {
  /** Quiet time after the last event before calling back (ms). */
  debounceMs?: number;
  /** How many folders up to look for an existing one (default 3: `.workbuddy` → the workspace → its parent). */
  maxUp?: number;
  onError?: (err: Error) => void;
}

/**
 * Watch `files`; `onChange` gets the files that saw events since the last call (they may be unchanged: read and
 * compare). Nothing is read here. Closing stops every fs watcher and the pending call.
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

  /** One file, watched through its folder or the nearest existing parent of it; its events are `report`'s. */
  const one = (file: string, onEvent: () => void, report = file) => {
    let w: FSWatcher | undefined;
    let dir = '';
    const arm = (): void => {
      w?.close();
      w = undefined;
      if (closed) return;
      dir = dirname(file);
      for (let up = 0; !existsSync(dir) && up < maxUp; up++) dir = dirname(dir);
      if (!existsSync(dir)) return;
      // The name under `dir` on the way to the file: the file itself, or the first missing folder.
      const next = relative(dir, file).split(sep)[0]!;
      const atFile = dir === dirname(file);
      try {
        w = watch(dir, { persistent: false }, (_event, name) => {
          if (name !== null && name !== next) return;
          // The folder we watch went away, or the missing one on the way appeared: watch from where it is now.
          if (!existsSync(dir) || (!atFile && existsSync(`${dir}${sep}${next}`))) arm();
          onEvent();
          schedule(report);
        });
        w.on('error', (e) => {
          // A watched folder deleted under us: look again from its parent.
          if (!closed) {
            opts.onError?.(e);
            arm();
            schedule(report);
          }
        });
      } catch (e) {
        opts.onError?.(e as Error);
      }
    };
    arm();
    return { close: () => w?.close() };
  };

  /**
   * The file as written and, when it is a symlink (dotfiles linked in with stow, say), its target: an edit of the
   * target, saved by rename in the target's folder, changes what the link reads. The target is looked up again on
   * every event of either (the link may be pointed elsewhere).
   */
  const linked = (file: string) => {
    const own = one(file, () => retarget());
    let target: ReturnType<typeof one> | undefined;
    let targetPath: string | undefined;
    const retarget = (): void => {
      let real: string | undefined;
      try {
        real = realpathSync.native(file);
      } catch {
        real = undefined; // no file (yet): its folder is watched
      }
      if (real === targetPath) return;
      target?.close();
      targetPath = real;
      target = real !== undefined && real !== file ? one(real, retarget, file) : undefined;
    };
    retarget();
    return {
      close: () => {
        own.close();
        target?.close();
      },
    };
  };

  const watchers = [...new Set(files)].map(linked);
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
