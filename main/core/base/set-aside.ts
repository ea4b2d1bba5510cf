// Moving a damaged file aside: kept under a timestamped name to look at, never written over and never read again.
import { existsSync, linkSync, unlinkSync } from 'node:fs';

/**
 * Move `file` (and any of its `sideFiles`, named `file + suffix`, such as SQLite's `-wal`) aside to
 * `<file>.damaged-<UTC time>`, never over a file already there. Returns the new name, or undefined when the file is no
 * longer there (another process moved it first).
 */
export function setAside(file: string, opts: { sideFiles?: readonly string[]; now?: Date } = {}): string | undefined {
  const sideFiles = opts.sideFiles ?? [];
  const stamp = (opts.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const target = `${file}.damaged-${stamp}${n > 1 ? `-${n}` : ''}`;
    if (sideFiles.some((s) => existsSync(target + s))) continue;
    try {
      // link + unlink, not rename: rename would replace a file already there.
      linkSync(file, target);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') return undefined;
      throw e;
    }
    for (const s of sideFiles) {
      if (!existsSync(file + s)) continue;
      linkSync(file + s, target + s);
      unlinkSync(file + s);
    }
    unlinkSync(file);
    return target;
  }
}
