// Temporary folders named after the process that made them (`<prefix><pid>-XXXXXX` under the system temp folder): made
// with makeOwnTemp, and removed by pruneStaleTemp once their maker is gone (killed with -9, a crash), so a process that
// never reached its own clean-up leaves nothing behind for long.
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.js';

/** A new folder `<prefix><this pid>-XXXXXX` in `dir` (the system temp folder by default), private to the user. */
export function makeOwnTemp(prefix: string, dir = tmpdir()): string {
  return mkdtempSync(join(dir, `${prefix}${process.pid}-`));
}

/**
 * Remove the folders `<prefix><pid>-*` in `dir` whose process is gone, and, with `maxAgeMs`, any other process's that
 * is older than that (a pid may have been reused). This process's own are left to it. Returns the names removed; never
 * throws (another user's folder, or one gone already, is left as it is).
 */
export function pruneStaleTemp(prefix: string, opts: { dir?: string; maxAgeMs?: number; now?: number } = {}): string[] {
  const dir = opts.dir ?? tmpdir();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const p = join(dir, name);
    try {
      const st = lstatSync(p);
      if (!st.isDirectory()) continue;
      const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1] ?? NaN);
      if (pid === process.pid) continue;
      const dead = Number.isInteger(pid) && pid > 0 && !processAlive(pid);
      const old = opts.maxAgeMs !== undefined && (opts.now ?? Date.now()) - st.mtimeMs >= opts.maxAgeMs;
      if (!dead && !old) continue;
      rmSync(p, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // another user's folder, or gone already: left as it is
    }
  }
  return removed;
}
