// Reading a small file a user may have replaced with anything: opened non-blocking and checked to be a regular file
// before it is read, so a pipe or device at a settings path never freezes the app.
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync } from 'node:fs';

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
