// Skill folders whose changes are not followed (a watch that could not be made, or that ended) and hot reloads that
// failed: one warning per kind of failure — how many folders and one of them — never one per folder.
import { english, say, type Diagnostic, type Said } from '../base/index.js';
import { displaySafe } from '../policy/index.js';

/** The command that raises the inotify watch limit (ENOSPC), as the warning names it. */
export const RAISE_WATCH_LIMIT = 'sudo sysctl fs.inotify.max_user_watches=524288';

const REFRESH = 'refresh';

/** A folder's name or an error's message as shown and logged: control and bidi characters escaped, one line. */
function wordsOf(kind: string, folders: Set<string>, rawError: string): Said {
  const error = displaySafe(rawError);
  if (kind === REFRESH) return say('catalog.refreshFailed', { error });
  const folder = displaySafe(folders.values().next().value ?? '');
  if (kind === 'ENOSPC')
    return say('catalog.unwatchedLimit', { count: folders.size, folder, command: RAISE_WATCH_LIMIT });
  return say('catalog.unwatched', { count: folders.size, folder, error });
}

/**
 * Collects the watcher's failures of one workspace, while they last. `changed` runs once per burst of changes
 * (thousands of folders can fail in one walk), with the kinds seen for the first time: the caller tells the window the
 * warnings as they are now, and logs those new kinds.
 */
export class WatchProblems {
  private readonly kinds = new Map<string, { folders: Set<string>; error: string }>();
  private readonly told = new Set<string>();
  private pending: NodeJS.Immediate | undefined;

  constructor(private readonly changed: (fresh: Diagnostic[]) => void) {}

  /** A folder that is not watched (`dir`), or a refresh that failed (no `dir`). */
  readonly add = (err: Error, dir?: string): void => {
    const kind = dir === undefined ? REFRESH : ((err as NodeJS.ErrnoException).code ?? err.message);
    const error = (err as NodeJS.ErrnoException).code ?? err.message;
    const k = this.kinds.get(kind);
    if (!k) this.kinds.set(kind, { folders: new Set(dir === undefined ? [] : [dir]), error });
    else if (dir === undefined) {
      // A refresh that failed again: the one warning says the error of now.
      if (k.error === error) return;
      k.error = error;
    } else {
      // A folder tried again (after a walk, on the watcher's timer) that still fails: nothing new to tell.
      if (k.folders.has(dir)) return;
      k.folders.add(dir);
    }
    this.tell();
  };

  /**
   * A folder whose changes are followed again, or that is gone: it is not counted any more, and a kind left without
   * folders is no warning (said again, and logged again, if it comes back). No `dir`: a walk succeeded after a
   * refresh failed, and the refresh warning goes the same way.
   */
  readonly watched = (dir?: string): void => {
    if (dir === undefined) {
      this.told.delete(REFRESH);
      if (this.kinds.delete(REFRESH)) this.tell();
      return;
    }
    let dropped = false;
    for (const [kind, { folders }] of this.kinds) {
      if (kind === REFRESH || !folders.delete(dir)) continue;
      dropped = true;
      if (folders.size > 0) continue;
      this.kinds.delete(kind);
      this.told.delete(kind);
    }
    if (dropped) this.tell();
  };

  private tell(): void {
    this.pending ??= setImmediate(() => {
      this.pending = undefined;
      const all = this.diagnostics();
      const fresh = all.filter((d) => !this.told.has(d.field!));
      for (const d of fresh) this.told.add(d.field!);
      this.changed(fresh);
    });
  }

  /** One warning per kind of failure (`field`: the kind, an errno code or `refresh`). */
  diagnostics(): Diagnostic[] {
    return [...this.kinds].map(([kind, { folders, error }]) => {
      const words = wordsOf(kind, folders, error);
      return {
        severity: 'warning',
        code: 'catalog.watch',
        file: folders.values().next().value ?? '',
        field: kind,
        message: english(words),
        words,
      };
    });
  }

  close(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = undefined;
  }
}
