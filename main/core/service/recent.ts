// Recently opened workspaces: a small JSON list in the data folder (newest first, at most 20, real paths).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setAside, writeFileAtomic } from '../base/index.js';

const RECENT_FILE = 'recent-workspaces.json';
const MAX = 20;

interface Entry {
  path: string;
  openedAt: number;
}

function recentPath(dataDir: string): string {
  return join(dataDir, RECENT_FILE);
}

/** The list; a file that is not a JSON list is moved aside (kept, never written over) and the list starts again. */
function read(dataDir: string): Entry[] {
  const file = recentPath(dataDir);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    raw = undefined;
  }
  if (!Array.isArray(raw)) {
    try {
      setAside(file);
    } catch {
      // not a file that can be moved (a folder): writing the list will fail too, and say so
    }
    return [];
  }
  return raw.filter(
    (e): e is Entry =>
      !!e &&
      typeof e === 'object' &&
      typeof (e as Entry).path === 'string' &&
      typeof (e as Entry).openedAt === 'number',
  );
}

export function listRecent(dataDir: string): { path: string; name: string; openedAt: number; exists: boolean }[] {
  return read(dataDir).map((e) => ({
    path: e.path,
    name: basename(e.path) || e.path,
    openedAt: e.openedAt,
    exists: existsSync(e.path),
  }));
}

export function addRecent(dataDir: string, path: string, now = Date.now()): void {
  const list = [{ path, openedAt: now }, ...read(dataDir).filter((e) => e.path !== path)].slice(0, MAX);
  const file = recentPath(dataDir);
  writeFileAtomic(file, JSON.stringify(list, null, 2) + '\n', { mode: 0o600 });
}
