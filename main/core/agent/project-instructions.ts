// The open folder's own instructions for working in it: AGENTS.md at the workspace root, else CLAUDE.md. Read again
// when a stat of the file (size, times, inode; the target's too for a link) differs from the last read, so every
// assembly checks with a syscall or two and reads only after a change. A file that cannot be read is a state with its
// reason, never an exception; a link that leads out of the folder is not followed.
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fsWords, isInside, readCapped, realPathOf, realRoot, say, type Said } from '../base/index.js';

/**
 * The files read, the first one present wins. AGENTS.md is the shared convention (Codex, Cursor, Goose, Amp and others
 * read it, written for any agent); CLAUDE.md is Claude Code's own, read for a project that has only that one. A
 * project with both usually keeps CLAUDE.md for Claude-only notes or as a pointer to AGENTS.md.
 */
const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

/**
 * At most this many bytes go into the prompt: 32 KiB, Codex's default (`project_doc_max_bytes`), so a file written for
 * Codex reads the same here. That is about 8k tokens of English (under 10k of Chinese), a few percent of the usual
 * 128k-200k window, and it sits in the cached prefix of every request; a longer file is cut and the prompt says where
 * the rest is.
 */
export const PROJECT_INSTRUCTIONS_CAP = 32 * 1024;

export interface ProjectInstructions {
  /** The file's name at the workspace root (one of PROJECT_INSTRUCTION_FILES). */
  file: string;
  /** Its text, at most PROJECT_INSTRUCTIONS_CAP bytes of UTF-8 ('' when it could not be read). */
  text: string;
  /** Its size in bytes. */
  size: number;
  /** The text is the file's first PROJECT_INSTRUCTIONS_CAP bytes only. */
  cut: boolean;
  /** Why it could not be read (then `text` is empty). */
  problem?: Said;
}

/** What the context view says of it: the file, cut or not, or why it could not be read. */
export function instructionsWords(p: ProjectInstructions): Said {
  if (p.problem) return say('instructionsUnreadable', { file: p.file, why: p.problem });
  if (p.cut) return say('instructionsCut', { file: p.file, cap: PROJECT_INSTRUCTIONS_CAP, size: p.size });
  return say('instructionsRead', { file: p.file });
}

/** The stat fields that change when a file is written, replaced or relinked (undefined: it is not there). */
function stamp(path: string): string | undefined {
  let l;
  try {
    l = lstatSync(path, { throwIfNoEntry: false }); // no exception made for the usual missing file
  } catch {
    return undefined;
  }
  if (!l) return undefined;
  const key = `${l.ino}:${l.mode}:${l.size}:${l.mtimeMs}:${l.ctimeMs}`;
  if (!l.isSymbolicLink()) return key;
  try {
    const t = statSync(path, { throwIfNoEntry: false });
    return t ? `${key}>${t.dev}:${t.ino}:${t.size}:${t.mtimeMs}:${t.ctimeMs}` : `${key}>none`;
  } catch {
    return `${key}>none`;
  }
}

function unreadable(file: string, problem: Said): ProjectInstructions {
  return { file, text: '', size: 0, cut: false, problem };
}

/** Read `file` at the workspace root: only inside the folder, only a regular file, UTF-8, cut at the cap. */
function read(workspace: string, file: string): ProjectInstructions {
  let real;
  try {
    real = realPathOf(join(workspace, file), workspace);
  } catch (e) {
    return unreadable(file, fsWords(e));
  }
  if (!real.exists) return unreadable(file, say('fs.ENOENT'));
  if (!isInside(real.real, realRoot(workspace))) return unreadable(file, say('instructionsOutside'));
  let got;
  try {
    // The resolved path, not followed again (a link swapped in after the check fails to open); a pipe never blocks.
    got = readCapped(real.real, PROJECT_INSTRUCTIONS_CAP, { noFollow: true });
  } catch (e) {
    return unreadable(file, fsWords(e));
  }
  if (got.isDirectory) return unreadable(file, say('fs.EISDIR'));
  if (!got.isFile) return unreadable(file, say('fs.ENOTREG'));
  const cut = got.buf.length > PROJECT_INSTRUCTIONS_CAP;
  let text: string;
  try {
    // Streaming: a character the cap splits is held back (left out), any invalid byte before it throws.
    text = new TextDecoder('utf-8', { fatal: true }).decode(got.buf.subarray(0, PROJECT_INSTRUCTIONS_CAP), {
      stream: cut,
    });
  } catch {
    return unreadable(file, say('instructionsNotUtf8'));
  }
  return { file, text, size: got.size, cut };
}

/** The workspace's instructions, read again only when a stat says the file changed (the same object until then). */
export class ProjectInstructionsReader {
  private last:
    | { workspace: string; file: string | undefined; stamp: string | undefined; value: ProjectInstructions | undefined }
    | undefined;

  current(workspace: string): ProjectInstructions | undefined {
    let file: string | undefined;
    let st: string | undefined;
    for (const name of PROJECT_INSTRUCTION_FILES) {
      st = stamp(join(workspace, name));
      if (st !== undefined) {
        file = name;
        break;
      }
    }
    const hit = this.last;
    if (hit && hit.workspace === workspace && hit.file === file && hit.stamp === st) return hit.value;
    const value = file ? read(workspace, file) : undefined;
    this.last = { workspace, file, stamp: st, value };
    return value;
  }
}
