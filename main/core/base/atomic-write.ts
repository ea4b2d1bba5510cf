// One atomic file write for everything Knack saves (settings, providers.json, keys, caches, recent folders): a
// temporary file with a unique name beside the target, written and fsynced, then renamed over it, so a crash leaves
// the old file or the new one, never part of either, and two writers (threads or processes) never share a temporary.
// Hand-written rather than write-file-atomic: that package is not a dependency, and this is the whole of it.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { saidOwnWrite } from './own-writes.js';

export interface AtomicWriteOptions {
  /** File mode of the new file, whatever the umask (0o600 for a file holding keys). */
  mode?: number;
}

/** Replace `file` with `data` atomically, creating its folder. Throws (leaving the old file as it was) on failure. */
export function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o666);
  try {
    if (opts.mode !== undefined) fchmodSync(fd, opts.mode);
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
    // With what it holds: a change made to the temporary file before the rename is not Knack's.
    saidOwnWrite(file, new Map([[file, createHash('sha256').update(buf).digest('hex')]]));
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
    rmSync(tmp, { force: true });
    throw e;
  }
  // The rename is durable once its folder is synced; Windows cannot open a folder for that.
  if (process.platform !== 'win32') {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  }
}
