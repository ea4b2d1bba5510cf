// Recently opened workspaces: a small JSON list in the data folder (newest first, at most 20, real paths).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../base/index.js';

const RECENT_FILE = 'recent-workspaces.json';
const MAX = 20;

interface Entry {
  path: string;
  openedAt: number;
}

function recentPath(dataDir: string): string {
  return join(dataDir, RECENT_FILE);
}

function read(dataDir: string): Entry[] {
  try {
    const raw = JSON.parse(readFileSync(recentPath(dataDir), 'utf8')) as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is Entry =>
        !!e &&
        typeof e === 'object' &&
        typeof (e as Entry).path === 'string' &&
        typeof (e as Entry).openedAt === 'number',
    );
  } catch {
    return []; // missing or damaged: start a new list
  }
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
