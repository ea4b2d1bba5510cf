// The open folder's own instructions for working in it: AGENTS.md at the workspace root, else CLAUDE.md, with the files
// a CLAUDE.md imports (`@path`, as Claude Code reads them). Read again when a stat of any file read (size, times,
// inode; the target's too for a link) differs from the last read, so every assembly checks with a syscall or two per
// file and reads only after a change. A file that cannot be read is a state with its reason, never an exception; a path
// or a link that leads out of the folder is never read.
import { lstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fsWords, isInside, readCapped, realPathOf, realRoot, relPosix, say, type Said } from '../base/index.js';

/**
 * The files read, the first one present wins. AGENTS.md is the shared convention (Codex, Cursor, Goose, Amp and others
 * read it, written for any agent); CLAUDE.md is Claude Code's own, read for a project that has only that one. A
 * project with both usually keeps CLAUDE.md for Claude-only notes or as a pointer to AGENTS.md.
 */
const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

/** The file whose `@path` imports are read: Claude Code's syntax, in Claude Code's file (see docs/agent.md). */
const IMPORTING_FILE = 'CLAUDE.md';

/** Claude Code's limit: an imported file's own imports are followed up to five hops from CLAUDE.md. */
export const IMPORT_DEPTH = 5;

/**
 * At most this many bytes go into the prompt, the file and its imports together: 32 KiB, Codex's default
 * (`project_doc_max_bytes`), so a file written for Codex reads the same here. That is about 8k tokens of English
 * (under 10k of Chinese), a few percent of the usual 128k-200k window, and it sits in the cached prefix of every
 * request; a longer file is cut and the prompt says where the rest is.
 */
export const PROJECT_INSTRUCTIONS_CAP = 32 * 1024;

export interface InstructionFile {
  /** The root file's name, or an import's path from the workspace root (an import outside it: as written). */
  file: string;
  /** Its text, UTF-8 ('' when it could not be read). */
  text: string;
  /** Its size in bytes. */
  size: number;
  /** The text is the file's first `kept` bytes only (the cap's share left when it was read). */
  cut: boolean;
  kept: number;
  /** Why it could not be read (then `text` is empty). */
  problem?: Said;
}

export interface ProjectInstructions extends InstructionFile {
  /** The files it imports, depth first in the order they appear, each once. */
  imports: InstructionFile[];
}

/**
 * What the context view says of it: why the file could not be read, else the first import that could not be, else
 * the file cut, else the file (and how many it imports).
 */
export function instructionsWords(p: ProjectInstructions): Said {
  if (p.problem) return say('instructionsUnreadable', { file: p.file, why: p.problem });
  const bad = p.imports.find((i) => i.problem);
  if (bad) return say('instructionsImportUnreadable', { file: p.file, import: bad.file, why: bad.problem! });
  const cut = [p, ...p.imports].find((f) => f.cut);
  if (cut) return say('instructionsCut', { file: cut.file, cap: cut.kept, size: cut.size });
  const read = p.imports.filter((i) => !i.problem).length;
  if (read) return say('instructionsWithImports', { file: p.file, count: read });
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

function unreadable(file: string, problem: Said): InstructionFile {
  return { file, text: '', size: 0, cut: false, kept: 0, problem };
}

/**
 * Read `path` (absolute, its real path inside `root` checked here): only a regular file, UTF-8, cut at `cap` bytes.
 * Also gives the real path, so an import is read once however it is reached.
 */
function read(
  path: string,
  root: string,
  file: string,
  cap: number,
  allowed: MayRead,
): { got: InstructionFile; real?: string } {
  let real;
  try {
    real = realPathOf(path, root);
  } catch (e) {
    return { got: unreadable(file, fsWords(e)) };
  }
  if (!real.exists) return { got: unreadable(file, say('fs.ENOENT')) };
  if (!isInside(real.real, root)) return { got: unreadable(file, say('instructionsOutside')) };
  // A file the user's rules keep from the model is not read for it here either.
  if (!allowed(file)) return { got: unreadable(file, say('instructionsDenied')) };
  let got;
  try {
    // The resolved path, not followed again (a link swapped in after the check fails to open); a pipe never blocks.
    got = readCapped(real.real, cap, { noFollow: true });
  } catch (e) {
    return { got: unreadable(file, fsWords(e)) };
  }
  if (got.isDirectory) return { got: unreadable(file, say('fs.EISDIR')) };
  if (!got.isFile) return { got: unreadable(file, say('fs.ENOTREG')) };
  const cut = got.buf.length > cap;
  let text: string;
  try {
    // Streaming: a character the cap splits is held back (left out), any invalid byte before it throws.
    text = new TextDecoder('utf-8', { fatal: true }).decode(got.buf.subarray(0, cap), { stream: cut });
  } catch {
    return { got: unreadable(file, say('instructionsNotUtf8')) };
  }
  return { got: { file, text, size: got.size, cut, kept: cap }, real: real.real };
}

/**
 * The `@path` imports of a Markdown text, in order, as Claude Code finds them: an `@` at a line's start or after white
 * space, up to the next white space (`\ ` keeps a space); not inside a fenced code block or a code span. A trailing
 * sentence mark (`See @README.md.`) is not part of the path.
 */
function importsOf(text: string): string[] {
  const prose: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && !line.slice(m[0].length).trim())
        fence = undefined;
      continue;
    }
    if (m) {
      fence = m[1];
      continue;
    }
    prose.push(line);
  }
  // A code span: a run of backticks to the next run of the same length.
  const plain = prose.join('\n').replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ' ');
  const out: string[] = [];
  for (const m of plain.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    const path = m[1]!.replace(/\\ /g, ' ').replace(/[.,;:!?)\]]+$/, '');
    if (path) out.push(path);
  }
  return out;
}

/** Whether the model may read a file (its path from the workspace root): the gate's deny rules. */
export type MayRead = (file: string) => boolean;

interface Reading {
  value: ProjectInstructions;
  /** Every path looked at, with its stamp then: a change to any reads all again. */
  stamps: Map<string, string | undefined>;
  /** Every file put to `mayRead`, with its answer then: a rule added or removed reads all again. */
  asked: Map<string, boolean>;
}

/**
 * Read the file `name` (a path from the workspace root: the root's AGENTS.md or CLAUDE.md, or a subfolder's) and, for
 * a CLAUDE.md, its imports depth first, all within the cap and the folder.
 */
function readAll(workspace: string, name: string, rootStamp: string | undefined, mayRead: MayRead): Reading {
  const root = realRoot(workspace);
  const stamps = new Map<string, string | undefined>([[join(workspace, name), rootStamp]]);
  const asked = new Map<string, boolean>();
  const allowed = (file: string) => {
    const yes = mayRead(file);
    asked.set(file, yes);
    return yes;
  };
  const first = read(join(root, name), root, name, PROJECT_INSTRUCTIONS_CAP, allowed);
  const value: ProjectInstructions = { ...first.got, imports: [] };
  if (basename(name) !== IMPORTING_FILE || !first.real) return { value, stamps, asked };
  const seen = new Set([first.real]);
  let left = PROJECT_INSTRUCTIONS_CAP - Buffer.byteLength(first.got.text);
  const walk = (text: string, from: string, depth: number): void => {
    // Relative to the importing file where it is named (not where a link to it leads), as Claude Code does.
    for (const raw of importsOf(text)) {
      const path = raw.startsWith('~/') ? join(homedir(), raw.slice(2)) : resolve(dirname(from), raw);
      // Named as written when it points out of the folder: not stat'ed, not read.
      if (!isInside(path, root)) {
        value.imports.push(unreadable(raw, say('instructionsImportOutside')));
        continue;
      }
      const file = relPosix(path, root);
      stamps.set(path, stamp(path));
      let real: string | undefined;
      try {
        real = realPathOf(path, root).real;
      } catch {
        real = undefined;
      }
      if (real && seen.has(real)) continue; // each file once: a cycle ends here
      if (left <= 0) {
        value.imports.push(unreadable(file, say('instructionsCapReached', { cap: PROJECT_INSTRUCTIONS_CAP })));
        continue;
      }
      const got = read(path, root, file, left, allowed);
      // No such file in the folder: an `@name` of prose (`@tanstack/query`, `@alice`), passed over as Claude Code
      // does; its stamp above still notices the file when it appears.
      if (got.got.problem?.code === 'fs.ENOENT') continue;
      value.imports.push(got.got);
      if (!got.real) continue;
      seen.add(got.real);
      left -= Buffer.byteLength(got.got.text);
      if (depth < IMPORT_DEPTH) walk(got.got.text, path, depth + 1);
    }
  };
  walk(first.got.text, join(root, name), 1);
  return { value, stamps, asked };
}

/** The workspace's instructions, read again only when a stat says a file changed (the same object until then). */
export class ProjectInstructionsReader {
  private last: { workspace: string; file: string | undefined; reading: Reading | undefined } | undefined;

  /** `mayRead`: the gate's answer for a file (every file when left out). */
  current(workspace: string, mayRead: MayRead = () => true): ProjectInstructions | undefined {
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
    if (hit && hit.workspace === workspace && hit.file === file) {
      if (!hit.reading) return undefined;
      let same = true;
      for (const [path, was] of hit.reading.stamps) {
        if ((path === join(workspace, file!) ? st : stamp(path)) !== was) {
          same = false;
          break;
        }
      }
      for (const [file, was] of hit.reading.asked) {
        if (!same) break;
        if (mayRead(file) !== was) same = false;
      }
      if (same) return hit.reading.value;
    }
    const reading = file ? readAll(workspace, file, st, mayRead) : undefined;
    this.last = { workspace, file, reading };
    return reading?.value;
  }
}

/**
 * The folders from the workspace root down to where `path` is (a file's folder, or the folder itself for `isDir`), the
 * root left out, as paths from the root with `/`: `src/a/b.ts` gives `src` and `src/a`. None for a path out of the
 * folder (links resolved).
 */
export function foldersTo(workspace: string, path: string, isDir: boolean): string[] {
  const root = realRoot(workspace);
  let real;
  try {
    real = realPathOf(resolve(root, path), root).real;
  } catch {
    return [];
  }
  if (!isInside(real, root)) return [];
  const rel = relPosix(isDir ? real : dirname(real), root);
  if (!rel || rel.startsWith('..')) return [];
  const parts = rel.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * A subfolder's own instructions: its AGENTS.md, else its CLAUDE.md with its imports, read as the root's are (inside
 * the folder only, capped); undefined when it has neither. `dir`: the folder from the workspace root, with `/`.
 */
export function folderInstructions(workspace: string, dir: string, mayRead: MayRead): ProjectInstructions | undefined {
  for (const name of PROJECT_INSTRUCTION_FILES) {
    const file = `${dir}/${name}`;
    const st = stamp(join(workspace, file));
    if (st !== undefined) return readAll(workspace, file, st, mayRead).value;
  }
  return undefined;
}
