// Why a file operation failed, as words: the common errno codes have their own (the window says them in its
// language); any other error keeps its message.
import { say, type Said, type WordCode } from '../../../preload/words.js';

const KNOWN: Record<string, WordCode> = {
  EACCES: 'fs.EACCES',
  EPERM: 'fs.EPERM',
  ENOENT: 'fs.ENOENT',
  ENOSPC: 'fs.ENOSPC',
  EROFS: 'fs.EROFS',
  ELOOP: 'fs.ELOOP',
  EISDIR: 'fs.EISDIR',
  ENOTDIR: 'fs.ENOTDIR',
  EEXIST: 'fs.EEXIST',
  EIO: 'fs.EIO',
  ENAMETOOLONG: 'fs.ENAMETOOLONG',
  // Knack's own: a path that exists but is not a regular file (a pipe, socket or device).
  ENOTREG: 'fs.ENOTREG',
};

/** Words for a thrown file-system error (`e.code` when Node gave one, else its message). */
export function fsWords(e: unknown): Said {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && KNOWN[code]) return say(KNOWN[code]);
  return say('fs.other', { error: e instanceof Error ? e.message : String(e) });
}
