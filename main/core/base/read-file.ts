// Reading a small file a user may have replaced with anything: opened non-blocking and checked to be a regular file
// before it is read, so a pipe or device at a settings path never freezes the app.
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/** The text of `file` (UTF-8). Throws the open's error (ENOENT for a missing file), or `not a regular file`. */
export function readRegularFile(file: string): string {
  const fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * At most `cap` bytes of `file`, and one more when it holds more (so a caller tells a file that fits from one it cuts),
 * with its real size. Opened non-blocking: a FIFO would otherwise wait for a writer forever and freeze the app. A folder,
 * pipe or device is not read (`isFile` false). `noFollow`: a link at `file` fails to open (ELOOP). Throws the open's
 * error.
 */
export function readCapped(
  file: string,
  cap: number,
  opts: { noFollow?: boolean } = {},
): { buf: Buffer; size: number; isFile: boolean; isDirectory: boolean } {
  const flags =
    fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (opts.noFollow ? (fsConstants.O_NOFOLLOW ?? 0) : 0);
  const fd = openSync(file, flags);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { buf: Buffer.alloc(0), size: st.size, isFile: false, isDirectory: st.isDirectory() };
    const want = Math.min(st.size, cap + 1);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { buf: buf.subarray(0, got), size: Math.max(st.size, got), isFile: true, isDirectory: false };
  } finally {
    closeSync(fd);
  }
}
