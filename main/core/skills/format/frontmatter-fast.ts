// A fast, exact reader for the plain frontmatter nearly every SKILL.md uses (`key: value`, quoted scalars, lists, a few
// nested maps, block scalars), giving what `yaml` gives (YAML 1.2 core schema); anything else returns undefined → `yaml`.
//
// Exactness over reach: every construct below is accepted only in the form whose meaning is certain, and the first
// doubt gives up (undefined), so the caller's `yaml` path decides — with its diagnostics. Never accepted here: anchors,
// aliases, tags, flow maps, multi-line quoted or flow scalars, tabs, control characters, `? ` keys, directives or
// document markers, compact nested collections (`- a: b`), quoted or spaced keys, explicit block indentation, and
// duplicate keys. test/unit/format/frontmatter-fast.test.ts compares it with `yaml` on every shared fixture and on
// generated frontmatter.

/** A parsed node: scalar (value + source text, as yaml's Scalar.source), mapping or sequence, with its 1-based file line. */
export type FastNode =
  | { t: 's'; v: unknown; src: string; line: number }
  | { t: 'm'; keys: string[]; vals: FastNode[]; keyLines: number[]; line: number }
  | { t: 'q'; items: FastNode[]; line: number };

export interface FastParse {
  /** The top-level mapping. */
  root: Extract<FastNode, { t: 'm' }>;
  data: Record<string, unknown>;
}

/** Deeper nesting than this is left to `yaml` (hostile input never recurses far here). */
const MAX_DEPTH = 12;
const MAX_KEY = 128;

/** Characters this reader does not handle anywhere (tabs, C0/C1 controls, separators, BOM, non-characters, lone surrogates). */
const UNHANDLED =
  /[\x00-\x08\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A plain mapping key this reader accepts: no spaces, no indicators; followed by `:` and a space or the line end. */
const KEY = /^([A-Za-z0-9_][A-Za-z0-9_.\-/]*):(?= |$)/;
/** Characters that may not start a plain scalar here (YAML indicators; `-`, `?`, `:` are checked apart). */
const PLAIN_FIRST_BAD = new Set([
  '[',
  ']',
  '{',
  '}',
  '#',
  '&',
  '*',
  '!',
  '|',
  '>',
  "'",
  '"',
  '%',
  '@',
  '`',
  ',',
  '?',
  ':',
]);

const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value in the YAML 1.2 core schema, tag by tag in the order `yaml` tests them. */
function resolvePlain(s: string): unknown {
  if (NULL_RE.test(s)) return null;
  if (BOOL_RE.test(s)) return s[0] === 't' || s[0] === 'T';
  if (OCT_RE.test(s)) return parseInt(s.substring(2), 8);
  if (INT_RE.test(s)) return parseInt(s, 10);
  if (HEX_RE.test(s)) return parseInt(s.substring(2), 16);
  if (NAN_RE.test(s))
    return s.slice(-3).toLowerCase() === 'nan'
      ? NaN
      : s[0] === '-'
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY;
  if (EXP_RE.test(s) || FLOAT_RE.test(s)) return parseFloat(s);
  return s;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

class GiveUp extends Error {}
const giveUp = (): never => {
  throw new GiveUp();
};

function indentOf(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

/** Without leading spaces (only U+0020: YAML's white space, tabs being refused; `trimStart` would eat U+00A0 too). */
function lstrip(s: string): string {
  let i = 0;
  while (s.charCodeAt(i) === 32) i++;
  return i ? s.slice(i) : s;
}

/** Without trailing spaces (only U+0020). */
function rstrip(s: string): string {
  let e = s.length;
  while (e > 0 && s.charCodeAt(e - 1) === 32) e--;
  return e < s.length ? s.slice(0, e) : s;
}

/** Blank (spaces only) or a whole-line comment. */
function skippable(line: string): boolean {
  const i = indentOf(line);
  return i === line.length || line[i] === '#';
}

/** What may follow a closed quoted scalar or flow sequence on its line: spaces, then nothing or a ` #` comment. */
function restIsEmpty(rest: string): boolean {
  const t = lstrip(rest);
  return t === '' || (t[0] === '#' && t.length < rest.length);
}

/** A double-quoted scalar closed on this line, from `s[0] === '"'`: [value, index after the closing quote]. */
function doubleQuoted(s: string): [string, number] {
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') return [out, i + 1];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[++i];
    if (n === undefined) giveUp();
    const e = Object.hasOwn(ESCAPES, n!) ? ESCAPES[n!] : undefined;
    if (e !== undefined) out += e;
    else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = s.substr(i + 1, len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) giveUp();
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) giveUp();
      out += String.fromCodePoint(code);
      i += len;
    } else giveUp();
  }
  return giveUp();
}

/** A single-quoted scalar closed on this line, from `s[0] === "'"`. */
function singleQuoted(s: string): [string, number] {
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c !== "'") out += c;
    else if (s[i + 1] === "'") {
      out += "'";
      i++;
    } else return [out, i + 1];
  }
  return giveUp();
}

/** A plain scalar's text may not hold these (a nested mapping or a comment would start); the caller gives up. */
function plainTextOk(t: string): boolean {
  return !t.includes(': ') && !t.endsWith(':') && !t.includes(' #');
}

/** May `c` (with `next` after it) start a plain scalar this reader accepts? */
function plainStart(c: string, next: string | undefined): boolean {
  if (PLAIN_FIRST_BAD.has(c)) return false;
  if (c === '-') return next !== undefined && next !== ' ';
  return true;
}

class Reader {
  private i = 0;
  private readonly n: number;
  constructor(
    private readonly lines: string[],
    private readonly firstLine: number,
    private readonly endsWithNewline: boolean,
  ) {
    this.n = lines.length;
  }

  private fileLine(i: number): number {
    return i + this.firstLine;
  }

  /** Index of the next line that is not blank nor a comment, from `from`. */
  private nextContent(from: number): number {
    let j = from;
    while (j < this.n && skippable(this.lines[j]!)) j++;
    return j;
  }

  document(): Extract<FastNode, { t: 'm' }> {
    const j = this.nextContent(0);
    if (j >= this.n || indentOf(this.lines[j]!) !== 0) giveUp();
    const root = this.map(0, 0);
    if (this.nextContent(this.i) < this.n) giveUp();
    return root;
  }

  /**
   * Index of the next content line when it sits at column `ind`; -1 at the end or at a shallower line (the
   * collection ends); a deeper line gives up (nothing this reader accepts continues that way).
   */
  private nextAt(ind: number): number {
    const j = this.nextContent(this.i);
    if (j >= this.n) return -1;
    const li = indentOf(this.lines[j]!);
    if (li < ind) return -1;
    if (li > ind) giveUp();
    return j;
  }

  /** A block mapping whose keys sit at column `ind`. */
  private map(ind: number, depth: number): Extract<FastNode, { t: 'm' }> {
    if (depth > MAX_DEPTH) giveUp();
    const node: Extract<FastNode, { t: 'm' }> = { t: 'm', keys: [], vals: [], keyLines: [], line: 0 };
    const seen = new Set<string>();
    for (;;) {
      const j = this.nextAt(ind);
      if (j === -1) break;
      const line = this.lines[j]!;
      const m = KEY.exec(ind ? line.slice(ind) : line);
      if (!m) {
        // A sequence at the parent key's column ends this mapping only in the caller's eyes: never here.
        giveUp();
      }
      const key = m![1]!;
      if (key.length > MAX_KEY || key === '__proto__' || typeof resolvePlain(key) !== 'string' || seen.has(key))
        giveUp();
      seen.add(key);
      this.i = j;
      if (!node.keys.length) node.line = this.fileLine(j);
      node.keys.push(key);
      node.keyLines.push(this.fileLine(j));
      node.vals.push(this.value(line.slice(ind + key.length + 1), ind, depth, true));
    }
    return node;
  }

  /**
   * The value after `key:` (or `- `) on line this.i, whose parent sits at column `ind`; leaves this.i on the next line
   * to read. `inMap`: a block sequence may follow at the key's own column.
   */
  private value(after: string, ind: number, depth: number, inMap: boolean): FastNode {
    const at = this.i;
    const line = this.fileLine(at);
    const v = lstrip(after);
    if (v === '' || (v[0] === '#' && v.length < after.length)) {
      this.i = at + 1;
      const j = this.nextContent(this.i);
      if (j < this.n) {
        const next = this.lines[j]!;
        const ni = indentOf(next);
        const dash = next[ni] === '-' && (next.length === ni + 1 || next[ni + 1] === ' ');
        if (dash && (ni > ind || (inMap && ni === ind))) {
          this.i = j;
          return this.seq(ni, depth + 1);
        }
        if (ni > ind) {
          if (!inMap) giveUp();
          this.i = j;
          return this.map(ni, depth + 1);
        }
      }
      return { t: 's', v: null, src: '', line };
    }
    const c = v[0]!;
    if (c === '"' || c === "'") {
      const [s, end] = c === '"' ? doubleQuoted(v) : singleQuoted(v);
      if (!restIsEmpty(v.slice(end))) giveUp();
      this.i = at + 1;
      return { t: 's', v: s, src: s, line };
    }
    if (c === '[') {
      this.i = at + 1;
      return this.flowSeq(v, line);
    }
    if (c === '|' || c === '>') return this.blockScalar(v, ind, line);
    if (!plainStart(c, v[1])) giveUp();
    return this.plain(v, ind, line);
  }

  /** A plain scalar starting on line this.i, possibly continued on more-indented lines (folded like yaml does). */
  private plain(v: string, ind: number, line: number): FastNode {
    const hash = v.indexOf(' #');
    const comment = hash !== -1;
    const text = rstrip(comment ? v.slice(0, hash) : v);
    if (!plainTextOk(text)) giveUp();
    // Nearly always the next line is the next key (or the end): then the scalar is this line's text.
    const j = this.i + 1;
    if (j < this.n) {
      const l = this.lines[j]!;
      const li = indentOf(l);
      if (li === l.length || li > ind) return this.plainContinued(text, comment, ind, line);
    }
    this.i = j;
    return { t: 's', v: resolvePlain(text), src: text, line };
  }

  /** A plain scalar whose next line is blank or more indented: more lines may continue it. */
  private plainContinued(first: string, comment: boolean, ind: number, line: number): FastNode {
    let text = first;
    let j = this.i + 1;
    let blanks = 0;
    let end = j;
    for (; j < this.n; j++) {
      const l = this.lines[j]!;
      const li = indentOf(l);
      if (li === l.length) {
        blanks++;
        continue;
      }
      if (li <= ind) break;
      // A more-indented line continues the scalar (an error after a comment, or when it reads as anything else).
      const t = rstrip(l.slice(li));
      if (comment || t[0] === '#' || (/^[-?:]/.test(t) && (t.length === 1 || t[1] === ' ')) || !plainTextOk(t))
        giveUp();
      text += blanks ? '\n'.repeat(blanks) : ' ';
      text += t;
      blanks = 0;
      end = j + 1;
    }
    this.i = end;
    return { t: 's', v: resolvePlain(text), src: text, line };
  }

  /** `[a, "b", 'c']` on one line, of scalars only. */
  private flowSeq(v: string, line: number): FastNode {
    const node: Extract<FastNode, { t: 'q' }> = { t: 'q', items: [], line };
    let k = 1;
    const skip = (): void => {
      while (v[k] === ' ') k++;
    };
    skip();
    if (v[k] === ']') {
      if (!restIsEmpty(v.slice(k + 1))) giveUp();
      return node;
    }
    for (;;) {
      skip();
      const c = v[k];
      if (c === undefined) giveUp();
      if (c === '"' || c === "'") {
        const [s, end] = c === '"' ? doubleQuoted(v.slice(k)) : singleQuoted(v.slice(k));
        node.items.push({ t: 's', v: s, src: s, line });
        k += end;
      } else {
        let e = k;
        while (e < v.length && v[e] !== ',' && v[e] !== ']') e++;
        const t = rstrip(v.slice(k, e));
        if (!t || !plainStart(t[0]!, t[1]) || /[[\]{}#:]/.test(t)) giveUp();
        node.items.push({ t: 's', v: resolvePlain(t), src: t, line });
        k = e;
      }
      skip();
      if (v[k] === ']') {
        if (!restIsEmpty(v.slice(k + 1))) giveUp();
        return node;
      }
      if (v[k] !== ',') giveUp();
      k++;
      skip();
      if (v[k] === ']' || v[k] === ',') giveUp();
    }
  }

  /** `|` or `>` with an optional chomping indicator; content indented past column `ind`, indentation detected. */
  private blockScalar(v: string, ind: number, line: number): FastNode {
    const header = rstrip(v);
    if (!/^[|>][-+]?$/.test(header)) giveUp();
    const folded = header[0] === '>';
    const chomp = header[1] ?? '';
    let j = this.i + 1;
    // Content indentation: the first non-blank line's; blank lines before it may not be longer.
    let ci = -1;
    let maxLeadingBlank = 0;
    for (let k = j; k < this.n; k++) {
      const l = this.lines[k]!;
      const li = indentOf(l);
      if (li === l.length) {
        maxLeadingBlank = Math.max(maxLeadingBlank, li);
        continue;
      }
      ci = li;
      break;
    }
    const content: string[] = [];
    if (ci > ind) {
      if (maxLeadingBlank > ci) giveUp();
      for (; j < this.n; j++) {
        const l = this.lines[j]!;
        const li = indentOf(l);
        if (li === l.length) {
          if (li > ci) giveUp();
          content.push('');
          continue;
        }
        if (li < ci) {
          if (li > ind) giveUp();
          break;
        }
        content.push(l.slice(ci));
      }
    } else {
      // No content: the scalar is empty (blank lines before the next key are left to the mapping).
      for (; j < this.n; j++) {
        const l = this.lines[j]!;
        if (indentOf(l) !== l.length) break;
        if (l.length > ind) giveUp();
        content.push('');
      }
    }
    let last = content.length - 1;
    while (last >= 0 && content[last] === '') last--;
    if (last === -1) {
      if (chomp === '+' && content.length) giveUp();
      this.i = j;
      return { t: 's', v: '', src: '', line };
    }
    // The last content line must end with a line break (always so in a file's frontmatter).
    if (j === this.n && !this.endsWithNewline && last === content.length - 1) giveUp();
    const body = content.slice(0, last + 1);
    let text: string;
    if (!folded) text = body.join('\n');
    else {
      text = '';
      let blanks = 0;
      let started = false;
      for (const l of body) {
        if (l === '') {
          blanks++;
          continue;
        }
        if (l[0] === ' ') giveUp();
        if (!started) text += '\n'.repeat(blanks);
        else text += blanks ? '\n'.repeat(blanks) : ' ';
        text += l;
        blanks = 0;
        started = true;
      }
    }
    const trailing = content.length - 1 - last;
    if (chomp === '') text += '\n';
    else if (chomp === '+') text += '\n'.repeat(trailing + 1);
    this.i = j;
    return { t: 's', v: text, src: text, line };
  }

  /** A block sequence of scalars (and flow sequences) whose dashes sit at column `ind`. */
  private seq(ind: number, depth: number): FastNode {
    if (depth > MAX_DEPTH) giveUp();
    const node: Extract<FastNode, { t: 'q' }> = { t: 'q', items: [], line: this.fileLine(this.i) };
    for (;;) {
      const j = this.nextAt(ind);
      if (j === -1) break;
      const line = this.lines[j]!;
      if (line[ind] !== '-') break;
      if (line[ind + 1] !== ' ') giveUp();
      const rest = line.slice(ind + 2);
      const t = lstrip(rest);
      // `- a: b`, `- - x`, `-` alone: compact or nested collections, left to yaml.
      if (
        t === '' ||
        t[0] === '#' ||
        KEY.test(t) ||
        (t[0] === '-' && (t[1] === ' ' || t.length === 1)) ||
        /^[A-Za-z0-9_][^ ]*:(?: |$)/.test(t)
      )
        giveUp();
      this.i = j;
      node.items.push(this.value(rest, ind, depth, false));
    }
    return node;
  }
}

/** Plain JS of a node, as yaml's toJS gives it (mappings as plain objects). */
export function toJS(node: FastNode): unknown {
  if (node.t === 's') return node.v;
  if (node.t === 'q') return node.items.map(toJS);
  const out: Record<string, unknown> = {};
  for (let k = 0; k < node.keys.length; k++) out[node.keys[k]!] = toJS(node.vals[k]!);
  return out;
}

/**
 * Parse frontmatter text when it is of the plain kind this reader is sure about; undefined otherwise (use `yaml`).
 * `firstLine` is the file line of the text's first line.
 */
export function parseFrontmatterFast(text: string, firstLine = 2): FastParse | undefined {
  if (UNHANDLED.test(text)) return undefined;
  let t = text;
  if (t.includes('\r')) {
    if (/\r(?!\n)/.test(t)) return undefined;
    t = t.replace(/\r\n/g, '\n');
  }
  const endsWithNewline = t.endsWith('\n');
  const lines = t.split('\n');
  if (endsWithNewline) lines.pop();
  for (const l of lines) {
    // Document markers and directives: yaml's business.
    if (l.startsWith('---') || l.startsWith('...') || l[0] === '%') return undefined;
  }
  try {
    const root = new Reader(lines, firstLine, endsWithNewline).document();
    return { root, data: toJS(root) as Record<string, unknown> };
  } catch (e) {
    if (e instanceof GiveUp || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** A child of a node, looked up as yaml's getIn does (sequence indexes may be numeric strings; map keys match exactly). */
function childOf(node: FastNode, key: string | number): FastNode | undefined {
  if (node.t === 'm') {
    if (typeof key !== 'string') return undefined;
    const k = node.keys.indexOf(key);
    return k === -1 ? undefined : node.vals[k];
  }
  if (node.t === 'q') {
    let idx: unknown = key;
    if (idx && typeof idx === 'string') idx = Number(idx);
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0 ? node.items[idx] : undefined;
  }
  return undefined;
}

/** The node at a path, looked up as yaml's Document.getIn does. */
export function nodeAt(root: FastNode, path: (string | number)[]): FastNode | undefined {
  let node: FastNode | undefined = root;
  for (const key of path) {
    if (!node) return undefined;
    node = childOf(node, key);
  }
  return node;
}

/** The line of the deepest node along a path (the field's own line, else its nearest present parent's), in one walk. */
export function lineAlong(root: FastNode, path: (string | number)[]): number | undefined {
  let node: FastNode | undefined = root;
  let line: number | undefined;
  for (const key of path) {
    node = childOf(node, key);
    if (!node) break;
    line = node.line;
  }
  return line;
}
