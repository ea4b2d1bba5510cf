// The install audit: scans SKILL.md, every script and every reference of a skill folder and grades it P0/P1/P2.
// Context-aware (prose vs. shell block vs. example vs. script), normalised first, findings carry file, line, rule, excerpt, level.
import { createHash } from 'node:crypto';
import { sha256Hex } from '../../base/index.js';
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { basename, sep } from 'node:path';
import type { Diagnostic } from '../../base/index.js';
import {
  AUDITOR_VERSION,
  LEVEL_RANK,
  MENTION_RE,
  NEGATION_RE,
  NEGATION_CANCEL_RE,
  NEGATION_REACH,
  CLAUSE_BREAK_RE,
  CJK_RE,
  GH_TOKEN_READ,
  OWN_SERVICE_CREDENTIALS,
  RULES,
  URLLESS_CHANNEL_RE,
  maxLevel,
  type AuditRule,
  type Context,
  type Family,
  type Level,
} from './audit-rules.js';
import { REWRITE_TRIGGERS, decodeBase64Blobs, deobfuscate, normalizeLine, type HiddenText } from './normalize.js';
import { hintScanner, lineFilter, type LineFilter, type RuleMask } from './audit-hints.js';
import type { ParsedPermissions, Permissions } from '../../policy/index.js';
import { readPermissionRequest } from '../format/index.js';
import { permissionDiff, type PermissionDiff } from '../../policy/index.js';
import { readFrontmatterText } from '../format/index.js';
import { splitFrontmatter } from '../format/index.js';
import { frontmatterFacts, type FrontmatterFacts } from '../format/index.js';
import type { ParsedManifest } from '../format/index.js';
import { isInside, said, say, type Said } from '../../base/index.js';
import { invocableName, slugify } from '../format/index.js';

export interface Finding {
  /** Path relative to the skill folder, "/" separators. */
  file: string;
  line: number;
  rule: string;
  family: Family;
  level: 'P0' | 'P1';
  /** The offending text (normalised, trimmed to ~160 chars). */
  excerpt: string;
  /** `excerpt` as words, one per `; `-separated part, when it is our English, not the skill's text (a permission diff). */
  excerptWords?: Said[];
  /** What it means, as words the window says in its language (preload/words.ts); `message` is their English. */
  words: Said;
  message: string;
}

export interface AuditReport {
  /** Skill name from the frontmatter, else the folder name. */
  skill: string;
  dir: string;
  level: Level;
  findings: Finding[];
  /** sha256 over every file's path and bytes: approvals and trust are bound to it. */
  contentHash: string;
  files: number;
  bytes: number;
  /** The reviewed permission request (undefined when the manifest was rejected). */
  permissions?: Permissions;
  manifestDiagnostics: Diagnostic[];
  /** Against the previous version, when one was given. */
  diff?: PermissionDiff;
  /**
   * The two verdicts the level is made of: the manifest's (frontmatter and permission request) and the content's
   * (instructions, references, scripts). The content rules run whatever the manifest's verdict.
   */
  verdicts: { manifest: Level; content: Level };
  auditor: string;
  /**
   * sha256 of the SKILL.md frontmatter text this audit read (FrontmatterFacts.sha256), when it could read one: the
   * catalog's entry must come from the same text for this verdict to apply to it (trust.ts).
   */
  frontmatterSha256?: string;
}

/** Families judged as the manifest (frontmatter, permission request); every other finding is about the content. */
export const MANIFEST_FAMILIES: ReadonlySet<Family> = new Set<Family>(['manifest', 'permissions']);

/** The manifest and content verdicts of a set of findings. */
export function verdictsOf(findings: Finding[]): { manifest: Level; content: Level } {
  let manifest: Level = 'P2';
  let content: Level = 'P2';
  for (const f of findings) {
    if (MANIFEST_FAMILIES.has(f.family)) manifest = maxLevel(manifest, f.level);
    else content = maxLevel(content, f.level);
  }
  return { manifest, content };
}

/** maxUnauditedBytes: files too large to audit are still hashed (so trust binds to their bytes), up to this much per folder. */
export const LIMITS = {
  maxFiles: 2000,
  maxFileBytes: 2 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  maxUnauditedBytes: 256 * 1024 * 1024,
  maxPerRule: 20,
};

const MARKDOWN_EXT = new Set(['.md', '.markdown', '.mdx', '.txt', '.rst']);
const SHELL_EXT = new Set(['.sh', '.bash', '.zsh', '.ksh', '.fish', '.ps1', '.bat', '.cmd', '.command']);
const SHELL_FENCE = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'console',
  'terminal',
  'shell-session',
  'shellsession',
  'powershell',
  'ps1',
  'ps',
  'pwsh',
  'cmd',
  'bat',
  'fish',
  'ksh',
]);

export interface FileEntry {
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  /** The change time, when the walk took an lstat (links; every file in listSkillFiles). */
  ctimeMs?: number;
  link?: string;
  escapes?: boolean;
  /** A symlink whose target is not a regular file (a folder, FIFO, socket or device): never read. */
  special?: boolean;
}

/**
 * A folder of a skill as a walk listed it: [its path from the skill folder ("" or "a/b/"), mtimeMs, ctimeMs, the wall
 * clock just before it was listed]; [path, -1, -1, 0] when it could not be looked at. The folder's listing stands while
 * its times are unchanged, and it was listed far enough from its last change (skills/trust/tree.ts).
 */
export type DirStamp = [string, number, number, number];

/**
 * Every file of a skill folder (symlinks reported, not followed out of the folder), sorted by path. `dirs`: the
 * folders walked are stamped into it, each as it was just before its listing.
 */
export function listSkillFiles(dir: string, dirs?: DirStamp[]): { files: FileEntry[]; truncated: boolean } {
  return walkSkillFiles(dir, true, dirs);
}

/**
 * The walk behind listSkillFiles. `stat` false: a regular file's size and mtime are left for its reader to take from
 * the open file (size -1 until then), which saves an lstat per file; links are always looked at here.
 */
function walkSkillFiles(dir: string, stat: boolean, dirs?: DirStamp[]): { files: FileEntry[]; truncated: boolean } {
  // The folder's real path, taken when a link needs it (is its target inside the folder?): a folder without links is
  // walked as it was given, without resolving it.
  let root: string | undefined;
  const realRoot = (): string => (root ??= realpathSync.native(dir));
  const files: FileEntry[] = [];
  let truncated = false;
  // `relDir`: the folder's path from the root, "/" separators, ending in "/" (empty for the root).
  const walk = (abs: string, relDir: string): void => {
    // Time first, then the folder's times, then the listing: a change after this moment moves the times past these.
    const stamp: DirStamp = [relDir, -1, -1, 0];
    if (dirs) {
      dirs.push(stamp);
      stamp[3] = Date.now();
      try {
        const ds = statSync(abs);
        stamp[1] = ds.mtimeMs;
        stamp[2] = ds.ctimeMs;
      } catch {
        stamp[3] = 0; // not vouched for: the listing below fails too, or the folder went in between
      }
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      stamp[3] = 0;
      // A folder that does not resolve throws, as it always did (a resolved one that cannot be listed is empty).
      if (relDir === '') realRoot();
      return;
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const ent of entries) {
      if (files.length >= LIMITS.maxFiles) {
        truncated = true;
        return;
      }
      const name = ent.name;
      const p = abs.endsWith(sep) ? abs + name : abs + sep + name;
      const rel = relDir + name;
      if (!stat && ent.isFile()) {
        files.push({ rel, abs: p, size: -1, mtimeMs: 0 });
        continue;
      }
      // The listing's type is lstat's (a link to a folder is a link): a folder is walked without another lstat.
      if (ent.isDirectory()) {
        walk(p, rel + '/');
        continue;
      }
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) {
        let target = '';
        try {
          target = readlinkSync(p);
        } catch {
          /* unreadable link */
        }
        let real: string | undefined;
        // Resolved as the root was (realpathSync.native): the JS resolver can spell the same folder differently
        // (letter case on a case-insensitive disk, a subst drive), which would read as an escape.
        try {
          real = realpathSync.native(p);
        } catch {
          real = undefined;
        }
        const escapes = real === undefined || !isInside(real, realRoot());
        let size = 0;
        let special = true;
        try {
          const t = escapes ? undefined : lstatSync(real!);
          if (t?.isFile()) {
            size = t.size;
            special = false;
          }
        } catch {
          /* ignore */
        }
        files.push({
          rel,
          abs: p,
          size,
          mtimeMs: st.mtimeMs,
          ctimeMs: st.ctimeMs,
          link: target,
          escapes,
          ...(special && !escapes ? { special } : {}),
        });
      } else if (st.isDirectory()) {
        walk(p, rel + '/');
      } else if (st.isFile()) {
        files.push({ rel, abs: p, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
      }
    }
  };
  walk(dir, '');
  return { files, truncated };
}

/** Open flags for a listed regular file: never follow a link swapped in since, never block on a FIFO swapped in. */
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);
/** One read buffer per thread, reused for every file (grown as needed, never past LIMITS.maxFileBytes). */
let readBuf = Buffer.allocUnsafe(256 * 1024);

/** Where a file of `size` bytes is read: the reused buffer (valid until the next file). */
function readInto(size: number): Buffer {
  if (readBuf.length < size)
    readBuf = Buffer.allocUnsafe(Math.min(LIMITS.maxFileBytes, Math.max(size, readBuf.length * 2)));
  return readBuf;
}

/** How a listed file is opened: a regular file with READ_FLAGS; a listed link (its target checked) is followed, never blocking. */
function openFlags(f: FileEntry): number {
  return f.link === undefined ? READ_FLAGS : fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);
}

/**
 * Read a listed file: its bytes (in the shared buffer: valid until the next read) with its size and mtime from the
 * open file, or `tooLarge` (nothing read) when it passes the limits. A regular file the walk did not stat is opened
 * first and measured on the open descriptor (one fstat instead of an lstat before the read).
 */
function readListed(
  f: FileEntry,
  room: number,
): { buf?: Buffer; size: number; mtimeMs: number; ctimeMs: number; notFile?: boolean } {
  if (f.size >= 0 && f.link === undefined && (f.size > LIMITS.maxFileBytes || f.size > room))
    return { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs ?? 0 };
  const fd = openSync(f.abs, openFlags(f));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, notFile: true };
    const size = st.size;
    if (size > LIMITS.maxFileBytes || size > room) return { size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
    const into = readInto(size);
    let n = 0;
    while (n < size) {
      const got = readSync(fd, into, n, size - n, n);
      if (got === 0) break;
      n += got;
    }
    return { buf: n === into.length ? into : into.subarray(0, n), size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Feed a file's bytes to a hash in chunks (not audited: too large); the bytes hashed, or -1 when it cannot be read as the regular file listed. */
function hashFileInto(hash: ReturnType<typeof createHash>, f: FileEntry): number {
  let fd: number;
  try {
    fd = openSync(f.abs, openFlags(f));
  } catch {
    return -1;
  }
  try {
    if (!fstatSync(fd).isFile()) return -1;
    const chunk = Buffer.allocUnsafe(1 << 20);
    let total = 0;
    for (;;) {
      const got = readSync(fd, chunk, 0, chunk.length, total);
      if (got === 0) return total;
      total += got;
      if (total > LIMITS.maxUnauditedBytes) return -1;
      hash.update(chunk.subarray(0, got));
    }
  } catch {
    return -1;
  } finally {
    closeSync(fd);
  }
}

function excerptOf(text: string, index = 0): string {
  const start = Math.max(0, index - 40);
  const s = text.slice(start, start + 160);
  return (start > 0 ? '…' : '') + s + (start + 160 < text.length ? '…' : '');
}

/**
 * A file's text for the audit, or undefined for real binary data. UTF-16 (with a BOM, as Windows writes .ps1 files)
 * is decoded; NUL bytes do not make a text file "binary" (that would hide it from the audit): they are dropped and
 * reported. Binary = NUL bytes and mostly non-text once they are removed.
 */
export function auditTextOf(buf: Buffer): { text: string; nul: boolean } | undefined {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe)
    return { text: buf.subarray(2).toString('utf16le'), nul: false };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff)
    return {
      text: Buffer.from(buf.subarray(2, buf.length - (buf.length % 2)))
        .swap16()
        .toString('utf16le'),
      nul: false,
    };
  if (!buf.includes(0)) return { text: buf.toString('utf8'), nul: false };
  const text = buf.toString('utf8').replace(/\0/g, '');
  return mostlyText(text.slice(0, SAMPLE_CHARS)) ? { text, nul: true } : undefined;
}

/** The start of a text with NUL bytes that says whether it is text (auditTextOf). */
const SAMPLE_CHARS = 8000;

/** A sample with at most 5% replacement characters and control characters (tab, LF, CR, ESC aside). */
function mostlyText(sample: string): boolean {
  let odd = 0;
  for (const ch of sample) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x1b)) odd++;
  }
  return sample.length > 0 && odd / sample.length <= 0.05;
}

/** A NUL byte among a file's first bytes: images, fonts, archives and executables all show one there. */
const NUL_PROBE = 512;
/** The bytes of a large file decoded first by textWithNuls: their text (NULs removed) holds auditTextOf's sample when it is binary. */
const HEAD_BYTES = 64 * 1024;

/**
 * auditTextOf for bytes with a NUL among them and no UTF-16 byte order mark, each byte decoded once. A large file's
 * first HEAD_BYTES are decoded first: when their text (NULs removed) holds the whole sample and it says binary, the
 * rest is never decoded; else the rest is decoded after them. The head ends where a character starts, so the two
 * parts decode to the same characters as the whole file (UTF-8 decodes afresh at any byte that is not a continuation).
 */
export function textWithNuls(buf: Buffer): { text: string; nul: boolean } | undefined {
  const cut = buf.length > HEAD_BYTES ? charStart(buf, HEAD_BYTES) : buf.length;
  const head = buf.toString('utf8', 0, cut).replace(/\0/g, '');
  if (head.length >= SAMPLE_CHARS && !mostlyText(head.slice(0, SAMPLE_CHARS))) return undefined;
  const text = cut < buf.length ? head + buf.toString('utf8', cut).replace(/\0/g, '') : head;
  if (head.length < SAMPLE_CHARS && !mostlyText(text.slice(0, SAMPLE_CHARS))) return undefined;
  return { text, nul: true };
}

/** `at`, or the byte up to 3 before it that is not a UTF-8 continuation byte (where the character cut at `at` starts). */
function charStart(buf: Buffer, at: number): number {
  for (let i = at; i >= at - 3 && i > 0; i--) if ((buf[i]! & 0xc0) !== 0x80) return i;
  return at;
}

/** A UTF-16 byte order mark (auditTextOf decodes the file as UTF-16). */
function utf16Bom(buf: Buffer): boolean {
  return buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff));
}

function executableMagic(buf: Buffer): string | undefined {
  if (buf.length < 4) return undefined;
  if (buf[0] === 0x7f && buf[1] === 0x45 && buf[2] === 0x4c && buf[3] === 0x46) return 'ELF executable';
  if (buf[0] === 0x4d && buf[1] === 0x5a) return 'Windows executable';
  const m = buf.readUInt32BE(0);
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(m)) return 'Mach-O executable';
  if (buf[0] === 0x00 && buf[1] === 0x61 && buf[2] === 0x73 && buf[3] === 0x6d) return 'WebAssembly module';
  return undefined;
}

/** A line with its context; `prose` is the surrounding sentence used for negation/mention checks. */
/**
 * A line (or part of one) with its context. `around` is the surrounding sentence used for negation/mention checks.
 * `placement` marks text the user does not see rendered but the model reads on every turn: the frontmatter
 * description (in every prompt) and HTML comments (invisible when rendered). It aggravates, never lessens.
 */
interface Segment {
  text: string;
  ctx: Context;
  line: number;
  around: string;
  /** An inline code span right after a quote mark. */
  quoted: boolean;
  placement: Placement | undefined;
  /** A list item under a heading or lead-in that lists things to look for ("## Red flags", "Watch for these sinks:"). */
  listedAsCheck: boolean;
  /** Lines joined into one (a shell command continued with backslashes): its text is not part of one line. */
  joined: boolean;
  /** An inline code span the text hands to the user to run ("give the user these steps:", "tell the user to install it"). */
  handed: boolean;
  /** Text a shell script prints (`echo "…"`, `cat <<EOF`) or writes to a document (`cat > README.md <<EOF`). */
  printed: boolean;
  /** An inline code span that is one name carrying a command substitution, in a clause that does not run it. */
  named: boolean;
}
/**
 * A segment, every field set in one order: segments of every kind share one shape, so the functions that read them
 * see one map and stay optimised (a field present on some segments only made them polymorphic).
 */
function segment(
  text: string,
  ctx: Context,
  line: number,
  around: string,
  placement: Placement | undefined = undefined,
  listedAsCheck = false,
  joined = false,
  quoted = false,
  handed = false,
  printed = false,
  named = false,
): Segment {
  return { text, ctx, line, around, quoted, placement, listedAsCheck, joined, handed, printed, named };
}
/** A segment with another context (and `around`): made by segment(), so it has the segments' one map. */
function recast(seg: Segment, ctx: Context, around: string = seg.around): Segment {
  return segment(
    seg.text,
    ctx,
    seg.line,
    around,
    seg.placement,
    seg.listedAsCheck,
    seg.joined,
    seg.quoted,
    seg.handed,
    seg.printed,
    seg.named,
  );
}
type Placement = 'description' | 'html-comment';
const PLACEMENT_NOTE: Record<Placement, Said> = {
  description: say('noteDescription'),
  'html-comment': say('noteHtmlComment'),
};

/** A shell line that feeds an inline program to an interpreter through a here-document: `python3 - <<'EOF'`. */
const HEREDOC_RE =
  /\b(?:python[\d.]*|node(?:js)?|perl|ruby|php|bun|deno(?:\s+run)?|osascript)\b[^<\n]*<<-?\s*(["']?)([A-Za-z_]\w*)\1/;

/** Shell lines ending in a backslash continue on the next line: `curl … \` / `| sh` is one command. */
const CONTINUED_RE = /(?:^|[^\\])(?:\\\\)*\\\s*$/;
const continues = (raw: string): boolean => CONTINUED_RE.test(raw);

/** How a Markdown reader sees a line's start. */
const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const LIST_RE = /^\s{0,3}(?:[-*+]|\d+[.)])\s/;
const ITEM_RE = /^\s*(?:[-*+]|\d+[.)])\s/;
const HEADING_RE = /^\s{0,3}#/;
const PROMPT_RE = /^\s*(?:\$|>|PS>|#\s*\$)\s+/;
const SHELL_COMMENT_RE = /^\s*#(?!!)/;

/**
 * Split a Markdown file into segments: prose lines, inline code spans, fenced blocks (shell or example), indented code.
 * `quiet` lines (see lineFilter) give no segment of their own; they still move the reading state (fences, lists, comments).
 */
function markdownSegments(lines: string[], quiet?: Uint8Array): Segment[] {
  const md: MarkdownReading = {
    out: [],
    fence: undefined,
    carry: undefined,
    prevBlank: true,
    inIndented: false,
    inList: false,
    heredoc: undefined,
    comment: undefined,
    checkList: false,
    userList: false,
    paragraph: '',
  };
  for (let i = 0; i < lines.length; i++) markdownLine(md, lines[i]!, i + 1, quiet !== undefined && quiet[i] === 1);
  const comment = md.comment;
  if (comment?.text.trim()) md.out.push(segment(comment.text, 'prose', comment.line, comment.text, 'html-comment'));
  return md.out;
}

/** markdownSegments's reading state, from one line to the next. */
interface MarkdownReading {
  readonly out: Segment[];
  fence: { marker: string; ctx: Context } | undefined;
  carry: { text: string; line: number } | undefined;
  prevBlank: boolean;
  inIndented: boolean;
  inList: boolean;
  heredoc: string | undefined;
  comment: { text: string; line: number } | undefined;
  checkList: boolean;
  /** Under a lead-in that hands the list's commands to the user ("If it is missing, give the user these steps:"). */
  userList: boolean;
  /** The prose of the paragraph before this line: a sentence wrapped over lines is read whole. */
  paragraph: string;
}

/** One Markdown line (`q`: quiet, it gives no segment of its own). */
function markdownLine(md: MarkdownReading, raw: string, line: number, q: boolean): void {
  const fm = FENCE_RE.exec(raw);
  if (fm && !md.comment) {
    if (!md.fence) {
      md.fence = { marker: fm[1]!, ctx: SHELL_FENCE.has(fm[2]!.toLowerCase()) ? 'shell' : 'example' };
      md.carry = undefined;
      md.heredoc = undefined;
      return;
    }
    if (fm[1]!.startsWith(md.fence.marker) && raw.trim().replace(/[`~]/g, '') === '') {
      md.fence = undefined;
      md.carry = undefined;
      md.heredoc = undefined;
      md.prevBlank = false;
      return;
    }
  }
  if (md.fence) fencedLine(md, md.fence.ctx, raw, line, q);
  else proseLine(md, raw, line, q);
}

/** A line inside a fenced block of `ctx` ('shell' or 'example'). */
function fencedLine(md: MarkdownReading, ctx: Context, raw: string, line: number, q: boolean): void {
  const t = raw.replace(PROMPT_RE, '');
  if (md.heredoc !== undefined) {
    // The body of `python3 - <<'EOF'` is a program: judged as a script.
    if (raw.trim() === md.heredoc) md.heredoc = undefined;
    else if (!q) md.out.push(segment(raw, ctx === 'shell' ? 'script' : 'example', line, raw));
    return;
  }
  if (ctx === 'shell' && t.includes('<<')) md.heredoc = HEREDOC_RE.exec(t)?.[2];
  const comment = ctx === 'shell' && SHELL_COMMENT_RE.test(raw);
  if (ctx === 'shell' && !comment && (md.carry || continues(t))) {
    // Join continued lines so a command split over several lines is matched whole.
    const carry = (md.carry = md.carry
      ? { text: md.carry.text.replace(/\\\s*$/, ' ') + t, line: md.carry.line }
      : { text: t, line });
    if (continues(t)) return;
    md.out.push(segment(carry.text, 'shell', carry.line, carry.text, undefined, false, true));
    md.carry = undefined;
    return;
  }
  if (!q) md.out.push(segment(t, comment ? 'comment' : ctx, line, raw));
}

/** A line outside fences: indented code, or prose (with its HTML comments and code spans). */
function proseLine(md: MarkdownReading, raw: string, line: number, q: boolean): void {
  // An indented code block (4 spaces or a tab after a blank line, not inside a list) shows code like a fence does.
  const blank = raw.trim() === '';
  const indented = (raw.startsWith('    ') || raw.startsWith('\t')) && !blank;
  if (!indented && !blank) md.inList = LIST_RE.test(raw) || (md.inList && !md.prevBlank);
  if (indented && !md.inList && (md.prevBlank || md.inIndented)) {
    md.inIndented = true;
    md.prevBlank = false;
    if (!q) md.out.push(segment(raw.trim().replace(/^(?:\$|>|PS>)\s+/, ''), 'example', line, raw));
    return;
  }
  if (!blank) md.inIndented = false;
  md.prevBlank = blank;
  const item = ITEM_RE.test(raw);
  const heading = HEADING_RE.test(raw);
  const startsSpaced = /^\s/.test(raw);
  if (heading || (!blank && !item && !startsSpaced)) {
    // A heading or a lead-in line opens (or closes) a list of things to look for.
    md.checkList = (heading || /[:：]\s*$/.test(raw)) && CHECK_RE.test(raw) && !RUN_RE.test(raw.replace(/:\s*$/, ''));
    md.userList = !heading && /[:：]\s*$/.test(raw) && handsToUser(raw);
  }
  const listed = md.checkList && (item || startsSpaced);
  if (blank || heading || item) md.paragraph = '';
  if (!q) md.out.push(segment(raw, 'prose', line, raw, undefined, listed));
  // HTML comments (one line or many): what they hold is judged as text placed out of the reader's sight.
  if (md.comment || raw.includes('<!--')) htmlComments(md, raw, line);
  if (!q && raw.includes('`'))
    codeSpans(md.out, raw, line, listed, md.userList && (item || startsSpaced), md.paragraph);
  // Only the paragraph's tail is kept: a clause is read back to its sentence's start, at most CLAUSE characters.
  if (!blank && !heading) md.paragraph = (md.paragraph + raw + ' ').slice(-CLAUSE);
}

/**
 * Words that hand a command to the user to run in their own terminal ("give the user these steps", "tell the user to
 * install it", "offer to install"), not to the agent; a clause that also has the agent run it ("then run them
 * yourself") does not hand anything over.
 */
/** How far before a code span its clause is looked for. */
const CLAUSE = 300;
const HANDED_RE =
  /\b(?:give|show|tell|ask|advise|instruct|remind|have|let)\s+(?:the\s+)?(?:user|users|operator|reader)\b|\boffer\s+to\s+(?:install|set\s+it\s+up)\b/i;
const AGENT_TOO_RE =
  /\b(?:yourself|without\s+(?:asking|waiting)|(?:then|and|also|before)\s+(?:run|execute|install)\b)/i;
function handsToUser(clause: string): boolean {
  return HANDED_RE.test(clause) && !AGENT_TOO_RE.test(clause);
}

/** The HTML comments a prose line opens, continues or closes. */
function htmlComments(md: MarkdownReading, raw: string, line: number): void {
  let rest = raw;
  while (rest) {
    const comment = md.comment;
    if (comment) {
      const end = rest.indexOf('-->');
      comment.text += (comment.text ? ' ' : '') + (end === -1 ? rest : rest.slice(0, end));
      if (end === -1) break;
      if (comment.text.trim()) md.out.push(segment(comment.text, 'prose', comment.line, comment.text, 'html-comment'));
      md.comment = undefined;
      rest = rest.slice(end + 3);
      continue;
    }
    const start = rest.indexOf('<!--');
    if (start === -1) break;
    md.comment = { text: '', line };
    rest = rest.slice(start + 4);
  }
}

/** A prose line's inline code spans, each a segment of its own. */
function codeSpans(
  out: Segment[],
  raw: string,
  line: number,
  listed: boolean,
  inUserList: boolean,
  paragraph: string,
): void {
  for (const m of raw.matchAll(/(`+)([^`]+?)\1/g)) {
    const before = raw.slice(Math.max(0, (m.index ?? 0) - 1), m.index ?? 0);
    // The sentence before the span, from the paragraph's earlier lines when it is wrapped (bounded: a long line with
    // many spans reads a window before each, not the whole line again).
    const at = m.index ?? 0;
    const head = at > CLAUSE ? raw.slice(at - CLAUSE, at) : paragraph + raw.slice(0, at);
    const clause = head.split(/[.!?;。！？]\s/).pop() ?? '';
    const handed = inUserList || handsToUser(clause);
    const named = NAME_CARRIES_COMMAND_RE.test(m[2]!) && !RUN_RE.test(clause);
    out.push(
      segment(m[2]!, 'inline', line, raw, undefined, listed, false, /["“'‘]/.test(before), handed, false, named),
    );
  }
}

function scriptSegments(lines: string[], shell: boolean, quiet?: Uint8Array): Segment[] {
  const out: Segment[] = [];
  let carry: { text: string; line: number } | undefined;
  let heredoc: string | undefined;
  let text: { end: string; expands: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const q = quiet !== undefined && quiet[i] === 1;
    if (heredoc !== undefined) {
      if (raw.trim() === heredoc) heredoc = undefined;
      else if (!q) out.push(segment(raw, 'script', i + 1, raw));
      continue;
    }
    if (text !== undefined) {
      // The body of `cat <<EOF` or `cat > README.md <<EOF`: text the script prints or documents, not a command.
      // An unquoted end word lets `$(…)` and backticks in the body run: such a line is read as a command.
      if (raw.trim() === text.end) text = undefined;
      else if (text.expands && SUBSTITUTION_RE.test(raw)) {
        if (!q) out.push(segment(raw, 'shell', i + 1, raw));
      } else if (!q) out.push(segment(raw, 'example', i + 1, raw, undefined, false, false, false, false, true));
      continue;
    }
    if (shell && raw.includes('<<')) {
      heredoc = HEREDOC_RE.exec(raw)?.[2];
      text = heredoc === undefined ? textHeredoc(raw) : undefined;
    }
    const comment = scriptComment(raw);
    if (shell && !comment && (carry || continues(raw))) {
      // Join continued lines so a command split over several lines is matched whole.
      carry = carry ? { text: carry.text.replace(/\\\s*$/, ' ') + raw, line: carry.line } : { text: raw, line: i + 1 };
      if (continues(raw) && i < lines.length - 1) continue;
      out.push(segment(carry.text, 'shell', carry.line, carry.text, undefined, false, true));
      carry = undefined;
      continue;
    }
    if (!q) {
      const printed = shell && !comment && PRINT_RE.test(raw);
      out.push(
        segment(
          raw,
          comment ? 'comment' : shell ? 'shell' : 'script',
          i + 1,
          raw,
          undefined,
          false,
          false,
          false,
          false,
          printed,
        ),
      );
    }
  }
  return out;
}

/**
 * A shell line that only prints one quoted string (`echo "Install it with: curl … | sh" >&2`): no pipe, no redirect
 * into a file, no command substitution in it.
 */
const PRINT_RE =
  /^\s*(?:echo|printf)(?:\s+-[a-zA-Z]+)*\s+(?:"(?:[^"\\`$]|\\.|\$\{?\w+\}?)*"|'[^']*')\s*(?:[12]?>&[12])?\s*;?\s*$/;
/** `cat <<EOF` (printed) or `cat > FILE <<EOF` with FILE a document (`.md`, `.txt`, `.rst`): the here-document's end word. */
const TEXT_HEREDOC_RE =
  /^\s*cat\s+(?:>>?\s*(["']?)([^\s"'<>|;&]+)\1\s+)?<<-?\s*(["']?)([A-Za-z_]\w*)\3\s*(?:>>?\s*(["']?)([^\s"'<>|;&]+)\5)?\s*$/;
const DOC_FILE_RE = /\.(?:md|markdown|txt|rst)$/i;
const SUBSTITUTION_RE = /\$\(|(?:^|[^\\])`/;
function textHeredoc(raw: string): { end: string; expands: boolean } | undefined {
  const m = TEXT_HEREDOC_RE.exec(raw);
  if (!m) return undefined;
  const file = m[2] ?? m[6];
  return file === undefined || DOC_FILE_RE.test(file) ? { end: m[4]!, expands: m[3] === '' } : undefined;
}

/** A script line that is a comment (`#`, `//`, `--`, `/*`, `* `, `REM `; a shebang is not). */
function scriptComment(raw: string): boolean {
  const trimmed = raw.trimStart();
  return (
    (trimmed.startsWith('#') && !trimmed.startsWith('#!')) ||
    trimmed.startsWith('//') ||
    trimmed.startsWith('--') ||
    trimmed.startsWith('/*') ||
    trimmed.startsWith('* ') ||
    trimmed.startsWith('REM ')
  );
}

/**
 * scriptSegments of a script that is not a shell script (no here-document, no continued line: each line is read on
 * its own), from its loud lines only, cut out of the text as `split(/\r?\n/)` gives them; undefined when `quiet`
 * does not have one flag per line of the text.
 */
function loudScriptSegments(text: string, quiet: Uint8Array): Segment[] | undefined {
  const out: Segment[] = [];
  if (quiet.length === 0) return undefined;
  let start = 0;
  for (let i = 0; i < quiet.length; i++) {
    const nl = text.indexOf('\n', start);
    if ((nl === -1) !== (i === quiet.length - 1)) return undefined;
    if (quiet[i] !== 1) {
      const end = nl === -1 ? text.length : nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const raw = text.slice(start, end);
      out.push(segment(raw, scriptComment(raw) ? 'comment' : 'script', i + 1, raw));
    }
    start = nl + 1;
  }
  return out;
}

/** A rule's match in a text; `note` says where it sits when that aggravates it (every hit has the same fields). */
interface Hit {
  rule: AuditRule;
  level: 'P0' | 'P1';
  index: number;
  note: Said | undefined;
  /** A refusal lowered to a question by a reading of the prose around it: never lowered further, to nothing. */
  lowered: boolean;
}

/**
 * Apply the rule book to one normalised segment. `aggravated`: the text sits where the user does not see it (a
 * description, an HTML comment): a rule applies at its full level wherever it would apply at all, and a quoted or
 * discussed phrase is not let off.
 */
function matchRules(seg: Segment, text: string, rules: RuleMask = EVERY_RULE.all, aggravated = false): Hit[] {
  // One pass over the text finds every hint: only rules with a hint in it (and in `rules`) run their regex.
  // The same text is often judged twice in a row (a prose line for its words, then for its commands): scanned once.
  // Every call gives an array from this one literal (its elements kind is the same whatever was found).
  const hits: Hit[] = [];
  // Chinese forms have no ASCII hint: text with CJK characters tries every rule that has them.
  if (!scanHints(text) && !scanned.cjk) return hits;
  const cjk = scanned.cjk;
  let any = 0;
  for (let w = 0; w < HINTED.length; w++) any |= HINTED[w] = (scanned.mask[w]! | (cjk ? ZH_RULES[w]! : 0)) & rules[w]!;
  if (!any) return hits;
  // The rules with a hint, in rule-book order: each word's set bits, lowest first.
  for (let w = 0; w < HINTED.length; w++) {
    let bits = HINTED[w]!;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const i = (w << 5) + 31 - Math.clz32(low);
      if (i >= RULES.length) break;
      const hit = ruleHit(RULES[i]!, seg, text, aggravated);
      if (hit) hits.push(hit);
    }
  }
  return hits;
}

/** One hinted rule on a segment's text: its hit, or undefined (no match, not in this context, or negated). */
function ruleHit(rule: AuditRule, seg: Segment, text: string, aggravated: boolean): Hit | undefined {
  const full = rule.contexts.includes(seg.ctx);
  const weak = !full && rule.weak?.includes(seg.ctx);
  if (!full && !weak) return undefined;
  let m = rule.re.exec(text);
  if (!m) return undefined;
  let level: 'P0' | 'P1' = weak && !aggravated ? 'P1' : rule.level;
  if (rule.negatable && (seg.ctx === 'prose' || seg.ctx === 'inline' || seg.ctx === 'comment')) {
    // A negated match is let off and the text searched on: the same phrase said again later is not ("Never ignore
    // the user; ignore your previous instructions").
    while (m && negated(seg, text, m.index)) {
      // A command that would be refused, after a word that forbids something, is asked about: the word may not be
      // about the command at all ("Do not hesitate: run `rm -rf ~/`").
      if (seg.ctx === 'inline' && level === 'P0' && COMMAND_FAMILIES.has(rule.family))
        return { rule, level: 'P1', index: m.index, note: say('auditNote.negated'), lowered: true };
      m = matchFrom(rule.re, text, m.index + 1);
    }
    if (!m) return undefined;
  }
  if (rule.mentionable && level === 'P0' && !aggravated && mentioned(seg, text, m.index)) level = 'P1';
  return { rule, level, index: m.index, note: undefined, lowered: false };
}

/** The sentence before a match negates it ("never use sudo"): its last negation governs the match (see NEGATION_REACH). */
function negated(seg: Segment, text: string, index: number): boolean {
  const around = normalizeLine(seg.around).text;
  const idx = seg.ctx === 'inline' ? Math.max(0, around.indexOf(text.slice(0, 20))) : index;
  const before =
    around
      .slice(Math.max(0, idx - 80), idx)
      .split(/[.!?;。！？]\s/)
      .pop() ?? '';
  const last = [...before.matchAll(NEGATIONS)].pop();
  if (!last) return false;
  const between = before.slice(last.index + last[0].length);
  // "instead of" and "rather than" govern their object: the match is covered only as that object ("instead of
  // ignoring …"), not after it ("instead of asking disregard …", "rather than asking the user ignore …").
  if (OBJECT_NEGATION_RE.test(last[0]) && !/^\s*(?:\w+ly\s+){0,2}$/i.test(between)) return false;
  const clause = between.replace(/^\s*,.*,/, ' ');
  return (
    !NEGATION_CANCEL_RE.test(between) &&
    !CLAUSE_BREAK_RE.test(clause) &&
    clause.split(/\s+/).filter(Boolean).length <= NEGATION_REACH
  );
}
const NEGATIONS = new RegExp(NEGATION_RE.source, 'gi');
const OBJECT_NEGATION_RE = /^(?:instead of|rather than)$/i;

/** A rule's next match at or after `from` (rule regexes are not global: a global copy is made once per rule). */
function matchFrom(re: RegExp, text: string, from: number): RegExpExecArray | null {
  let again = AGAIN.get(re);
  if (!again) AGAIN.set(re, (again = new RegExp(re.source, re.flags.replace('g', '') + 'g')));
  again.lastIndex = from;
  return again.exec(text);
}
const AGAIN = new Map<RegExp, RegExp>();

/** A P0 phrase quoted or discussed, not said (a security doc listing attack phrases): P1. */
function mentioned(seg: Segment, text: string, index: number): boolean {
  const around = normalizeLine(seg.around).text;
  const pre = text.slice(Math.max(0, index - 2), index);
  const quoted =
    seg.quoted ||
    /["“'‘`「『]\s*$/.test(pre) ||
    /^\s*\|/.test(seg.around) ||
    seg.ctx === 'example' ||
    seg.ctx === 'inline';
  return quoted || MENTION_RE.test(around.replace(/\b(?:https?:\/\/|www\.)\S+/g, ' '));
}

/** Rule families about commands and code: judged on code spans on their own, not again in the sentence around them. */
const COMMAND_FAMILIES = new Set<Family>([
  'destructive',
  'privilege',
  'code-execution',
  'obfuscation',
  'network',
  'install',
]);
/** The hint automaton over the whole rule book, and the scratch mask of one matchRules call (never re-entered). */
const HINTS = hintScanner(RULES);
const HINTED = HINTS.mask();
/** The text last scanned: whether it holds any hint (`mask`: which) and any CJK character. */
const scanned = { text: '', any: false, cjk: false, mask: HINTS.mask() };
/** No rule's hint (nor a side of a hint pair) holds a ';' (see judgePlaced). */
const NO_SEMICOLON_HINT = RULES.every((r) =>
  [...r.hints, ...(r.hintPair?.flat() ?? [])].every((h) => !h.includes(';')),
);

/**
 * Whether a text holds any rule's hint, its hints left in `scanned.mask` and whether it has CJK in `scanned.cjk` (the text
 * last scanned is not scanned again).
 */
function scanHints(text: string): boolean {
  if (text !== scanned.text) {
    scanned.any = HINTS.scan(text, scanned.mask);
    scanned.cjk = CJK_RE.test(text);
    scanned.text = text;
  }
  return scanned.any;
}

/** Whether a text holds the hint of one of `rules` (scanned as matchRules scans it). */
function hinted(text: string, rules: RuleMask): boolean {
  if (!scanHints(text)) return false;
  for (let w = 0; w < rules.length; w++) if ((scanned.mask[w]! & rules[w]!) !== 0) return true;
  return false;
}
/** A set of rules as a mask over RULES. */
function maskOf(keep: (r: AuditRule) => boolean): RuleMask {
  const m = HINTS.mask();
  RULES.forEach((r, i) => {
    if (keep(r)) m[i >> 5]! |= 1 << (i & 31);
  });
  return m;
}
/** The rules with Chinese forms (AuditRule.zh), tried on any text with CJK characters. */
const ZH_RULES = maskOf((r) => r.zh !== undefined);

/** Verbs that put a command in front of the agent to run (`Run \`…\``, `First, execute …`; also in Chinese, Japanese, Korean). */
const RUN_RE =
  /\b(?:run|runs|running|execute|exec|type|paste|enter|invoke|launch|start|call|install|then|first|next|now|always|please)\b|[:：]\s*$|运行|执行|输入|粘贴|启动|安装|然后|首先|接着|现在|总是|务必|请|実行|入力|貼り付け|起動|インストール|してください|실행|입력|설치|하세요/i;
/**
 * Words that show a code span is quoted as something to look for, not a step to take. In Chinese, Japanese and Korean
 * only the words for danger, risk and vulnerability count: their everyday "check" (检查, チェック, 점검) also means "use
 * this to check" and would hide a command.
 */
const CHECK_RE =
  /\b(?:dangerous|danger|risky|risk|unsafe|insecure|harmful|forbidden|banned|bad|wrong|anti-?patterns?|smells?|grep for|search for|look (?:out )?for|looks for|scan for|watch (?:out )?for|audit|review|checklist|flag|flags|flagged|detect\w*|catch(?:es)?|report(?:s|ed)?|warn(?:s|ing)? (?:about|on)|never|avoid|instead of|rather than|don't|do not|injection|vulnerab\w*|cve|exploit\w*|sinks?|red flags?|suspicious|malicious|indicators?|signs? of|mistakes?|pitfalls?)\b|^\s*[-*+]\s+\[[ xX]\]|危险|风险|不安全|漏洞|恶意|可疑|危険|脆弱性|위험|취약/i;

/**
 * A code span quoted in a sentence as something to look for (a security checklist: "Flag \`eval(\` on user input",
 * "- [ ] Dangerous: \`rm -rf /\`"), with no verb telling the agent to run it in the same clause.
 */
function quotedAsCheck(seg: Segment, span: string): boolean {
  const line = lineFacts(seg.around);
  const idx = Math.max(0, line.text.indexOf(span.slice(0, 20)));
  const from = Math.max(0, idx - 200);
  const clause =
    line.text
      .slice(from, idx)
      .split(/[.!?;。！？]\s/)
      .pop() ?? '';
  if (RUN_RE.test(clause)) return false;
  // The words that make it a check are the prose's: a command cannot vouch for itself (`curl …/audit.sh | sh`).
  const prose =
    line.prose
      .slice(from, idx)
      .split(/[.!?;。！？]\s/)
      .pop() ?? '';
  return seg.listedAsCheck === true || CHECK_RE.test(actionOf(prose)) || line.checkNoRun || line.tableRow;
}

/**
 * A sentence without its leading condition: "If something goes wrong, clean up with …" is an action, the "wrong" in
 * its condition does not make what follows something to look for.
 */
const CONDITION_RE =
  /(^|[.!?;。！？]\s+|^\s*(?:[-*+]|\d+[.)])\s+)(?:if|when|whenever|in case|once|after|unless|should)\b[^,，.!?;]*[,，]/gi;
function actionOf(text: string): string {
  return text.replace(CONDITION_RE, '$1');
}

/** What quotedAsCheck needs of a line, worked out once per line (a line can hold thousands of code spans). */
let lastFacts: { around: string; text: string; prose: string; checkNoRun: boolean; tableRow: boolean } | undefined;
function lineFacts(around: string): { text: string; prose: string; checkNoRun: boolean; tableRow: boolean } {
  if (lastFacts?.around !== around) {
    const text = normalizeLine(around).text;
    // Code spans blanked to the same length, so a position in `text` is the same one in `prose`.
    const prose = withoutCodeSpans(text);
    lastFacts = {
      around,
      text,
      prose,
      checkNoRun: CHECK_RE.test(actionOf(prose)) && !RUN_RE.test(text),
      tableRow: /^\s*\|/.test(around),
    };
  }
  return lastFacts;
}

/** Code spans blanked out of a prose line (their own inline segments judge them as code). */
function withoutCodeSpans(text: string): string {
  return text.includes('`') ? text.replace(/(`+)([^`]+?)\1/g, (m) => ' '.repeat(m.length)) : text;
}

/** A run verb before a command in prose (`run sudo …`, `execute: curl …`) marks where the command starts. */
function commandStarts(text: string): string {
  return text.replace(/\b(?:run|execute|exec|type|paste|enter|invoke|then|first|and)\b\s*:?\s+/gi, '; ');
}

/** The program inside `python3 -c "…"`, `node -e '…'`, `perl -e …`, `ruby -e …`, `php -r …`, `deno eval …`. */
const INLINE_PROGRAM_RE =
  /\b(python[\d.]*|node(?:js)?|perl|ruby|php|bun|deno\s+eval|osascript)\s+(?:-[\w-]{1,20}\s+){0,4}?(?:(?:-c|-e|-E|-r|-p|--eval|--print|--command)\s+|(?<=eval\s+))(?:"((?:[^"\\\n]|\\.){0,4000})"|'([^'\n]{0,4000})'|\$'((?:[^'\\\n]|\\.){0,4000})')/g;

/**
 * What inlinePrograms() needs in a line before it reads one: an interpreter's name then whitespace. `python[\d.]*\s`
 * as strings: `python ` , then one digit or dot and whitespace, or two digits or dots (so `#!/usr/bin/env python3`
 * at a line's end is not one).
 */
const PY_VERSION = [...'0123456789.'];
const INLINE_PROGRAM_HINTS = [
  'python ',
  ...PY_VERSION.map((d) => `python${d} `),
  ...PY_VERSION.flatMap((d) => PY_VERSION.map((e) => `python${d}${e}`)),
  'node ',
  'nodejs ',
  'perl ',
  'ruby ',
  'php ',
  'bun ',
  'deno ',
  'osascript ',
];

/** Rules also run on prose with its code spans blanked out (judgeProse): commands, where prose is a context of theirs. */
const MASKED_RULE = (r: AuditRule): boolean =>
  COMMAND_FAMILIES.has(r.family) && (r.contexts.includes('prose') || r.weak?.includes('prose') === true);

/**
 * The line prefilter: a line with none of the rules' hints, nothing a rewrite acts on (string splitting, escapes,
 * inline programs), no base64 run, no NUL and no character outside ASCII gives no finding, and is not read further.
 * A backslash (a shell line continued onto the next) and an HTML comment's start make a line loud too: what they do
 * reaches past their line, so a file whose every line is quiet holds neither (nor a NUL byte) and is not decoded.
 */
const LINE_TRIGGERS = [...REWRITE_TRIGGERS, ...INLINE_PROGRAM_HINTS, '\\', '<!--'];
/** Built at the first audit, not at load: a process that audits nothing (a start with only built-in skills) never pays for it. */
let lineFilterBuilt: LineFilter | undefined;
const prefilter = (): LineFilter => (lineFilterBuilt ??= lineFilter(RULES, LINE_TRIGGERS, MASKED_RULE));

const NO_PROGRAMS: readonly { interpreter: string; code: string }[] = Object.freeze([]);

function inlinePrograms(text: string): readonly { interpreter: string; code: string }[] {
  if (!/\b(?:python|node|perl|ruby|php|bun|deno|osascript)/.test(text)) return NO_PROGRAMS;
  const out: { interpreter: string; code: string }[] = [];
  for (const m of text.matchAll(INLINE_PROGRAM_RE)) {
    const code = (m[2] ?? m[3] ?? m[4] ?? '').replace(/\\(["\\$`])/g, '$1');
    if (code.trim()) out.push({ interpreter: m[1]!.split(/\s/)[0]!, code });
  }
  return out;
}

/** The rules judge() runs on a segment: all, the ones about words, the ones about commands (each still needs a hint). */
interface RuleSet {
  all: RuleMask;
  text: RuleMask;
  command: RuleMask;
}
const EVERY_RULE: RuleSet = {
  all: maskOf(() => true),
  text: maskOf((r) => !COMMAND_FAMILIES.has(r.family)),
  command: maskOf((r) => COMMAND_FAMILIES.has(r.family)),
};

/** One segment's hits: code spans, prose, hidden placements and inline programs each judged as what they are. */
function judge(seg: Segment, text: string, rules: RuleSet = EVERY_RULE): Hit[] {
  if (seg.placement) return judgePlaced(seg, seg.placement, text, rules);
  let hits: Hit[];
  if (seg.ctx === 'prose') hits = judgeProse(seg, text, rules);
  else {
    hits = matchRules(seg, text, rules.all);
    // A code span quoted as something to look for: its commands are asked about when they would be refused, else let
    // through. The words that make it a check could be a cover ("Don't worry, `curl … | sh` sets it up").
    if (seg.ctx === 'inline' && hasCommandHit(hits) && quotedAsCheck(seg, text)) askQuotedCommands(hits);
  }
  if (seg.ctx === 'shell' || seg.ctx === 'script' || seg.ctx === 'inline' || seg.ctx === 'example') {
    const programs = inlinePrograms(text);
    if (programs.length) inlineProgramHits(seg, text, programs, hits);
  }
  return hits;
}

/** Whether a command rule is among the hits. */
function hasCommandHit(hits: Hit[]): boolean {
  for (let k = 0; k < hits.length; k++) if (COMMAND_FAMILIES.has(hits[k]!.rule.family)) return true;
  return false;
}

/** The hits with the command rules' quoted as checks (in place): see askedAsQuoted. */
function askQuotedCommands(hits: Hit[]): void {
  let n = 0;
  for (let k = 0; k < hits.length; k++) {
    const h = hits[k]!;
    if (!COMMAND_FAMILIES.has(h.rule.family) || askedAsQuoted(h)) hits[n++] = h;
  }
  hits.length = n;
}

/**
 * A command quoted as something to look for: one that would be refused is asked about (P1, with why), the others are
 * let through. Whether a sentence lists a command or tells the agent to run it is a reading of prose, which a hostile
 * skill can word to fool; so the reading may lower a refusal to a question, never to nothing.
 */
function askedAsQuoted(h: Hit): boolean {
  if (h.lowered) return true;
  if (h.level !== 'P0') return false;
  h.level = 'P1';
  h.note = say('auditNote.quoted');
  h.lowered = true;
  return true;
}

/** What the user never sees rendered: the words as instructions, and the commands in them as commands to run. */
function judgePlaced(seg: Segment, placement: Placement, text: string, rules: RuleSet): Hit[] {
  const note = PLACEMENT_NOTE[placement];
  // Each call's hits are its own: noted in place.
  const hits = matchRules(seg, text, rules.text, true);
  for (let k = 0; k < hits.length; k++) hits[k]!.note = note;
  // commandStarts puts '; ' where a run verb was: all cmd holds that the text does not spans it, so holds a ';', which
  // no hint does. Without a command rule's hint in the text, the commands' reading finds nothing.
  if (NO_SEMICOLON_HINT && !hinted(text, rules.command)) return hits;
  const cmd = commandStarts(text);
  const commands = matchRules(recast(seg, 'shell'), cmd, rules.command, true);
  for (let k = 0; k < commands.length; k++) {
    const h = commands[k]!;
    if (quotedAsCheck(recast(seg, seg.ctx, cmd), cmd.slice(h.index, h.index + 20)) && !askedAsQuoted(h)) continue;
    h.note = h.note ? say('listAnd', { a: note, b: h.note }) : note;
    hits.push(h);
  }
  return hits;
}

/** Commands in running prose (at most P1): not when the sentence lists them as things to look for. */
function judgeProse(seg: Segment, text: string, rules: RuleSet): Hit[] {
  const masked = withoutCodeSpans(text);
  const hits = matchRules(seg, text, rules.text);
  const commands = matchRules(seg, masked, rules.command);
  for (let k = 0; k < commands.length; k++) {
    const h = commands[k]!;
    if (!quotedAsCheck(recast(seg, seg.ctx, masked), masked.slice(h.index, h.index + 20))) hits.push(h);
  }
  return hits;
}

/** The programs run inline by a code segment (`python3 -c "…"`), judged as scripts (examples stay examples). */
function inlineProgramHits(
  seg: Segment,
  text: string,
  programs: readonly { interpreter: string; code: string }[],
  hits: Hit[],
): void {
  for (const p of programs) {
    const ctx: Context = seg.ctx === 'example' ? 'example' : 'script';
    const found = matchRules(recast(seg, ctx), normalizeLine(deobfuscate(p.code)).text);
    for (let k = 0; k < found.length; k++) {
      const h = found[k]!;
      if (ctx === 'script') h.level = h.rule.inlineProgram ?? h.level;
      if (seg.ctx === 'inline' && quotedAsCheck(seg, text) && !askedAsQuoted(h)) continue;
      h.note ??= say('noteInlineProgram', { interpreter: p.interpreter });
      hits.push(h);
    }
  }
}

const WINDOW = 4096;
const OVERLAP = 512;

/** A long line as overlapping windows (a match up to OVERLAP characters long is never cut). */
function windows(text: string): string[] {
  if (text.length <= WINDOW) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += WINDOW - OVERLAP) {
    out.push(text.slice(i, i + WINDOW));
    if (i + WINDOW >= text.length) break;
  }
  return out;
}

export interface TextAudit {
  findings: Finding[];
  hidden: { line: number; hidden: HiddenText }[];
}

export interface TextAuditOptions {
  /** SKILL.md's frontmatter description and its line: judged as text placed in every prompt. */
  description?: { text: string; line: number };
  /** No line prefilter: every line is read (tests compare the two readings). */
  everyLine?: boolean;
  /** The quiet lines, already found from the file's bytes (quietBytes); must have one flag per line. */
  quiet?: Uint8Array;
}

/** Quiet lines of a file's UTF-8 bytes, or of its lines (see LineFilter). */
export function quietLinesOf(buf: Uint8Array | readonly string[]): Uint8Array {
  return buf instanceof Uint8Array ? prefilter().quietBytes(buf) : prefilter().quiet(buf);
}

/** A text's lines, as `split(/\r?\n/)` gives them. */
function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
}

/** How many lines `splitLines` gives. */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Audit one file's text. `kind` picks how lines are read (Markdown or a script). */
export function auditText(
  file: string,
  text: string,
  kind: 'markdown' | 'shell' | 'script',
  opts: TextAuditOptions = {},
): TextAudit {
  return auditFileText(file, text, kind, opts.description, opts.everyLine === true, opts.quiet);
}

/** auditText with its options as arguments (auditFolder's way in: no options object per file). */
function auditFileText(
  file: string,
  text: string,
  kind: 'markdown' | 'shell' | 'script',
  description: { text: string; line: number } | undefined,
  everyLine: boolean,
  quietIn: Uint8Array | undefined,
): TextAudit {
  // A file whose every line is quiet (so with no HTML comment and no line continued by a backslash: see LINE_TRIGGERS)
  // gives no segment that could be read (see the skip below): its lines are not even split.
  const silent = !everyLine && quietIn !== undefined && quietIn.indexOf(0) === -1 && lineCount(text) === quietIn.length;
  // A script that is not a shell script reads each line on its own: only its loud lines are cut out of the text.
  const loud =
    !silent && !everyLine && quietIn !== undefined && kind === 'script' ? loudScriptSegments(text, quietIn) : undefined;
  const lines = silent || loud ? undefined : splitLines(text);
  const quiet = loud
    ? quietIn
    : everyLine || !lines
      ? undefined
      : quietIn?.length === lines.length
        ? quietIn
        : prefilter().quiet(lines);
  const segments =
    loud ??
    (!lines
      ? []
      : kind === 'markdown'
        ? markdownSegments(lines, quiet)
        : scriptSegments(lines, kind === 'shell', quiet));
  if (description?.text.trim()) {
    const d = description.text.replace(/\s+/g, ' ');
    segments.push(segment(d, 'prose', description.line, d, 'description'));
  }
  const acc: TextFindings = {
    file,
    findings: [],
    hidden: [],
    perRule: new Map(),
    seen: new Map(),
    hiddenLines: new Set(),
  };
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    // A segment that is (part of) one quiet line holds nothing to find; joined lines and placements are always read.
    if (quiet?.[seg.line - 1] && !seg.joined && !seg.placement) continue;
    readSegment(acc, seg);
  }
  return acc.findings.length || acc.hidden.length
    ? fileFindings(acc, text, lines)
    : { findings: acc.findings, hidden: acc.hidden };
}

/**
 * One file's findings as they are found. One finding per rule and line: a line is seen more than once (the prose
 * line, then its inline code span), and the most severe reading wins, so `run \`curl … | sh\`` in a sentence is
 * judged as the command it is.
 */
interface TextFindings {
  readonly file: string;
  readonly findings: Finding[];
  readonly hidden: TextAudit['hidden'];
  readonly perRule: Map<string, number>;
  readonly seen: Map<string, Finding>;
  readonly hiddenLines: Set<number>;
}

function addFinding(acc: TextFindings, f: Finding): void {
  const key = `${f.rule}:${f.line}`;
  const had = acc.seen.get(key);
  if (had) {
    if (had.level === 'P1' && f.level === 'P0') Object.assign(had, f);
    return;
  }
  const n = acc.perRule.get(f.rule) ?? 0;
  if (n >= LIMITS.maxPerRule) return;
  acc.perRule.set(f.rule, n + 1);
  acc.seen.set(key, f);
  acc.findings.push(f);
}

/** Names of child_process that start a program with an argument list, not a shell command line. */
const ARGV_NAMES = String.raw`(?:execFile|execFileSync|spawn|spawnSync|fork)(?:\s+as\s+\w+|\s*:\s*\w+)?`;
/**
 * A line that imports only those names (`import { execFile } from 'node:child_process'`, `const { spawn } =
 * require('child_process')`): the script starts programs it names, as Python's subprocess does (P1), not command lines
 * through a shell (`exec`, `execSync`, a whole-module import: P0).
 */
const ARGV_IMPORT_RE = new RegExp(
  String.raw`^\s*(?:import\s*\{\s*(?:${ARGV_NAMES}\s*,\s*)*${ARGV_NAMES}\s*,?\s*\}\s*from\s*|(?:const|let|var)\s*\{\s*(?:${ARGV_NAMES}\s*,\s*)*${ARGV_NAMES}\s*,?\s*\}\s*=\s*require\s*\(\s*)['"](?:node:)?child_process['"]\s*\)?\s*;?\s*$`,
);

/**
 * An inline code span that is one file, branch or URL name with a command substitution inside it, after the name's
 * start (`x$(…).yml`, `https://host/repo$(…)`): the name shown as data, as a skill that audits for injection describes
 * the attack, not a command line. Nothing outside the substitution may be a separate word, so a span with a command
 * before the name (`cat x$(…).yml`) is not one, and nor is a span that starts with the substitution; a clause that runs
 * it ("run `./x$(…)`") keeps the refusal.
 */
const NAME_CARRIES_COMMAND_RE = /^[^\s$`()]+\$\([^()`]*\)[^\s`]*$/;

/** Python's os.exec*() and os.spawn*() called on `os` itself: a program and its argument list, as subprocess runs them. */
const OS_EXEC_ARGV_RE = /^os\s*\.\s*(?:exec|spawn)[lv]p?e?\s*\(/;

/**
 * Families whose P0 in a code span handed to the user (an installer piped to a shell, a `sudo` step) is a P1 finding:
 * the person installing sees it, the command runs in their terminal if they choose. Deleting a home folder or running
 * hidden code stays a refusal however it is introduced.
 */
const HANDED_FAMILIES: ReadonlySet<Family> = new Set<Family>(['code-execution', 'privilege']);

/** One segment: its hidden characters, its text in windows, and any base64 blob in it. */
function readSegment(acc: TextFindings, seg: Segment): void {
  const norm = normalizeLine(seg.text);
  if (norm.hidden && !acc.hiddenLines.has(seg.line)) hiddenInSegment(acc, seg, norm.hidden);
  const nt = norm.text;
  if (!nt) return;
  // Very long lines are scanned in overlapping windows so no pattern can go quadratic on them.
  if (nt.length <= WINDOW) readWindow(acc, seg, nt);
  else {
    for (let at = 0; ; at += WINDOW - OVERLAP) {
      readWindow(acc, seg, nt.slice(at, at + WINDOW));
      if (at + WINDOW >= nt.length) break;
    }
  }
  const blobs = decodeBase64Blobs(nt);
  if (blobs.length) base64InSegment(acc, seg, blobs);
}

/** Hidden characters on a segment's line: counted for the file's finding, and what tag characters spell, judged. */
function hiddenInSegment(acc: TextFindings, seg: Segment, hidden: HiddenText): void {
  acc.hiddenLines.add(seg.line);
  acc.hidden.push({ line: seg.line, hidden });
  if (hidden.decodedTags.replace(/[^A-Za-z0-9 ]/g, '').length >= 8) {
    addFinding(acc, {
      file: acc.file,
      line: seg.line,
      rule: 'hidden.ascii-smuggling',
      family: 'hidden-text',
      level: 'P0',
      excerpt: excerptOf(hidden.decodedTags),
      ...said(say('audit.hidden.ascii-smuggling')),
    });
  }
  if (hidden.decodedTags) {
    for (const h of matchRules(recast(seg, 'prose', ''), normalizeLine(hidden.decodedTags).text)) {
      addFinding(acc, {
        file: acc.file,
        line: seg.line,
        rule: `hidden.${h.rule.id}`,
        family: 'hidden-text',
        level: h.rule.level,
        excerpt: excerptOf(hidden.decodedTags),
        ...said(say('auditTagText', { what: h.rule.words })),
      });
    }
  }
}

/** One window of a segment's normalised text: judged as it is, and code judged again once de-obfuscated. */
function readWindow(acc: TextFindings, seg: Segment, t: string): void {
  const hits = judge(seg, t);
  for (let k = 0; k < hits.length; k++) {
    const h = hits[k]!;
    const handed = seg.handed && h.level === 'P0' && HANDED_FAMILIES.has(h.rule.family);
    const printed = seg.printed && h.level === 'P0' && DOC_ONLY_FAMILIES.has(h.rule.family);
    const named = seg.named && h.level === 'P0' && h.rule.family === 'code-execution';
    const argv =
      h.level === 'P0' &&
      seg.ctx === 'script' &&
      ((h.rule.id === 'exec.child-process' && ARGV_IMPORT_RE.test(t)) ||
        (h.rule.id === 'exec.os-system' && OS_EXEC_ARGV_RE.test(t.slice(h.index))));
    const finding: Finding = {
      file: acc.file,
      line: seg.line,
      rule: h.rule.id,
      family: h.rule.family,
      level: handed || printed || argv || named ? 'P1' : h.level,
      excerpt: excerptOf(t, h.index),
      ...said(h.note ? say('auditNoted', { what: h.rule.words, note: h.note }) : h.rule.words),
    };
    if (handed) noted(finding, 'auditNote.handed');
    else if (printed) noted(finding, 'auditNote.printed');
    else if (argv) noted(finding, 'auditNote.argv');
    else if (named) noted(finding, 'auditNote.named');
    addFinding(acc, finding);
  }
  if (seg.ctx === 'script' || seg.ctx === 'shell' || seg.ctx === 'example' || seg.ctx === 'inline') {
    const d = deobfuscate(t);
    if (d !== t && (seg.ctx !== 'inline' || !quotedAsCheck(seg, t))) deobfuscatedWindow(acc, seg, t, d, hits);
  }
}

/** Whether one of the hits is of `rule`. */
function hitsRule(hits: readonly Hit[], rule: AuditRule): boolean {
  for (let k = 0; k < hits.length; k++) if (hits[k]!.rule === rule) return true;
  return false;
}

function deobfuscatedWindow(acc: TextFindings, seg: Segment, t: string, d: string, hits: readonly Hit[]): void {
  for (const h of matchRules(seg, normalizeLine(d).text)) {
    if (hitsRule(hits, h.rule) || h.rule.family === 'network' || h.rule.family === 'install') continue;
    addFinding(acc, {
      file: acc.file,
      line: seg.line,
      rule: `obfuscation.${h.rule.id}`,
      family: 'obfuscation',
      level: seg.ctx === 'example' ? h.level : h.rule.level,
      excerpt: excerptOf(t),
      ...said(say('auditObfuscated', { what: h.rule.words })),
    });
  }
}

function base64InSegment(acc: TextFindings, seg: Segment, blobs: readonly string[]): void {
  for (const decoded of blobs) {
    const dn = normalizeLine(decoded.replace(/\r?\n/g, ' ; ')).text;
    const hs: Hit[] = [];
    for (const w of windows(dn)) {
      for (const h of matchRules(recast(seg, 'shell', ''), deobfuscate(w))) hs.push(h);
      for (const h of matchRules(recast(seg, 'prose', ''), w)) hs.push(h);
    }
    for (const h of hs) {
      addFinding(acc, {
        file: acc.file,
        line: seg.line,
        rule: `obfuscation.base64.${h.rule.id}`,
        family: 'obfuscation',
        level: h.rule.level,
        excerpt: excerptOf(dn),
        ...said(say('auditBase64', { what: h.rule.words })),
      });
    }
  }
}

const SENSITIVE_READS = new RegExp(RULES.find((r) => r.id === 'exfil.sensitive-read')!.re.source, 'gi');
/**
 * What every URL holds: a scheme, `://`, and `//` before a dotted host; each must belong to an https URL written out
 * whole with its host (HTTPS_HOSTS), up to where its path or the string ends. A URL glued from parts leaves one over.
 */
const URL_PARTS = [/\b(?:https?|wss?|ftps?):/gi, /:\/\//g, /\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi];
const HTTPS_HOSTS = /\bhttps:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?=[/?#"'`\s]|$)/gi;

/**
 * The hosts a script sends its credentials to, when each goes to its own service (OWN_SERVICE_CREDENTIALS), else
 * undefined. Every secret the file reads must be such a credential (a key file or any other secret: undefined), every
 * URL in the file must be an https URL written out whole with one of their hosts (a host the code builds or glues
 * together, plain http, another scheme: undefined), and the file must use no channel that names no URL. A script can
 * still make an address out of code the audit cannot read: where it connects is the sandbox's to allow (the hosts of
 * the skill's reviewed permissions), and the finding stays, for the user to approve.
 */
function ownServiceHosts(text: string): string[] | undefined {
  const allowed: string[] = [];
  for (const m of text.matchAll(SENSITIVE_READS)) {
    const service = OWN_SERVICE_CREDENTIALS.find((c) => c.name.test(m[0]));
    if (!service) return undefined;
    allowed.push(...service.hosts);
  }
  if (GH_TOKEN_READ.re.test(text)) allowed.push(...GH_TOKEN_READ.hosts);
  if (!allowed.length || URLLESS_CHANNEL_RE.test(text)) return undefined;
  const urls = [...text.matchAll(HTTPS_HOSTS)];
  if (!urls.length || URL_PARTS.some((re) => (text.match(re)?.length ?? 0) !== urls.length)) return undefined;
  const hosts = new Set<string>();
  for (const u of urls) {
    const host = u[1]!.toLowerCase();
    if (!allowed.some((d) => host === d || host.endsWith(`.${d}`))) return undefined;
    hosts.add(host);
  }
  return [...hosts].sort();
}

/** What is judged of a file as a whole once its segments are read: secret URLs, reads sent out, hidden text. */
function fileFindings(acc: TextFindings, text: string, split: string[] | undefined): TextAudit {
  const { file, findings, hidden } = acc;
  let lines = split;
  const add = (f: Finding): void => addFinding(acc, f);
  // A URL filled with secrets is reported once, as that (not also as the milder "filled with data").
  const secretUrl = new Set(findings.filter((f) => f.rule === 'exfil.url-secret').map((f) => f.line));
  if (secretUrl.size) {
    for (let i = findings.length - 1; i >= 0; i--)
      if (findings[i]!.rule === 'exfil.url-data' && secretUrl.has(findings[i]!.line)) findings.splice(i, 1);
  }
  // Exfiltration: reading secrets and sending data in the same file is refused.
  const reads = findings.filter((f) => f.rule === 'exfil.sensitive-read');
  const sends = findings.filter(
    (f) =>
      f.rule === 'exfil.network-send' ||
      f.rule === 'network.curl' ||
      f.rule === 'network.wget' ||
      f.rule === 'network.script-request',
  );
  if (reads.length && sends.length) {
    const s = sends[0]!;
    const what = say('audit.exfil.credential-send', { line: reads[0]!.line });
    const own = ownServiceHosts(text);
    add({
      file,
      line: s.line,
      rule: 'exfil.credential-send',
      family: 'exfiltration',
      level: own ? 'P1' : 'P0',
      excerpt: s.excerpt,
      ...said(own ? say('auditNoted', { what, note: say('auditNote.ownService', { hosts: own.join(', ') }) }) : what),
    });
  }
  if (hidden.length) {
    const invisible = hidden.filter((h) => h.hidden.zeroWidth + h.hidden.bidi + h.hidden.tags > 0);
    if (invisible.length) {
      const kinds = listWords([
        ...(invisible.some((h) => h.hidden.zeroWidth) ? [say('invisibleZeroWidth')] : []),
        ...(invisible.some((h) => h.hidden.bidi) ? [say('invisibleBidi')] : []),
        ...(invisible.some((h) => h.hidden.tags) ? [say('invisibleTag')] : []),
      ]);
      const first = invisible[0]!;
      const total = invisible.reduce((n, h) => n + h.hidden.zeroWidth + h.hidden.bidi + h.hidden.tags, 0);
      findings.push({
        file,
        line: first.line,
        rule: invisible.some((h) => h.hidden.bidi)
          ? 'hidden.bidi'
          : invisible.some((h) => h.hidden.tags)
            ? 'hidden.tags'
            : 'hidden.zero-width',
        family: 'hidden-text',
        level: 'P1',
        excerpt: excerptOf(normalizeLine((lines ??= splitLines(text))[first.line - 1] ?? '').text),
        ...said(say('auditInvisible', { total, kinds, lines: invisible.length })),
      });
    }
    const lookalike = hidden.filter((h) => (h.hidden.homoglyphs ?? 0) > 0);
    if (lookalike.length) {
      const first = lookalike[0]!;
      findings.push({
        file,
        line: first.line,
        rule: 'hidden.homoglyphs',
        family: 'hidden-text',
        level: 'P1',
        excerpt: excerptOf((lines ??= splitLines(text))[first.line - 1] ?? ''),
        ...said(
          say('audit.hidden.homoglyphs', {
            letters: lookalike.reduce((n, h) => n + (h.hidden.homoglyphs ?? 0), 0),
            lines: lookalike.length,
          }),
        ),
      });
    }
  }
  return { findings, hidden };
}

/** How a file's lines are read: by its name, else by a shell's shebang in its first 200 characters. */
export function kindOf(rel: string, text: string): 'markdown' | 'shell' | 'script' {
  const base = baseName(rel);
  const ext = extOf(base).toLowerCase();
  if (MARKDOWN_EXT.has(ext) || /^(readme|license|licence|changelog|notice|authors)$/i.test(base)) return 'markdown';
  if (SHELL_EXT.has(ext)) return 'shell';
  if (
    text.charCodeAt(0) === 0x23 &&
    text.charCodeAt(1) === 0x21 &&
    /^#!.*\b(?:ba|z|da|k|fi)?sh\b/.test(text.slice(0, 200))
  )
    return 'shell';
  return 'script';
}

/** path.basename of a listed file's "/"-separated path (the path module's own when it holds a backslash, as on Windows). */
export function baseName(rel: string): string {
  return rel.includes('\\') ? basename(rel) : rel.slice(rel.lastIndexOf('/') + 1);
}

/** path.extname of a file name: from its last dot, unless that is its first character, or the name is `..`. */
export function extOf(base: string): string {
  const dot = base.lastIndexOf('.');
  return dot <= 0 || base === '..' ? '' : base.slice(dot);
}

export interface AuditOptions {
  /** Permissions of the installed version, or its folder: a widening makes the audit at least P1. */
  previous?: Permissions | string;
  /**
   * The manifest discovery read from this folder's SKILL.md: its frontmatter facts and permission request are used
   * instead of parsing the YAML again — only while the frontmatter text is the one they were read from (else it is read now).
   */
  parsed?: ParsedManifest;
  /** No line prefilter: every line of every file is read (tests hold the prefiltered audit to it). */
  everyLine?: boolean;
}

/**
 * SKILL.md's frontmatter as the audit reads it: `errors` when it cannot be read, else its facts and permission
 * request (and discovery's description). Every read has every field, made in one place: one shape, whichever way.
 */
interface FrontmatterRead {
  errors: { line?: number; message: string }[] | undefined;
  facts: FrontmatterFacts | undefined;
  requested: ParsedPermissions | undefined;
  description: string | undefined;
}
function frontmatterRead(
  errors: FrontmatterRead['errors'],
  facts: FrontmatterFacts | undefined,
  requested: ParsedPermissions | undefined,
  description: string | undefined,
): FrontmatterRead {
  return { errors, facts, requested, description };
}

/** SKILL.md's frontmatter facts and permission request: discovery's when `parsed` came from this same text, else read now. */
function frontmatterOf(text: string, file: string, parsed?: ParsedManifest): FrontmatterRead {
  if (parsed?.frontmatter) {
    const split = splitFrontmatter(text, file);
    if (split.ok && sha256Hex(split.frontmatter) === parsed.frontmatter.sha256) {
      // Discovery's diagnostics, naming this file (copied: the parse is discovery's); each keeps its fields' order.
      const from = parsed.requested.diagnostics;
      const diagnostics: Diagnostic[] = [];
      for (let k = 0; k < from.length; k++) diagnostics.push({ ...from[k]!, file });
      return frontmatterRead(
        undefined,
        parsed.frontmatter,
        permissionRequest(parsed.requested.permissions, diagnostics),
        parsed.description,
      );
    }
  }
  const fm = readFrontmatterText(text, file);
  if (!fm.data) return frontmatterRead(fm.errors, undefined, undefined, undefined);
  const requested = readPermissionRequest(fm.data, file, fm.lineOf);
  return frontmatterRead(
    undefined,
    frontmatterFacts(fm.text ?? '', fm.data, fm.lineOf),
    permissionRequest(requested.permissions, requested.diagnostics),
    undefined,
  );
}

/** A permission request in one shape (`permissions` always a field, undefined when the manifest was rejected). */
function permissionRequest(permissions: Permissions | undefined, diagnostics: Diagnostic[]): ParsedPermissions {
  return { permissions, diagnostics };
}

/**
 * One file's line in a folder's (path, size, mtime, ctime, link) fingerprint: fingerprintNow (tree.ts) hashes them
 * from a listing or a stored tree (tree.ts) and auditFolder from its own reading, and they must agree for a stored
 * report to be found again. The change time is in it because no program can set it back: a script rewritten at the
 * same size with its mtime put back (`touch -r`) is audited again.
 */
export function fingerprintLine(
  f: Pick<FileEntry, 'rel' | 'link'>,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
): string {
  return `${f.rel}\0${size}\0${mtimeMs}\0${ctimeMs}\0${f.link ?? ''}\n`;
}

/**
 * What a walk saw of a skill folder, in the form a later open checks with one stat per folder and per file: every
 * folder's stamp, and its regular files in fingerprint order. Given only when it can vouch for the fingerprint: no
 * link, nothing unreadable, not cut short (tree.ts).
 */
export interface FolderTree {
  dirs: DirStamp[];
  /** Each file as fingerprinted: [path under the folder, size, mtimeMs, ctimeMs]. */
  files: FileStamp[];
  /** The fingerprint these stamps make (the tree vouches for it while every stamp is unchanged). */
  fingerprint: string;
}

/** A regular file of a FolderTree as it was fingerprinted: [path under the folder, size, mtimeMs, ctimeMs]. */
export type FileStamp = [string, number, number, number];

/** Audit a skill folder. Never throws for bad content: unreadable parts become findings. */
export function auditSkill(dir: string, opts: AuditOptions = {}): AuditReport {
  return auditFolder(dir, opts).report;
}

/**
 * Audit a skill folder, and give the (path, size, mtime, link) fingerprint of the files it read, as
 * fingerprintNow (tree.ts) would give it from a listing: the audit cache keys a stored report by it.
 */
export function auditFolder(
  dir: string,
  opts: AuditOptions = {},
): { report: AuditReport; fingerprint: string; tree?: FolderTree } {
  const dirs: DirStamp[] = [];
  const { files, truncated } = walkSkillFiles(dir, false, dirs);
  const skillFile = files.find((f) => f.rel === 'SKILL.md') ?? files.find((f) => f.rel === 'skill.md');
  const st: FolderAudit = {
    dir,
    opts,
    skillFile,
    fpText: '',
    tree: truncated ? undefined : { dirs, files: [], fingerprint: '' },
    findings: [],
    hash: createHash('sha256'),
    hashText: '',
    bytes: 0,
    unauditedBytes: 0,
    skill: basename(dir),
    permissions: undefined,
    frontmatterSha256: undefined,
    manifestDiagnostics: [],
  };
  if (truncated)
    st.findings.push({
      file: '.',
      line: 0,
      rule: 'structure.too-many-files',
      family: 'structure',
      level: 'P1',
      excerpt: '',
      ...said(say('audit.structure.too-many-files', { max: LIMITS.maxFiles })),
    });
  if (!skillFile)
    st.findings.push({
      file: 'SKILL.md',
      line: 0,
      rule: 'structure.no-skill-md',
      family: 'structure',
      level: 'P0',
      excerpt: '',
      ...said(say('audit.structure.no-skill-md')),
    });
  for (let k = 0; k < files.length; k++) auditListed(st, files[k]!);
  return folderResult(st, files.length);
}

/**
 * One folder's audit in progress (auditFolder), handed through its small steps: each step is a small function V8
 * optimises after a few folders, and the rare paths (links, unreadable or too large files, the manifest) stay out of
 * the hot ones.
 */
interface FolderAudit {
  readonly dir: string;
  readonly opts: AuditOptions;
  readonly skillFile: FileEntry | undefined;
  /** The fingerprint's lines; the content hash's text since the last file's bytes (each hashed in one update). */
  fpText: string;
  /** The tree of the fingerprint, while it can vouch for it (a link or an unreadable file drops it). */
  tree: FolderTree | undefined;
  readonly findings: Finding[];
  readonly hash: ReturnType<typeof createHash>;
  hashText: string;
  bytes: number;
  unauditedBytes: number;
  skill: string;
  permissions: Permissions | undefined;
  frontmatterSha256: string | undefined;
  readonly manifestDiagnostics: Diagnostic[];
}

/** One listed file: hashed, fingerprinted, read and audited (or reported as what stops that). */
function auditListed(st: FolderAudit, f: FileEntry): void {
  st.hashText += `${f.rel}\0`;
  if (f.link !== undefined && !linkToRead(st, f)) return;
  const read = readOrReport(st, f);
  if (read === undefined) return;
  if (f.link === undefined) {
    st.fpText += fingerprintLine(f, read.size, read.mtimeMs, read.ctimeMs);
    if (read.notFile) st.tree = undefined;
    else st.tree?.files.push([f.rel, read.size, read.mtimeMs, read.ctimeMs]);
  }
  if (read.notFile) {
    st.findings.push({
      file: f.rel,
      line: 0,
      rule: 'structure.unreadable',
      family: 'structure',
      level: 'P1',
      excerpt: '',
      ...said(say('auditNotRegular')),
    });
    return;
  }
  if (read.buf) auditBytes(st, f, read.buf);
  else notAudited(st, f, read.size);
}

/** A symlink's fingerprint and hash line, and whether its target is read (a regular file inside the folder). */
function linkToRead(st: FolderAudit, f: FileEntry): boolean {
  st.fpText += fingerprintLine(f, f.size, f.mtimeMs, f.ctimeMs ?? 0);
  st.tree = undefined;
  st.hashText += `link:${f.link}\0`;
  if (f.escapes) {
    st.findings.push({
      file: f.rel,
      line: 0,
      rule: 'structure.symlink-escape',
      family: 'structure',
      level: 'P0',
      excerpt: `-> ${f.link}`,
      ...said(say('audit.structure.symlink-escape')),
    });
    return false;
  }
  // Reading a FIFO or device would block forever; a linked folder is audited where it lives.
  return !f.special;
}

/** readListed, or undefined when the file cannot be read (reported, and fingerprinted as it is now). */
function readOrReport(st: FolderAudit, f: FileEntry): ReturnType<typeof readListed> | undefined {
  try {
    return readListed(f, LIMITS.maxTotalBytes - st.bytes);
  } catch (e) {
    if (f.link === undefined) {
      let s;
      try {
        s = lstatSync(f.abs);
      } catch {
        /* gone */
      }
      st.fpText += fingerprintLine(f, s?.size ?? -1, s?.mtimeMs ?? 0, s?.ctimeMs ?? 0);
    }
    st.tree = undefined;
    st.findings.push({
      file: f.rel,
      line: 0,
      rule: 'structure.unreadable',
      family: 'structure',
      level: 'P1',
      excerpt: '',
      ...said(say('auditCannotRead', { error: (e as Error).message })),
    });
    return undefined;
  }
}

/** A file too large to audit: hashed from disk when it can be (up to the bound), reported either way. */
function notAudited(st: FolderAudit, f: FileEntry, size: number): void {
  st.hashText += `size:${size}\0`;
  const tooLarge = (level: 'P0' | 'P1', words: Said) =>
    st.findings.push({
      file: f.rel,
      line: 0,
      rule: 'structure.too-large',
      family: 'structure',
      level,
      excerpt: '',
      ...said(words),
    });
  // The instructions that go to the model must be read to be judged: a SKILL.md too large to audit is refused.
  if (f === st.skillFile) {
    tooLarge('P0', say('auditSkillMdTooLarge', { size }));
    return;
  }
  // Not audited, but its bytes are in the content hash, so a trust given to this folder does not carry over to
  // other bytes of the same size; past the hashing bound the folder is refused rather than trusted blind.
  st.hash.update(st.hashText);
  st.hashText = '\0';
  const hashed = st.unauditedBytes + size <= LIMITS.maxUnauditedBytes ? hashFileInto(st.hash, f) : -1;
  if (hashed < 0) {
    tooLarge('P0', say('auditTooLargeToHash', { size }));
    return;
  }
  st.unauditedBytes += hashed;
  tooLarge('P1', say('auditTooLarge', { size }));
}

/** A read file's bytes: hashed, prefiltered, and (unless every line is quiet) decoded and audited. */
function auditBytes(st: FolderAudit, f: FileEntry, buf: Buffer): void {
  st.bytes += buf.length;
  st.hash.update(st.hashText);
  st.hash.update(buf);
  st.hashText = '\0';
  // Binary data (an image, a font, an archive) shows a NUL among its first bytes: judged from its start, before any
  // pass over all of it (what auditTextOf would say of it). A text file with NULs there keeps the text decoded here.
  let decoded: { text: string; nul: boolean } | undefined;
  if (!utf16Bom(buf) && buf.subarray(0, NUL_PROBE).includes(0)) {
    decoded = textWithNuls(buf);
    if (!decoded) {
      binaryExecutable(st, f, buf);
      return;
    }
  }
  // The quiet lines are found on the bytes, before any string work (not for UTF-16). A file whose every line is
  // quiet holds no NUL, no HTML comment and no backslash (see LINE_TRIGGERS): other than SKILL.md, it has nothing to
  // find (it is auditText's `silent` file: an LF byte is one in the text, so the flags are one per line) and is not decoded.
  const everyLine = st.opts.everyLine === true;
  let quiet =
    everyLine || buf.length === 0 || buf[0] === 0xff || buf[0] === 0xfe ? undefined : prefilter().quietBytes(buf);
  const silent = quiet !== undefined && quiet.indexOf(0) === -1;
  if (silent && f !== st.skillFile) return;
  // Executables always hold NUL bytes; a text file that merely starts with "MZ" is not one. With NUL bytes (dropped
  // from the text) every line is read.
  if (!silent && (decoded !== undefined || buf.includes(0))) {
    binaryExecutable(st, f, buf);
    quiet = undefined;
  }
  decoded ??= auditTextOf(buf);
  if (!decoded) return;
  const { text } = decoded;
  if (decoded.nul) {
    st.findings.push({
      file: f.rel,
      line: 1,
      rule: 'hidden.nul-bytes',
      family: 'hidden-text',
      level: 'P1',
      excerpt: '',
      ...said(say('audit.hidden.nul-bytes')),
    });
  }
  const description = f === st.skillFile ? readManifest(st, f, text) : undefined;
  const kind = kindOf(f.rel, text);
  const found = auditFileText(f.rel, text, kind, description, everyLine, quiet).findings;
  const doc = kind === 'markdown' && f !== st.skillFile;
  const test = kind !== 'markdown' && TEST_SCRIPT.test(f.rel);
  for (let k = 0; k < found.length; k++) {
    const finding = found[k]!;
    if (finding.level === 'P0' && doc && DOC_ONLY_FAMILIES.has(finding.family)) {
      finding.level = 'P1';
      noted(finding, 'auditNote.referenceDoc');
    } else if (finding.level === 'P0' && test && TEST_CODE_RULES.has(finding.rule)) {
      finding.level = 'P1';
      noted(finding, 'auditNote.testScript');
    }
    st.findings.push(finding);
  }
}

/**
 * Families of commands that are dangerous where they run (scripts, hooks, SKILL.md's instructions): in reference
 * documentation (Markdown other than SKILL.md) they are a P1 finding with its file and line, not a refusal. Telling
 * the model what to do (prompt injection, exfiltration, hidden text, remote instructions) keeps its level anywhere.
 */
const DOC_ONLY_FAMILIES: ReadonlySet<Family> = new Set<Family>([
  'destructive',
  'privilege',
  'code-execution',
  'network',
  'install',
  'obfuscation',
]);

/**
 * Rules whose P0 in a test script is a P1 finding: a test loads the code under test (`import()`, `exec(compile(…))`,
 * `vm.runInContext`),
 * evaluates what it was given, or holds source text as a fixture. Decoded or obfuscated code stays a refusal there too.
 */
const TEST_CODE_RULES: ReadonlySet<string> = new Set([
  'exec.dynamic-import',
  'exec.exec',
  'exec.eval',
  'exec.os-system',
  'exec.vm-module',
  'exec.indirect-eval',
]);

/** A test script by its path: under test/, tests/, __tests__/ or spec/, or named *.test.*, *.spec.*, *_test.*, test_*. */
const TEST_SCRIPT = /(?:^|\/)(?:tests?|__tests__|spec)\/|(?:^|\/)[^/]*[._-](?:test|spec)\.[^/]+$|(?:^|\/)test_[^/]+$/i;

function binaryExecutable(st: FolderAudit, f: FileEntry, buf: Buffer): void {
  const exe = executableMagic(buf);
  if (exe)
    st.findings.push({
      file: f.rel,
      line: 0,
      rule: 'structure.binary-executable',
      family: 'structure',
      level: 'P1',
      excerpt: '',
      ...said(say('audit.structure.binary-executable', { kind: exe })),
    });
}

/** SKILL.md's frontmatter: the skill's name, its permission request and the manifest's findings; gives its description. */
function readManifest(st: FolderAudit, f: FileEntry, text: string): { text: string; line: number } | undefined {
  const fm = frontmatterOf(text, f.rel, st.opts.parsed);
  if (fm.errors) {
    unreadableManifest(st, f, fm.errors);
    return undefined;
  }
  const facts = fm.facts!;
  st.frontmatterSha256 = facts.sha256;
  nameSkill(st, facts);
  const parsed = fm.requested!;
  const diagnostics = parsed.diagnostics;
  for (let k = 0; k < diagnostics.length; k++) {
    const d = diagnostics[k]!;
    st.manifestDiagnostics.push(d);
    if (d.severity === 'error') unreadablePermissions(st, f, d);
  }
  const permissions = (st.permissions = parsed.permissions);
  if (permissions) requestFindings(st, f, facts, permissions);
  if (facts.hooks) {
    st.findings.push({
      file: f.rel,
      line: facts.lines.hooks ?? 1,
      rule: 'manifest.hooks',
      family: 'manifest',
      level: 'P1',
      excerpt: 'hooks:',
      ...said(say('audit.manifest.hooks')),
    });
  }
  const description = facts.description;
  return description ? { text: description.text ?? fm.description ?? '', line: description.line } : undefined;
}

/** A frontmatter that cannot be read: one finding per error. */
function unreadableManifest(st: FolderAudit, f: FileEntry, errors: { line?: number; message: string }[]): void {
  for (const e of errors) {
    st.findings.push({
      file: f.rel,
      line: e.line ?? 1,
      rule: 'manifest.unreadable',
      family: 'manifest',
      level: 'P0',
      excerpt: '',
      ...said(say('audit.manifest.unreadable', { error: e.message })),
    });
  }
}

/** The skill's name in the report: the frontmatter's name, else its title's slug (else the folder's name). */
function nameSkill(st: FolderAudit, facts: FrontmatterFacts): void {
  if (facts.name?.trim()) st.skill = facts.name.trim().normalize('NFKC');
  else if (facts.title?.trim()) st.skill = slugify(facts.title.trim());
  // A display name (`Agent Development`) is indexed under its slug: the report names the skill the same way.
  if (/\s/u.test(st.skill)) st.skill = invocableName(st.skill, basename(st.dir)) ?? st.skill;
}

/** A permission request's error: the request cannot be read, so it cannot be confined. */
function unreadablePermissions(st: FolderAudit, f: FileEntry, d: Diagnostic): void {
  st.findings.push({
    file: f.rel,
    line: d.line ?? 1,
    rule: 'manifest.permissions',
    family: 'manifest',
    level: 'P0',
    excerpt: d.field ?? '',
    ...said(say('audit.manifest.permissions', { field: d.field ?? '', error: d.words ?? d.message })),
  });
}

/** What a readable permission request asks for that needs the user's eye: the network, a command tool with any command. */
function requestFindings(st: FolderAudit, f: FileEntry, facts: FrontmatterFacts, permissions: Permissions): void {
  if (permissions.network) {
    st.findings.push({
      file: f.rel,
      line: facts.lines.network ?? facts.lines.allowedTools ?? 1,
      rule: 'permissions.network',
      family: 'permissions',
      level: 'P1',
      excerpt: 'network: true',
      ...said(say('audit.permissions.network')),
    });
  }
  const tools = permissions.tools;
  for (let k = 0; k < tools.length; k++) {
    const t = tools[k]!;
    const c = permissions.commands[t];
    if (c && c.length === 0) {
      st.findings.push({
        file: f.rel,
        line: facts.lines.tools ?? facts.lines.allowedTools ?? 1,
        rule: 'permissions.command-tool',
        family: 'permissions',
        level: 'P1',
        excerpt: t,
        ...said(say('audit.permissions.command-tool', { tool: t })),
      });
    }
  }
}

/** The folder's report and fingerprint, once every file is read. */
function folderResult(
  st: FolderAudit,
  fileCount: number,
): { report: AuditReport; fingerprint: string; tree?: FolderTree } {
  const { findings, permissions } = st;
  const diff = st.opts.previous !== undefined && permissions ? widening(st, st.opts.previous, permissions) : undefined;
  if (findings.length > 1) findings.sort(byLevelFileLine);
  let level: Level = 'P2';
  for (let k = 0; k < findings.length; k++) level = maxLevel(level, findings[k]!.level);
  // Fields in the report's order (its JSON is stored and compared): the optional ones only when there is one.
  const report = {
    skill: st.skill,
    dir: st.dir,
    level,
    findings,
    contentHash: st.hash.update(st.hashText).digest('hex'),
    files: fileCount,
    bytes: st.bytes,
  } as AuditReport;
  if (permissions) report.permissions = permissions;
  report.manifestDiagnostics = st.manifestDiagnostics;
  if (diff) report.diff = diff;
  report.verdicts = verdictsOf(findings);
  report.auditor = AUDITOR_VERSION;
  if (st.frontmatterSha256) report.frontmatterSha256 = st.frontmatterSha256;
  const fingerprint = sha256Hex(st.fpText);
  return st.tree ? { report, fingerprint, tree: { ...st.tree, fingerprint } } : { report, fingerprint };
}

/** Most severe first, then by file and line. */
function byLevelFileLine(a: Finding, b: Finding): number {
  return LEVEL_RANK[b.level] - LEVEL_RANK[a.level] || a.file.localeCompare(b.file) || a.line - b.line;
}

/** The permission diff against the installed version (its permissions, or its folder audited now), and its finding. */
function widening(st: FolderAudit, previous: Permissions | string, permissions: Permissions): PermissionDiff {
  const prev = typeof previous === 'string' ? auditSkill(previous).permissions : previous;
  const diff = permissionDiff(prev, permissions);
  if (diff.widened) {
    st.findings.push({
      file: st.skillFile?.rel ?? 'SKILL.md',
      line: 1,
      rule: 'permissions.widened',
      family: 'permissions',
      level: 'P1',
      excerpt: diff.lines.join('; '),
      excerptWords: diff.words,
      ...said(say('audit.permissions.widened', { changes: listWords(diff.words) })),
    });
  }
  return diff;
}

/** Why a finding is asked about and not refused (in reference documentation, in a test script, …), in its words. */
function noted(
  finding: Finding,
  note: `auditNote.${'referenceDoc' | 'testScript' | 'handed' | 'printed' | 'argv' | 'named'}`,
): void {
  Object.assign(finding, said(say('auditNoted', { what: finding.words, note: say(note) })));
}

/** Words for a short list: "a, b, c" in English, "a、b、c" in Chinese. */
export function listWords(items: Said[]): Said {
  if (items.length <= 1) return items[0] ?? say('listNone');
  return items.slice(1).reduce((a, b) => say('listAnd', { a, b }), items[0]!);
}

/** One line per finding: `P0 scripts/x.sh:3 exec.pipe-to-shell: downloads code and runs it (curl … | sh)`. */
export function formatFinding(f: Finding): string {
  return `${f.level} ${f.file}:${f.line} ${f.rule}: ${f.message}${f.excerpt ? `\n     ${f.excerpt}` : ''}`;
}
