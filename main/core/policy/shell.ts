// Command lines read by a real shell parser (mvdan/sh): the simple commands a line runs, their words after quote
// removal, and whether the whole line is "plain" (no expansion, substitution, glob or write redirection anywhere).
import { BoundedMap, lazyRequire } from '../base/index.js';

/** One simple command found in a line (nested ones too: inside $(), subshells, functions, loops). */
export interface ShellCommand {
  /** `NAME=value` prefixes, literal text (undefined entries where the value is not literal). */
  assigns: (string | undefined)[];
  /** The words after quote removal; undefined where a word is not a literal (holds an expansion). */
  args: (string | undefined)[];
  /** True when every assignment and word is literal. */
  literal: boolean;
  /** True for the commands the line runs directly (not inside a substitution, a function body, a loop …). */
  topLevel: boolean;
  /** assigns + args when literal, else undefined. */
  words?: string[];
  /**
   * What each argument becomes when bash runs it, where that is known without running anything: brace expansion
   * (`{rm,-rf,x}` is three words), `$'…'` decoded, quotes removed. Undefined for an argument holding a parameter,
   * command or arithmetic expansion, or a glob.
   */
  fields: (string[] | undefined)[];
  /** Why an argument's fields are unknown (the first one), when one is. */
  unresolved?: string;
}

export interface ParsedLine {
  /** False when the parser refused the line (unterminated quote, too long …). */
  parsed: boolean;
  /** Every simple command anywhere in the line. */
  commands: ShellCommand[];
  /**
   * Why the line cannot be reduced to plain words (undefined when it can): then no allow rule and no skill pattern
   * covers it, and "always" stores nothing for it.
   */
  notPlain?: string;
  /** Why the line opens a network connection by itself (a /dev/tcp or /dev/udp redirection), else undefined. */
  network?: string;
  /** Why the parser's reading itself cannot be trusted (a byte bash splits differently), else undefined. */
  unreliable?: string;
}

/**
 * Characters that bash and the parser may split differently, or that a reader cannot see: controls other than tab
 * and newline (bash reads a carriage return as part of a word, mvdan-sh as a space, so `git log \r# ; touch X`
 * hides `touch X` behind a comment only the parser sees), format characters (zero-width, bidi), line and paragraph
 * separators, and every space other than the ASCII one.
 */
const SPLIT_CHARS = /[^\P{Cc}\t\n]|[\p{Cf}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/u;

function splitCharProblem(line: string): string | undefined {
  const m = SPLIT_CHARS.exec(line);
  if (!m) return undefined;
  const cp = m[0].codePointAt(0)!;
  const name = cp === 0x0d ? 'a carriage return' : cp === 0 ? 'a NUL' : 'the character';
  return `${name} U+${cp.toString(16).toUpperCase().padStart(4, '0')} at offset ${m.index}, which bash and the parser read differently`;
}

/** A redirection target bash opens as a socket (`/dev/tcp/HOST/PORT`, `/dev/udp/…`); extra slashes counted too. */
const SOCKET_TARGET = /^\/+dev\/+(tcp|udp)\//i;

/** Lines longer than this are not parsed (the parser is slow on megabytes): they are never plain. */
const MAX_PARSED_LINE = 32 * 1024;

// mvdan-sh is a GopherJS build without types. Its JS wrappers rebuild an object on every field read (~0.1 ms each),
// so the tree is read through `__internal_object__`: the Go structs, slices as {$array, $offset, $length}, strings
// as UTF-8 bytes, nil pointers as `constructor.nil`.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Node = any;
interface Syntax {
  NewParser(): { Parse(src: string, name: string): Node };
}
const mvdanSh = lazyRequire<{ syntax: Syntax }>('mvdan-sh');
function sh(): Syntax {
  return mvdanSh().syntax;
}

function isNil(n: Node): boolean {
  return n === null || n === undefined || typeof n.constructor?.string !== 'string' || n === n.constructor.nil;
}

/** The node's Go type name without the package (`CallExpr`), '' for nil. */
function typeOf(n: Node): string {
  return isNil(n) ? '' : String(n.constructor.string).replace(/^\*?syntax\./, '');
}

function list(slice: Node): Node[] {
  const arr = slice?.$array;
  if (!Array.isArray(arr)) return [];
  return arr.slice(slice.$offset, slice.$offset + slice.$length) as Node[];
}

function str(s: unknown): string {
  return typeof s === 'string' ? Buffer.from(s, 'latin1').toString('utf8') : '';
}

/** Every node below `root` (depth first), `fn` returning false skips a node's children. */
function walk(root: Node, fn: (n: Node, type: string) => boolean): void {
  const seen = new Set<Node>();
  const go = (n: Node): void => {
    if (isNil(n) || seen.has(n)) return;
    const type = typeOf(n);
    if (!String(n.constructor.string).startsWith('*syntax.')) return;
    seen.add(n);
    if (!fn(n, type)) return;
    for (const key of Object.keys(n)) {
      if (key === '$val') continue;
      const v = n[key];
      if (v && typeof v === 'object') {
        if ('$array' in v) list(v).forEach(go);
        else go(v);
      }
    }
  };
  go(root);
}

/** Redirect operator codes of mvdan/sh (syntax.RedirOperator). */
const REDIR = {
  out: 54,
  append: 55,
  in: 56,
  rdwr: 57,
  dupIn: 58,
  dupOut: 59,
  clobber: 60,
  hdoc: 61,
  dashHdoc: 62,
  wordHdoc: 63,
  all: 64,
  appAll: 65,
} as const;

/** Characters a backslash may escape inside double quotes (elsewhere the backslash stays). */
const DQ_ESCAPABLE = new Set(['$', '`', '"', '\\', '\n']);

interface WordValue {
  text?: string;
  /** Why the word is not a literal. */
  why?: string;
}

/** Remove backslash escapes of unquoted text, and report unescaped glob, brace or tilde characters. */
function unquoted(
  raw: string,
  atWordStart: boolean,
): { text: string; glob: boolean; braceOpen: boolean; braceClose: boolean; tilde: boolean } {
  let text = '';
  let glob = false;
  let braceOpen = false;
  let braceClose = false;
  let tilde = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      text += raw[++i];
      continue;
    }
    if (c === '*' || c === '?' || c === '[') glob = true;
    if (c === '{') braceOpen = true;
    if (c === '}' && braceOpen) braceClose = true;
    if (c === '~' && i === 0 && atWordStart) tilde = true;
    text += c;
  }
  return { text, glob, braceOpen, braceClose, tilde };
}

/** The literal value of a word, or why it has none. `assignment` = the value of NAME=value (tilde after `:` too). */
function wordValue(word: Node, assignment = false): WordValue {
  if (isNil(word)) return { text: '' };
  let text = '';
  let braces = false;
  let closes = false;
  const parts: Node[] = list(word.Parts);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const type = typeOf(part);
    if (type === 'Lit') {
      const u = unquoted(str(part.Value), i === 0);
      if (u.glob) return { why: 'a glob pattern (* ? [) expands to file names' };
      if (u.tilde || (assignment && /(^|:)~/.test(u.text))) return { why: 'a ~ expands to a home folder' };
      braces ||= u.braceOpen;
      closes ||= u.braceClose || (braces && u.text.includes('}'));
      text += u.text;
    } else if (type === 'SglQuoted') {
      if (part.Dollar) return { why: "$'…' decodes escapes (\\073 is ;)" };
      text += str(part.Value);
    } else if (type === 'DblQuoted') {
      if (part.Dollar) return { why: '$"…" is translated text' };
      for (const inner of list(part.Parts)) {
        if (typeOf(inner) !== 'Lit') return { why: `${describeNode(typeOf(inner))} inside double quotes` };
        const raw = str(inner.Value);
        for (let j = 0; j < raw.length; j++) {
          const c = raw[j]!;
          if (c === '\\' && j + 1 < raw.length && DQ_ESCAPABLE.has(raw[j + 1]!))
            text += raw[++j] === '\n' ? '' : raw[j];
          else text += c;
        }
      }
    } else {
      return { why: describeNode(type) };
    }
  }
  // Bash expands {a,b} and {1..3} (also with quoted parts: {a,"b"}); a lone {} (find -exec … {}) stays as it is.
  if (braces && closes && /\{[^]*(,|\.\.)[^]*\}/.test(text)) return { why: 'a {…} brace expansion' };
  return { text };
}

/** One character of a word and whether it was quoted (quoted braces and commas do not expand). */
interface Char {
  c: string;
  q: boolean;
}

/** At most this many fields from one word's brace expansion: beyond it the word counts as unknown. */
const MAX_FIELDS = 1024;

/**
 * The fields a word becomes when bash runs it, where that is known without running anything: quotes removed,
 * `$'…'` decoded, braces expanded. Undefined (with why) for expansions, globs and anything else.
 */
function resolveWord(word: Node): { fields?: string[]; why?: string } {
  const chars: Char[] = [];
  const quoted = (t: string): void => {
    for (const c of t) chars.push({ c, q: true });
  };
  for (const part of list(word?.Parts)) {
    const type = typeOf(part);
    if (type === 'Lit') {
      const raw = str(part.Value);
      for (let i = 0; i < raw.length; i++) {
        const c = raw[i]!;
        if (c === '\\' && i + 1 < raw.length) {
          if (raw[++i] !== '\n') chars.push({ c: raw[i]!, q: true });
          continue;
        }
        if (c === '*' || c === '?' || c === '[') return { why: 'a glob pattern (* ? [) expands to file names' };
        chars.push({ c, q: false });
      }
    } else if (type === 'SglQuoted') {
      quoted(part.Dollar ? decodeAnsiC(str(part.Value)) : str(part.Value));
    } else if (type === 'DblQuoted' && !part.Dollar) {
      for (const inner of list(part.Parts)) {
        if (typeOf(inner) !== 'Lit') return { why: `${describeNode(typeOf(inner))} inside double quotes` };
        const raw = str(inner.Value);
        for (let j = 0; j < raw.length; j++) {
          const c = raw[j]!;
          if (c === '\\' && j + 1 < raw.length && DQ_ESCAPABLE.has(raw[j + 1]!)) {
            if (raw[++j] !== '\n') chars.push({ c: raw[j]!, q: true });
          } else chars.push({ c, q: true });
        }
      }
    } else {
      return { why: describeNode(type) };
    }
  }
  const out = expandBraces(chars, 0);
  return out ? { fields: out } : { why: `a {…} brace expansion of more than ${MAX_FIELDS} words` };
}

/** Bash's brace expansion of one word (`a{b,c}d`, `{1..3}`, `{a..e..2}`, nested); undefined past MAX_FIELDS. */
function expandBraces(chars: Char[], depth: number): string[] | undefined {
  const text = (cs: Char[]): string => cs.map((x) => x.c).join('');
  if (depth > 32) return undefined;
  for (let i = 0; i < chars.length; i++) {
    if (chars[i]!.q || chars[i]!.c !== '{') continue;
    let level = 0;
    const commas: number[] = [];
    let end = -1;
    for (let j = i + 1; j < chars.length; j++) {
      const { c, q } = chars[j]!;
      if (q) continue;
      if (c === '{') level++;
      else if (c === '}' && level > 0) level--;
      else if (c === '}') {
        end = j;
        break;
      } else if (c === ',' && level === 0) commas.push(j);
    }
    if (end < 0) break;
    const before = chars.slice(0, i);
    const after = chars.slice(end + 1);
    let alternatives: Char[][] | undefined;
    if (commas.length) {
      const cuts = [i, ...commas, end];
      alternatives = cuts.slice(1).map((c, k) => chars.slice(cuts[k]! + 1, c));
    } else {
      const body = chars.slice(i + 1, end);
      const seq = body.some((x) => x.q) ? undefined : sequence(text(body));
      if (seq === null) return undefined;
      alternatives = seq?.map((v) => [...v].map((c) => ({ c, q: true })));
    }
    if (!alternatives) continue;
    const out: string[] = [];
    for (const alt of alternatives) {
      const more = expandBraces([...before, ...alt, ...after], depth + 1);
      if (!more || out.length + more.length > MAX_FIELDS) return undefined;
      out.push(...more);
    }
    return out;
  }
  return [text(chars)];
}

/** `{1..5}`, `{01..10..3}`, `{a..e}`: the values, undefined when the body is not a sequence, null when too long. */
function sequence(body: string): string[] | null | undefined {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  const m = num ?? chr;
  if (!m) return undefined;
  const from = num ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = num ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step >= MAX_FIELDS) return null;
  const width = num && /^-?0\d/.test(m[1]!) ? m[1]!.length : num && /^-?0\d/.test(m[2]!) ? m[2]!.length : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step)
    out.push(
      num
        ? v < 0
          ? '-' + String(-v).padStart(width - 1, '0')
          : String(v).padStart(width, '0')
        : String.fromCharCode(v),
    );
  return out;
}

/** The text of `$'…'` as bash decodes it (\\n, \\t, \\xHH, \\NNN octal, \\uHHHH, \\UHHHHHHHH, \\cX …). */
function decodeAnsiC(s: string): string {
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return s.replace(
    /\\(?:([abeEfnrtv\\'"?])|([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|c(.))/g,
    (all, one?: string, oct?: string, hx?: string, u4?: string, u8?: string, ctl?: string) => {
      if (one) return simple[one]!;
      if (oct) return String.fromCharCode(parseInt(oct, 8) & 0xff);
      if (hx) return String.fromCharCode(parseInt(hx, 16));
      const cp = parseInt((u4 ?? u8)!, 16);
      if (u4 || u8) return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
      return String.fromCharCode(ctl!.toUpperCase().charCodeAt(0) ^ 0x40);
    },
  );
}

function describeNode(type: string): string {
  switch (type) {
    case 'ParamExp':
      return 'a $variable expansion';
    case 'CmdSubst':
      return 'a $(…) or `…` command substitution';
    case 'ArithmExp':
      return 'an arithmetic $((…)) or $[…] expansion';
    case 'ProcSubst':
      return 'a <(…) or >(…) process substitution';
    case 'ExtGlob':
      return 'an extended glob';
    case 'BraceExp':
      return 'a {…} brace expansion';
    default:
      return `a ${type} construct`;
  }
}

/** Redirections that change nothing: duplicating descriptors, writing to /dev/null, reading a literal file or here-doc. */
function redirectProblem(r: Node): string | undefined {
  const op = Number(r.Op);
  const target = wordValue(r.Word);
  if (target.text !== undefined && SOCKET_TARGET.test(target.text)) return socketProblem(target.text);
  if (op === REDIR.hdoc || op === REDIR.dashHdoc) {
    const body = wordValue(r.Hdoc);
    // A quoted delimiter keeps the body literal; an unquoted one expands $… and `…` in it.
    if (body.why && !hdocQuoted(r.Word)) return `a here-document with ${body.why}`;
    return target.why ? `a here-document delimiter with ${target.why}` : undefined;
  }
  if (target.why) return `a redirection target with ${target.why}`;
  const t = target.text ?? '';
  if (op === REDIR.dupOut || op === REDIR.dupIn)
    return /^(\d+|-)$/.test(t) ? undefined : `a redirection to the file ${t}`;
  if (op === REDIR.in || op === REDIR.wordHdoc) return undefined;
  if (
    (op === REDIR.out || op === REDIR.append || op === REDIR.all || op === REDIR.appAll || op === REDIR.clobber) &&
    t === '/dev/null'
  )
    return undefined;
  return `a redirection that writes ${t || 'a file'}`;
}

function socketProblem(target: string): string {
  return `a ${SOCKET_TARGET.exec(target)![0].replace(/\/+/g, '/')}… redirection opens a network connection (${target})`;
}

function hdocQuoted(word: Node): boolean {
  return list(word?.Parts).some((p: Node) => typeOf(p) !== 'Lit' || str(p.Value).includes('\\'));
}

/** Statement kinds that only combine simple commands: a line made of these and plain commands is plain. */
const PLAIN_CONTAINERS = new Set([
  'File',
  'Stmt',
  'BinaryCmd',
  'Subshell',
  'Block',
  'CallExpr',
  'Word',
  'Lit',
  'SglQuoted',
  'DblQuoted',
  'Redirect',
  'Assign',
]);

const cache = new BoundedMap<string, ParsedLine>(512);
let parser: { Parse(src: string, name: string): Node } | undefined;

/**
 * Parse a command line. Never throws: a line the parser refuses comes back with parsed = false and notPlain set.
 * Results are cached (the gate, the rules and the approval prompt look at the same line); treat them as read-only.
 */
export function parseCommandLine(line: string): ParsedLine {
  const known = cache.get(line);
  if (known) return known;
  const result = parseUncached(line);
  cache.set(line, result);
  return result;
}

function parseUncached(line: string): ParsedLine {
  if (line.length > MAX_PARSED_LINE)
    return { parsed: false, commands: [], notPlain: `the command is longer than ${MAX_PARSED_LINE} characters` };
  if (line.includes('\0'))
    return { parsed: false, commands: [], notPlain: `the command holds ${splitCharProblem(line)!}` };
  const split = splitCharProblem(line);
  const S = sh();
  let file: Node;
  try {
    parser ??= S.NewParser();
    file = parser.Parse(line, '').__internal_object__;
  } catch (e) {
    parser = undefined;
    const msg =
      typeof (e as Node)?.Error === 'function' ? String((e as Node).Error()) : String((e as Error)?.message ?? e);
    return { parsed: false, commands: [], notPlain: `the shell parser cannot read it (${msg})` };
  }
  const commands: ShellCommand[] = [];
  let notPlain: string | undefined = split && `the command holds ${split}`;
  let network: string | undefined;
  const flag = (why: string): void => {
    notPlain ??= why;
  };
  // Walk the tree: every CallExpr becomes a command; anything that is not a plain container marks the line.
  const visit = (node: Node, topLevel: boolean): void => {
    if (isNil(node)) return;
    const type = typeOf(node);
    if (!PLAIN_CONTAINERS.has(type)) flag(describeNode(type));
    if (type === 'Stmt') {
      if (node.Coprocess) flag('a coprocess');
      for (const r of list(node.Redirs)) {
        const p = redirectProblem(r);
        if (p && SOCKET_TARGET.test(wordValue(r.Word).text ?? '')) network ??= p;
        if (p) {
          flag(p);
          nested(r.Word);
          nested(r.Hdoc);
        }
      }
      visit(node.Cmd, topLevel);
      return;
    }
    if (type === 'File' || type === 'Subshell' || type === 'Block') {
      for (const s of list(node.Stmts)) visit(s, topLevel);
      return;
    }
    if (type === 'BinaryCmd') {
      visit(node.X, topLevel);
      visit(node.Y, topLevel);
      return;
    }
    if (type === 'CallExpr') {
      const assigns = list(node.Assigns).map((a: Node) => {
        if (a.Append || a.Naked || !isNil(a.Index) || !isNil(a.Array)) {
          flag('an array or += assignment');
          return undefined;
        }
        const v = wordValue(a.Value, true);
        if (v.why) {
          flag(v.why);
          nested(a.Value);
        }
        return v.text === undefined ? undefined : `${str(a.Name?.Value)}=${v.text}`;
      });
      const args = list(node.Args).map((w: Node) => {
        const v = wordValue(w);
        if (v.why) {
          flag(v.why);
          nested(w);
        }
        return v.text;
      });
      const literal = [...assigns, ...args].every((x) => x !== undefined);
      const fields: (string[] | undefined)[] = [];
      let unresolved: string | undefined;
      for (const w of list(node.Args)) {
        const f = resolveWord(w);
        fields.push(f.fields);
        unresolved ??= f.why;
      }
      commands.push({
        assigns,
        args,
        literal,
        topLevel,
        ...(literal ? { words: [...assigns, ...args] as string[] } : {}),
        fields,
        ...(unresolved !== undefined ? { unresolved } : {}),
      });
      return;
    }
    // Any other construct (if, for, while, case, function, [[ ]], (( )), declare, let, time, coproc): not plain, but
    // the commands inside it still count for deny rules.
    nested(node);
  };
  // Commands nested in expansions and compound statements: found by walking the subtree.
  const nested = (node: Node): void => {
    walk(node, (n: Node, t: string) => {
      if (t === 'Stmt' && n !== node) {
        visit(n, false);
        return false;
      }
      if (t === 'CmdSubst' || t === 'ProcSubst') flag(describeNode(t));
      return true;
    });
  };
  visit(file, true);
  return {
    parsed: true,
    commands,
    ...(notPlain !== undefined ? { notPlain } : {}),
    ...(network !== undefined ? { network } : {}),
    ...(split !== undefined ? { unreliable: `the command holds ${split}` } : {}),
  };
}

/** Words of a rule or pattern text (`git status`, `sed -n '1,5p' x`): the parser's words, or whitespace split as a fallback. */
const ruleCache = new BoundedMap<string, string[]>(1000);

export function ruleWords(text: string): string[] {
  const known = ruleCache.get(text);
  if (known) return known;
  const words = ruleWordsUncached(text);
  ruleCache.set(text, words);
  return words;
}

function ruleWordsUncached(text: string): string[] {
  const p = parseUncached(text);
  const only = p.commands.length === 1 ? p.commands[0] : undefined;
  if (p.notPlain === undefined && only?.words) return only.words;
  return text.trim().split(/\s+/).filter(Boolean);
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quote one word for a stored rule so that parsing the rule gives the word back. */
export function quoteWord(w: string): string {
  if (w === '') return "''";
  return SAFE_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

export function joinWords(words: string[]): string {
  return words.map(quoteWord).join(' ');
}
