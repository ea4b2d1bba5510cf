// Newest modification time under a folder: how `npm start` and `knack` tell whether dist/ is older than its sources.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Newest mtime (ms) under `dir`: its files' and its folders' own (a deleted or renamed file changes its folder's), 0
 * when it does not exist. Symlinks and other special files are skipped.
 */
export function newest(dir) {
  let t = 0;
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
    t = statSync(dir).mtimeMs;
  } catch {
    return 0;
  }
  for (const d of names) {
    const p = join(dir, d.name);
    if (d.isDirectory()) t = Math.max(t, newest(p));
    else if (d.isFile()) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}
