// One change of the MCP settings at a time across processes (the desktop app and serve mode, or two serve processes,
// on one data folder): each read-modify-write of mcp-trust.json and mcp.json runs holding `mcp-edit.lock` in the data
// folder, made with an exclusive create ('wx') and holding its holder's process id, host and a token of its own.
// A holder keeps it for a few synchronous file writes. A lock whose holder has died (on this host), that was written
// before the machine started, or that is this process's own left from an earlier life, is stale: it is set aside and
// taken. A live holder is waited for a while; then the change is refused in words, never made without the lock.
// Hand-written rather than proper-lockfile: that package is not a dependency, and its lockSync does not wait.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { processAlive, Refusal, say } from '../base/index.js';

export const MCP_EDIT_LOCK = 'mcp-edit.lock';

/** How long a live holder is waited for before the change is refused. */
const WAIT_MS = 2000;
const POLL_MS = 20;
/** A lock that says no holder (its holder died between creating and writing it) is stale once this old. */
const UNSAID_MS = 10_000;

/** Its text; undefined when there is none (released meanwhile). */
function readLock(lock: string): string | undefined {
  try {
    return readFileSync(lock, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Whether the lock whose text is `text` has no live holder. */
function isStale(lock: string, text: string): boolean {
  let mtime: number;
  try {
    mtime = statSync(lock).mtimeMs;
  } catch {
    return false; // gone meanwhile: tried again
  }
  if (mtime < Date.now() - uptime() * 1000) return true; // written before the machine started
  const [pidText, host] = text.split('\n');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || host === undefined) return Date.now() - mtime > UNSAID_MS;
  if (host !== hostname()) return false; // another machine's process cannot be asked: waited for, then refused
  // This process holds the lock only inside one synchronous stretch: its pid on a lock is an earlier life's.
  return pid === process.pid || !processAlive(pid);
}

/**
 * Set the stale lock (`text`) aside. It is moved, then read: when what was moved is not the stale lock (another
 * process broke it and took the lock in between), it is linked back, and that holder keeps it.
 */
function breakStale(lock: string, text: string): void {
  const aside = `${lock}.${process.pid}-${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    if (readFileSync(aside, 'utf8') !== text) linkSync(aside, lock);
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Run `change` holding the data folder's MCP edit lock, and release it. Refuses (Refusal, `mcp.editBusy`) when a live
 * holder keeps it past the wait; a lock that cannot be made (the folder read-only, the disk full) throws the file
 * system's error, naming `MCP_EDIT_LOCK`. Either way `change` has not run.
 */
export async function withMcpEditLock<T>(dataDir: string, change: () => T): Promise<T> {
  const lock = join(dataDir, MCP_EDIT_LOCK);
  const mine = `${process.pid}\n${hostname()}\n${randomBytes(8).toString('hex')}\n`;
  const until = Date.now() + WAIT_MS;
  mkdirSync(dataDir, { recursive: true });
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const text = readLock(lock);
      if (text === undefined) continue;
      if (isStale(lock, text)) {
        breakStale(lock, text);
        continue;
      }
      if (Date.now() >= until) {
        const pid = text.split('\n')[0] || '?';
        throw new Refusal(say('mcp.editBusy', { file: lock, pid }));
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    try {
      writeSync(fd, mine);
    } catch (e) {
      rmSync(lock, { force: true });
      throw e;
    } finally {
      closeSync(fd);
    }
    try {
      return change();
    } finally {
      // Only its own: a lock set aside as stale meanwhile (another host's judgement) is not taken from its new holder.
      if (readLock(lock) === mine) rmSync(lock, { force: true });
    }
  }
}
