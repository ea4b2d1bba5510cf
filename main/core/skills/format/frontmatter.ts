// SKILL.md frontmatter: split it from the body, read only the file head at start-up, and parse the YAML safely
// (size cap, alias cap, no custom tags, duplicate keys reported with their line, BOM and CRLF tolerated).
import { closeSync, constants as fsConstants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { lazyRequire } from '../../base/index.js';
import type * as Yaml from 'yaml';
import type { Document } from 'yaml';
import { english, say, type Diagnostic, type Said } from '../../base/index.js';
import { lineAlong, nodeAt, parseFrontmatterFast, toJS, type FastParse } from './frontmatter-fast.js';

/** The frontmatter may not be bigger than this (bytes, opening and closing `---` included). */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Aliases resolved per document at most (billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;
const CHUNK = 4096;

export interface SplitOk {
  ok: true;
  /** The YAML between the two `---` lines (line endings as in the file). */
  frontmatter: string;
  /** Everything after the closing `---` line. */
  body: string;
  /** 1-based line of the first body line. */
  bodyStartLine: number;
  /** The file started with a UTF-8 byte order mark. */
  bom: boolean;
  /** The file uses CRLF line endings. */
  crlf: boolean;
  /** File line of the first byte that is not UTF-8 (the text holds U+FFFD there); only set by readFrontmatterHead. */
  badUtf8Line?: number;
}
export interface SplitErr {
  ok: false;
  diagnostic: Diagnostic;
}
export type SplitResult = SplitOk | SplitErr;

/** A diagnostic, in words (the window says them in its language) and their English (the CLI's). */
function diag(file: string, code: string, message: Said, line?: number, field?: string): Diagnostic {
  return {
    severity: 'error',
    code,
    file,
    message: english(message),
    words: message,
    ...(line !== undefined ? { line } : {}),
    ...(field ? { field } : {}),
  };
}

const OPEN = /^---[ \t]*\r?\n/;
/** A closing `---` line: at the start of a line, only trailing blanks, then a line end or the end of the text. */
const CLOSE = /(^|\n)---[ \t]*(\r?\n|$)/;

/** Split SKILL.md text into frontmatter and body. `---` inside values (`a---b`, indented block lines) is not a fence. */
export function splitFrontmatter(text: string, file = 'SKILL.md'): SplitResult {
  const bom = text.charCodeAt(0) === 0xfeff;
  const t = bom ? text.slice(1) : text;
  const open = OPEN.exec(t) ?? (/^---[ \t]*$/.test(t) ? [t] : null);
  if (!open) return { ok: false, diagnostic: diag(file, 'frontmatter.missing', say('diag.noStart'), 1) };
  const rest = t.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return { ok: false, diagnostic: diag(file, 'frontmatter.unclosed', say('diag.unclosed'), 1) };
  const fmEnd = close.index + close[1]!.length;
  const frontmatter = rest.slice(0, fmEnd);
  const body = rest.slice(close.index + close[0].length);
  const fmLines = frontmatter === '' ? 0 : frontmatter.split('\n').length - (frontmatter.endsWith('\n') ? 1 : 0);
  return { ok: true, frontmatter, body, bodyStartLine: fmLines + 3, bom, crlf: open[0].endsWith('\r\n') };
}

export interface HeadRead {
  /** The split result for the head (body is empty: it was never read). */
  split: SplitResult;
  /** Bytes actually read from the file. */
  bytesRead: number;
}

/** Decode the head; when it is not valid UTF-8, the split says on which line the first bad byte is. */
function splitHead(buf: Buffer, len: number, file: string): SplitResult {
  const text = buf.toString('utf8', 0, len);
  const s = splitFrontmatter(text, file);
  if (!s.ok) return s;
  const head = { ...s, body: '' };
  if (isUtf8(buf.subarray(0, len))) return head;
  const at = text.indexOf('\ufffd');
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return { ...head, badUtf8Line: line };
}

const NL = 0x0a;
let scratch = Buffer.allocUnsafe(CHUNK * 2);
const DASH = 0x2d;

/** Index just past the closing fence line in `buf[0..len)`, or -1 when there is none yet. */
function findClose(buf: Buffer, len: number, from: number, eof: boolean): number {
  for (let i = buf.indexOf(NL, from); i !== -1 && i < len; i = buf.indexOf(NL, i + 1)) {
    if (i + 3 >= len) return -1;
    if (buf[i + 1] !== DASH || buf[i + 2] !== DASH || buf[i + 3] !== DASH) continue;
    let j = i + 4;
    while (j < len && (buf[j] === 0x20 || buf[j] === 0x09)) j++;
    if (j < len && buf[j] === 0x0d) j++;
    if (j < len && buf[j] === NL) return j + 1;
    if (j >= len) return eof ? len : -1;
  }
  return -1;
}

/**
 * Read only the head of a SKILL.md: chunks of 4 KB until the closing `---` (or the size cap), never the body.
 * Throws only for I/O errors on open/read (the caller turns them into a diagnostic).
 */
export function readFrontmatterHead(file: string, diagFile = file): HeadRead {
  // Non-blocking open, then fstat: a pipe named SKILL.md would otherwise block this thread until a writer comes.
  const fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const what = say(st.isDirectory() ? 'diag.fileFolder' : 'diag.fileNotRegular');
      return { split: { ok: false, diagnostic: diag(diagFile, 'file.unreadable', what, 1) }, bytesRead: 0 };
    }
    // One scratch buffer per thread (reads are synchronous): no 4 KB allocation per file.
    let buf = scratch;
    let len = 0;
    let eof = false;
    let end = -1;
    let scanFrom = 0;
    while (!eof && len < MAX_FRONTMATTER_BYTES + CHUNK) {
      if (len + CHUNK > buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
        if (bigger.length <= MAX_FRONTMATTER_BYTES * 2 + CHUNK * 2) scratch = bigger;
      }
      const n = readSync(fd, buf, len, CHUNK, len);
      if (n === 0) eof = true;
      len += n;
      if (len === 0) break;
      if (scanFrom === 0) {
        // The opening fence must be the first line (after an optional BOM).
        const start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
        if (len - start >= 3 && !(buf[start] === DASH && buf[start + 1] === DASH && buf[start + 2] === DASH)) break;
        const nl = buf.indexOf(NL, start);
        if (nl === -1 || nl >= len) {
          if (eof) break;
          continue;
        }
        scanFrom = nl;
      }
      end = findClose(buf, len, scanFrom, eof);
      if (end !== -1) break;
    }
    if (end === -1) {
      const s = splitHead(buf, Math.min(len, MAX_FRONTMATTER_BYTES + CHUNK), diagFile);
      if (s.ok || s.diagnostic.code !== 'frontmatter.unclosed' || eof) return { split: s, bytesRead: len };
      return {
        split: {
          ok: false,
          diagnostic: diag(
            diagFile,
            'frontmatter.too-large',
            say('diag.tooLargeUnclosed', { limit: MAX_FRONTMATTER_BYTES / 1024 }),
            1,
          ),
        },
        bytesRead: len,
      };
    }
    if (end > MAX_FRONTMATTER_BYTES) {
      return {
        split: {
          ok: false,
          diagnostic: diag(
            diagFile,
            'frontmatter.too-large',
            say('diag.tooLarge', { size: end, limit: MAX_FRONTMATTER_BYTES / 1024 }),
            1,
          ),
        },
        bytesRead: len,
      };
    }
    return { split: splitHead(buf, end, diagFile), bytesRead: len };
  } finally {
    closeSync(fd);
  }
}

/** Read a skill's instructions (the body after the frontmatter). Throws an Error naming the file when there is none. */
export function readSkillBody(file: string): string {
  const s = splitFrontmatter(readFileSync(file, 'utf8'), file);
  if (!s.ok) throw new Error(`${file}:${s.diagnostic.line ?? 1}: ${s.diagnostic.message}`);
  return s.body;
}

let yamlParses = 0;
let fastParses = 0;
let fastEnabled = true;

/** Turn the fast plain-frontmatter reader off (every parse through `yaml`) or on: for differential tests and benches. */
export function useFastFrontmatter(on: boolean): void {
  fastEnabled = on;
}

/** Frontmatter YAML parses in this thread so far: a SKILL.md is parsed once from discovery to a tool call (tests hold it). */
export function frontmatterParses(): number {
  return yamlParses;
}

/** Of those, the ones the fast plain-frontmatter reader answered (the others went through `yaml`). */
export function frontmatterFastParses(): number {
  return fastParses;
}

/** One entry of a top-level mapping value, as text: a scalar as written (`1.0` stays "1.0"), a collection as JSON. */
export interface SourceEntry {
  key: string;
  text: string;
  collection: boolean;
}

export interface ParsedYaml {
  /** The top-level mapping as plain JS (undefined when the YAML was rejected). */
  data?: Record<string, unknown>;
  /** The parsed document (for source text of scalars and positions). */
  doc?: Document.Parsed;
  /** 1-based file line of a top-level key. */
  keyLines: Map<string, number>;
  diagnostics: Diagnostic[];
  /** Keys whose value (or any nested value) uses flow style `[a, b]` / `{a: b}` (only when `detectFlow`). */
  flowKeys: Set<string>;
  /** 1-based file line of a nested field, e.g. ['permissions','paths','read',0] (its nearest present parent otherwise). */
  lineOf(path: (string | number)[]): number | undefined;
  /** The entries of the top-level mapping value `key` as text (metadata), or undefined when that value is no mapping. */
  sourcesOf(key: string): SourceEntry[] | undefined;
}

/** The ParsedYaml of a frontmatter the fast reader understood: the same data, key lines, field lines and sources. */
function fromFast(fast: FastParse): ParsedYaml {
  const keyLines = new Map<string, number>();
  fast.root.keys.forEach((k, i) => keyLines.set(k, fast.root.keyLines[i]!));
  return {
    data: fast.data,
    keyLines,
    diagnostics: [],
    flowKeys: new Set(),
    lineOf: (path) => lineAlong(fast.root, path),
    sourcesOf(key) {
      const node = nodeAt(fast.root, [key]);
      if (node?.t !== 'm') return undefined;
      return node.keys.map((k, i) => {
        const v = node.vals[i]!;
        return v.t === 's'
          ? { key: k, text: v.src, collection: false }
          : { key: k, text: JSON.stringify(toJS(v)), collection: true };
      });
    },
  };
}

/**
 * Parse frontmatter YAML (YAML 1.2 core schema: `yes` stays a string). `firstLine` is the file line of the
 * first frontmatter line (2 when the file opens with `---`). Rejected: syntax errors, duplicate keys, custom
 * tags, too many aliases, a document that is not a mapping.
 */
export function parseFrontmatterYaml(text: string, file: string, firstLine = 2, detectFlow = false): ParsedYaml {
  yamlParses++;
  // Plain frontmatter (nearly all of it) is read by the fast reader, which gives up on anything it is not sure of.
  // Strict mode (lint) asks which values use flow style: that is yaml's to say.
  if (!detectFlow && fastEnabled) {
    const fast = parseFrontmatterFast(text, firstLine);
    if (fast) {
      fastParses++;
      return fromFast(fast);
    }
  }
  const parsed = parseFrontmatterYamlOnly(text, file, firstLine, detectFlow);
  // Strict mode reports the reference validator's verdict: the YAML error stands.
  if (detectFlow || parsed.data || !parsed.diagnostics.some((d) => d.code === 'yaml.syntax')) return parsed;
  return readTextFieldsAsText(text, file, firstLine) ?? parsed;
}

/**
 * Fields that are free text for people and the model, never read by the gate: a broken value there is read as text.
 * `name` is not one (it is what the skill is invoked by), nor is anything that asks for tools or permissions.
 */
const TEXT_FIELDS = new Set(['description', 'when_to_use', 'argument-hint', 'license', 'compatibility', 'summary']);
const TEXT_FIELD_LINE = /^([a-z_-]+):[ \t]+(\S.*?)[ \t]*\r?$/;

/**
 * Public skills often break YAML in a text field: `description: Use when: …` (a bare `: `) or
 * `description: "… "quoted" …"` (bare quotes inside quotes). Claude Code loads them; a strict reader would leave the
 * skill out. So when the YAML does not parse, each top-level text field's value (its line, and any more-indented
 * lines after it, joined as YAML folds them) is read as a string — up to a ` #` comment for a plain value, between the
 * outer quotes for a double-quoted one without escapes — and the frontmatter is read again, with a warning naming each
 * field read so. Line numbers do not move (continuation lines become blank). Any other field, or a frontmatter still
 * broken after that, keeps the first reading's error: nothing the gate reads is ever guessed.
 */
function readTextFieldsAsText(text: string, file: string, firstLine: number): ParsedYaml | undefined {
  const lines = text.split('\n');
  const read: { key: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = TEXT_FIELD_LINE.exec(lines[i]!);
    if (!m || !TEXT_FIELDS.has(m[1]!)) continue;
    let value = m[2]!;
    let end = i;
    while (end + 1 < lines.length && /^[ \t]+\S/.test(lines[end + 1]!)) end++;
    if (value.startsWith('"')) {
      // Bare quotes inside a double-quoted value; one with escapes, or more lines, is not guessed at.
      if (end > i || !value.endsWith('"') || value.length < 2 || value.includes('\\')) continue;
      value = value.slice(1, -1);
      if (!value.includes('"')) continue;
    } else {
      if (/^['[{|>&*!%@`]/.test(value)) continue;
      const more = lines.slice(i + 1, end + 1).map((l) => l.trim());
      value = [value, ...more].join(' ').replace(/\s#.*$/, '');
      if (!/:(\s|$)/.test(value)) continue;
    }
    lines[i] = `${m[1]}: ${JSON.stringify(value)}`;
    for (let j = i + 1; j <= end; j++) lines[j] = '';
    read.push({ key: m[1]!, line: i + firstLine });
    i = end;
  }
  if (!read.length) return undefined;
  const again = parseFrontmatterYamlOnly(lines.join('\n'), file, firstLine, false);
  if (!again.data || again.diagnostics.length) return undefined;
  for (const { key, line } of read) {
    again.diagnostics.push({
      ...diag(file, 'yaml.unquoted', say('diag.yamlUnquoted', { field: key }), line, key),
      severity: 'warning',
    });
  }
  return again;
}

/** `yaml`, loaded when the first frontmatter needs it: the fast reader answers nearly all, and loading it costs ~0.1 s. */
export const yamlLib = lazyRequire<typeof Yaml>('yaml');

/** The `yaml` package's reading of frontmatter (every construct; the diagnostics' source). Use parseFrontmatterYaml. */
export function parseFrontmatterYamlOnly(text: string, file: string, firstLine = 2, detectFlow = false): ParsedYaml {
  const { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, visit } = yamlLib();
  const lineCounter = new LineCounter();
  const keyLines = new Map<string, number>();
  const flowKeys = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line + firstLine - 1;
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    version: '1.2',
    schema: 'core',
    strict: true,
  });
  const lineOf = (path: (string | number)[]): number | undefined => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return lineAt(node.range[0]);
    }
    return undefined;
  };
  const sourcesOf = (key: string): SourceEntry[] | undefined => {
    const node = isMap(doc.contents) ? doc.contents.get(key, true) : undefined;
    if (!isMap(node)) return undefined;
    return node.items.map((pair) => {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const val = pair.value;
      if (isScalar(val)) return { key: k, text: val.source ?? String(val.value), collection: false };
      if (isSeq(val) || isMap(val)) return { key: k, text: JSON.stringify(val.toJSON()), collection: true };
      return { key: k, text: '', collection: false };
    });
  };
  // The top-level key an offset falls under (errors name the field they break).
  const topKeys: { key: string; start: number }[] = [];
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      const r = (pair.key as { range?: [number, number, number] } | null)?.range;
      if (r && isScalar(pair.key)) topKeys.push({ key: String(pair.key.value), start: r[0] });
    }
  }
  const keyAt = (offset: number) => topKeys.filter((k) => k.start <= offset).at(-1);
  for (const e of doc.errors) {
    let line = lineAt(e.pos[0]);
    const firstMsg = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const owner = keyAt(e.pos[0]);
    if (e.code === 'DUPLICATE_KEY') {
      diagnostics.push(diag(file, 'yaml.duplicate-key', say('diag.duplicateKey'), line, owner?.key));
    } else {
      const hint =
        e.code === 'BLOCK_AS_IMPLICIT_KEY' || /compact mappings|Implicit map keys/.test(firstMsg) ? true : false;
      // An unclosed flow collection is detected where the text ends; the key that opened it is the useful line.
      let field = owner?.key;
      if (/flow (sequence|mapping|collection)/i.test(firstMsg)) {
        const lines = text.split('\n');
        for (let i = Math.min(line - firstLine, lines.length - 1); i >= 0; i--) {
          const m = /^([^\s#][^:]*):\s*[[{]/.exec(lines[i]!);
          if (m) {
            line = i + firstLine;
            field = m[1]!.trim();
            break;
          }
        }
      }
      diagnostics.push(
        diag(file, 'yaml.syntax', say(hint ? 'diag.yamlQuote' : 'diag.yaml', { error: firstMsg }), line, field),
      );
    }
  }
  for (const w of doc.warnings) {
    if (w.code === 'TAG_RESOLVE_FAILED') {
      diagnostics.push(
        diag(
          file,
          'yaml.tag',
          say('diag.tag', { error: w.message.split('\n')[0]!.replace(/ at line.*$/, '') }),
          lineAt(w.pos[0]),
        ),
      );
    }
  }
  // With the core schema and no custom tags, any tag yaml cannot resolve (`!!python/object`, `!shell`) is reported
  // above as TAG_RESOLVE_FAILED; the core tags (`!!str`, `!!int`, …) are harmless.
  if (diagnostics.length) return { keyLines, diagnostics, flowKeys, lineOf, sourcesOf };
  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && (contents.value === null || contents.value === ''))) {
    return { data: {}, doc, keyLines, diagnostics, flowKeys, lineOf, sourcesOf };
  }
  if (!isMap(contents)) {
    return {
      keyLines,
      diagnostics: [diag(file, 'yaml.not-mapping', say('diag.notMapping'), firstLine)],
      flowKeys,
      lineOf,
      sourcesOf,
    };
  }
  if (contents.flow) flowKeys.add('');
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const range = (pair.key as { range?: [number, number, number] } | null)?.range;
    if (range) keyLines.set(key, lineAt(range[0]));
    if (detectFlow && pair.value && typeof pair.value === 'object') {
      visit(pair.value as never, {
        Node(_k, n) {
          if ((n as { flow?: boolean }).flow) flowKeys.add(key);
        },
      });
    }
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return {
      keyLines,
      diagnostics: [diag(file, 'yaml.alias-limit', say('diag.yaml', { error: (e as Error).message }), firstLine)],
      flowKeys,
      lineOf,
      sourcesOf,
    };
  }
  return { data: (data ?? {}) as Record<string, unknown>, doc, keyLines, diagnostics, flowKeys, lineOf, sourcesOf };
}
