// Opening files by a checked real path without a check-then-use race: open once, with O_NOFOLLOW, then ask the kernel
// where the open file really is (/proc/self/fd; elsewhere: same device + inode as the checked path) and refuse a mismatch.
// Writes go through a folder handle (create temp + rename inside that very folder), and refuse hard-linked files.
import {
  closeSync,
  constants as C,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A path changed (a symlink swapped in, a folder moved) between the check and the use. */
export class PathChangedError extends Error {
  /** @public Read as an errno code (errors.ts). */
  readonly code = 'EPATHCHANGED';
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path} changed while it was being used (${detail}); nothing was done`);
  }
}

/** A write to a file with more than one hard link (it may be the same file as one outside the workspace). */
export class HardLinkError extends Error {
  /** @public Read as an errno code (errors.ts). */
  readonly code = 'EHARDLINK';
  constructor(
    readonly path: string,
    readonly links: number,
  ) {
    super(
      `${path} has ${links} hard links: it may be the same file as one elsewhere, so it is not written (remove the extra links or write it yourself)`,
    );
  }
}

const PROC = existsProcFd();
function existsProcFd(): boolean {
  try {
    return readlinkSync('/proc/self/fd/0') !== undefined;
  } catch {
    return false;
  }
}

/**
 * How an opened descriptor is checked: `proc` asks the kernel where it is (/proc/self/fd, Linux); `stat` is the
 * portable check (macOS, Windows, Linux without /proc): the descriptor must be the same file (device + inode) as the
 * checked path, whose name is not a symlink and which still resolves to itself (no folder on the way swapped).
 */
export type FdCheck = 'proc' | 'stat';
let mode: FdCheck = PROC ? 'proc' : 'stat';

/** The check in use. */
export function fdCheck(): FdCheck {
  return mode;
}

/** Use another check (`proc` only where /proc/self/fd exists); returns the one before. Tests force `stat` on Linux. */
export function useFdCheck(next: FdCheck): FdCheck {
  const before = mode;
  mode = next === 'proc' && !PROC ? 'stat' : next;
  return before;
}

/** Where an open descriptor really is (proc), or why it is not the checked path (stat); `expected` when it is. */
function whereIs(fd: number, expected: string): string {
  if (mode === 'proc') return readlinkSync(`/proc/self/fd/${fd}`);
  const st = fstatSync(fd);
  const before = lstatSync(expected, { throwIfNoEntry: false });
  if (!before) return '(gone from the checked path)';
  if (before.isSymbolicLink()) return '(the checked path is now a symlink)';
  if (before.dev !== st.dev || before.ino !== st.ino) return '(another file: not the file that was checked)';
  // The name is the opened file; every folder on the way must still be real, and the name still the same file after.
  let resolved: string;
  try {
    resolved = realpathSync.native(expected);
  } catch {
    return '(gone from the checked path)';
  }
  if (resolved !== expected) return resolved;
  const after = lstatSync(expected, { throwIfNoEntry: false });
  return after && !after.isSymbolicLink() && after.dev === st.dev && after.ino === st.ino
    ? expected
    : '(another file: not the file that was checked)';
}

/** Refuse (PathChangedError) when the opened descriptor `fd` is not the file or folder at the checked real path. */
export function verifyOpened(fd: number, real: string, what: string): void {
  const at = whereIs(fd, real);
  if (at !== real) throw new PathChangedError(real, `${what} is really ${at}`);
}

export interface OpenedFile {
  fd: number;
  stat: Stats;
  close(): void;
}

/**
 * Open `real` (an absolute real path, as checked) for reading: O_NOFOLLOW on the last name, and the opened file
 * must be exactly `real` (no folder on the way swapped for a symlink). Throws ENOENT etc. like openSync.
 */
/** Open with O_NOFOLLOW; a symlink where a file or folder was checked is a changed path, not an OS error. */
function openNoFollow(path: string, flags: number, mode?: number): number {
  try {
    return openSync(path, flags | C.O_NOFOLLOW, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if ((code === 'ELOOP' || code === 'ENOTDIR') && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new PathChangedError(path, 'it became a symlink');
    }
    throw e;
  }
}

export function openReal(real: string): OpenedFile {
  const fd = openNoFollow(real, C.O_RDONLY | C.O_NONBLOCK);
  try {
    verifyOpened(fd, real, 'the opened file');
    return { fd, stat: fstatSync(fd), close: () => closeSync(fd) };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** Read the whole of an opened file (at most `max` bytes). */
export function readAll(f: OpenedFile, max = Number.MAX_SAFE_INTEGER): Buffer {
  const size = Math.min(f.stat.size, max);
  const buf = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const n = readSync(f.fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

export interface WriteOptions {
  /** Create missing parent folders (write_file). */
  mkdirs?: boolean;
  /** Write even when the file has more than one hard link (only for the user's own explicit action). */
  allowHardLinks?: boolean;
}

/**
 * Write `data` to `real` (an absolute real path, as checked) atomically: a temp file and a rename inside the
 * folder handle that was opened and verified, never through a path that could change in between. An existing
 * file keeps its mode; a symlink or a hard-linked file at `real` is refused. Returns whether the file is new.
 */
export function writeReal(real: string, data: Uint8Array | string, opts: WriteOptions = {}): { created: boolean } {
  const dir = dirname(real);
  const name = basename(real);
  if (opts.mkdirs) mkdirSync(dir, { recursive: true });
  const dfd = openNoFollow(dir, C.O_RDONLY | C.O_DIRECTORY);
  try {
    verifyOpened(dfd, dir, 'the folder');
    // Names inside the verified folder: /proc/self/fd/N/<name> is resolved from the open folder, wherever it is now.
    const inDir = (n: string): string => (mode === 'proc' ? `/proc/self/fd/${dfd}/${n}` : join(dir, n));
    const existing = lstatSync(inDir(name), { throwIfNoEntry: false });
    if (existing?.isSymbolicLink()) throw new PathChangedError(real, 'it became a symlink');
    if (existing?.isDirectory()) throw Object.assign(new Error(`${real} is a folder`), { code: 'EISDIR' });
    if (existing && !existing.isFile())
      throw Object.assign(new Error(`${real} is not a regular file`), { code: 'EINVAL' });
    if (existing && existing.nlink > 1 && !opts.allowHardLinks) throw new HardLinkError(real, existing.nlink);
    const tmpName = `.${name.slice(0, 100)}.knack-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.tmp`;
    const tfd = openSync(inDir(tmpName), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o666);
    try {
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let off = 0;
      while (off < buf.length) off += writeSync(tfd, buf, off, buf.length - off);
      if (existing) fchmodSync(tfd, existing.mode & 0o7777);
      closeSync(tfd);
      renameSync(inDir(tmpName), inDir(name));
    } catch (e) {
      try {
        closeSync(tfd);
      } catch {
        /* already closed */
      }
      try {
        unlinkSync(inDir(tmpName));
      } catch {
        /* gone */
      }
      throw e;
    }
    return { created: !existing };
  } finally {
    closeSync(dfd);
  }
}
