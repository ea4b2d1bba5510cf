// The audit's prefilters: one pass over a text (an Aho-Corasick automaton over every rule's hints) says which rules
// can match it at all, and one pass over a file says which lines hold anything any rule could act on. Case-insensitive.
import type { AuditRule } from './audit-rules.js';
import { hasBase64Run } from './normalize.js';

/** Which rules' hints occur in a text: bit i of word i >> 5 ↔ rules[i] (words past the rules are scratch). */
export type RuleMask = Uint32Array;

export interface HintScanner {
  /** The rules (in rule-book order) the masks index. */
  readonly rules: readonly AuditRule[];
  /** Words per mask. */
  readonly words: number;
  /** A fresh, empty mask. */
  mask(): RuleMask;
  /**
   * Set in `out` (cleared first) the bit of every rule with a hint in `text` (or one of each side of its hint pair),
   * case-insensitively and reading any run of whitespace as one space (so it never misses a hint the normalised text
   * would show); returns whether any was set.
   */
  scan(text: string, out: RuleMask): boolean;
}

/** A rule's hints are lowercase printable ASCII with single spaces inside (a rule book that breaks it throws). */
function checkHint(id: string, h: string): void {
  if (!h || h !== h.toLowerCase() || /[^\x20-\x7e]|\s\s|^ /.test(h))
    throw new Error(
      `audit rule ${id}: hint ${JSON.stringify(h)} must be lowercase printable ASCII, single spaces inside, not first`,
    );
}

/**
 * A dense automaton over groups of lowercase ASCII strings, over character classes: `cls[c]` is the class of an ASCII
 * character (each character used in a string has its own, upper case folds onto lower case, ASCII whitespace onto
 * the space, every other character is class 0); `next[state * width + class]`; per state, the groups whose strings
 * end there (suffixes included). A run of whitespace steps as one space: a state entered by a space stays put on the
 * next one (no string starts with a space, so the start state needs no care).
 */
interface Automaton {
  next: Uint16Array;
  width: number;
  cls: Uint8Array;
  words: number;
  out: Uint32Array;
  hasOut: Uint8Array;
  /** Every state, breadth first (the start state first). */
  order: Uint16Array;
}

function automaton(groups: readonly (readonly string[])[]): Automaton {
  const words = Math.max(1, Math.ceil(groups.length / 32));
  const cls = new Uint8Array(128);
  let width = 1;
  let states = 1;
  for (const strings of groups) {
    for (const h of strings) {
      states += h.length;
      for (let k = 0; k < h.length; k++) if (!cls[h.charCodeAt(k)]) cls[h.charCodeAt(k)] = width++;
    }
  }
  if (!cls[32]) cls[32] = width++;
  for (let c = 65; c <= 90; c++) cls[c] = cls[c + 32]!;
  for (let c = 9; c <= 13; c++) cls[c] = cls[32]!;
  const space = cls[32]!;
  // The trie, straight into the transition table (0 = no child yet: no string returns to the start state).
  let next = new Uint16Array(states * width);
  let out = new Uint32Array(states * words);
  const spaceEnded = new Uint8Array(states);
  let used = 1;
  groups.forEach((strings, g) => {
    for (const h of strings) {
      let s = 0;
      for (let k = 0; k < h.length; k++) {
        const c = cls[h.charCodeAt(k)]!;
        let t = next[s * width + c]!;
        if (!t) {
          t = used++;
          next[s * width + c] = t;
          if (c === space) spaceEnded[t] = 1;
        }
        s = t;
      }
      out[s * words + (g >> 5)]! |= 1 << (g & 31);
    }
  });
  if (used > 0xffff) throw new Error('audit hints: too many automaton states');
  next = next.slice(0, used * width);
  out = out.slice(0, used * words);
  // Failure links breadth first: a missing transition is the failure state's; outputs include the failure state's.
  const fail = new Uint16Array(used);
  const queue = new Uint16Array(used);
  let tail = 0;
  for (let c = 1; c < width; c++) if (next[c]) queue[tail++] = next[c]!;
  for (let head = 0; head < tail; head++) {
    const s = queue[head]!;
    const f = fail[s]!;
    for (let w = 0; w < words; w++) out[s * words + w]! |= out[f * words + w]!;
    for (let c = 1; c < width; c++) {
      const t = next[s * width + c]!;
      if (t) {
        fail[t] = next[f * width + c]!;
        queue[tail++] = t;
      } else next[s * width + c] = next[f * width + c]!;
    }
  }
  for (let s = 0; s < used; s++) if (spaceEnded[s]) next[s * width + space] = s;
  const hasOut = new Uint8Array(used);
  for (let s = 0; s < used; s++) for (let w = 0; w < words; w++) if (out[s * words + w]) hasOut[s] = 1;
  const order = new Uint16Array(used);
  order.set(queue.subarray(0, tail), 1);
  return { next, width, cls, words, out, hasOut, order };
}

/** The hint groups of a rule book: group i is rule i's hints, then both sides of each rule's hint pair. */
function hintGroups(rules: readonly AuditRule[]): {
  groups: string[][];
  pairs: { rule: number; a: number; b: number }[];
} {
  const groups: string[][] = [];
  const pairs: { rule: number; a: number; b: number }[] = [];
  rules.forEach((r) => {
    if (!r.hints.length && !r.hintPair)
      throw new Error(`audit rule ${r.id} has no hints: the prefilter would never run it`);
    for (const h of [...r.hints, ...(r.hintPair?.flat() ?? [])]) checkHint(r.id, h);
    groups.push([...r.hints]);
  });
  rules.forEach((r, i) => {
    if (!r.hintPair) return;
    pairs.push({ rule: i, a: groups.push([...r.hintPair[0]]) - 1, b: groups.push([...r.hintPair[1]]) - 1 });
  });
  return { groups, pairs };
}

/** Build the automaton for a rule book. */
export function hintScanner(rules: readonly AuditRule[]): HintScanner {
  const { groups, pairs } = hintGroups(rules);
  const { next, width, cls, words, out: outMask, hasOut } = automaton(groups);
  const ruleWords = Math.ceil(rules.length / 32);
  const space = cls[32]!;
  const iClass = cls[105]!;
  const kClass = cls[107]!;
  // The hint pairs as numbers (group of each side, rule), and the words past the rules cleared by `keep`: rulesOf
  // below runs without a branch, so every load in it has run (and has type feedback) before any real text is scanned.
  const pairCount = pairs.length;
  const pairA = Int32Array.from(pairs, (p) => p.a);
  const pairB = Int32Array.from(pairs, (p) => p.b);
  const pairRule = Int32Array.from(pairs, (p) => p.rule);
  const keep = new Uint32Array(words).fill(0xffffffff);
  for (let g = rules.length; g < words * 32; g++) keep[g >> 5]! &= ~(1 << (g & 31));

  return {
    rules,
    words,
    mask: () => new Uint32Array(words),
    scan(text, out) {
      out.fill(0);
      let s = 0;
      let hit = false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        // Lower-cased, only two characters outside ASCII become ASCII letters: İ (then a combining dot, which ends
        // any hint: the state goes back to the start after it) and K (Kelvin).
        const k = c < 128 ? cls[c]! : c === 0x130 ? iClass : c === 0x212a ? kClass : isSpace(c) ? space : 0;
        s = next[s * width + k]!;
        if (hasOut[s]) {
          hit = true;
          for (let w = 0; w < words; w++) out[w]! |= outMask[s * words + w]!;
        }
        if (c === 0x130) s = 0;
      }
      return hit && rulesOf(out);
    },
  };

  /** The rules a text's hints give, from the groups found: a pair's rule when both its sides are there (in place). */
  function rulesOf(out: RuleMask): boolean {
    for (let p = 0; p < pairCount; p++) {
      const a = pairA[p]!;
      const b = pairB[p]!;
      const r = pairRule[p]!;
      out[r >> 5]! |= ((out[a >> 5]! >>> (a & 31)) & (out[b >> 5]! >>> (b & 31)) & 1) << (r & 31);
    }
    // Pair sides alone are no rule's hint: the scratch words past the rules are cleared.
    let any = 0;
    for (let w = 0; w < words; w++) {
      const m = (out[w]! &= keep[w]!);
      if (w < ruleWords) any |= m;
    }
    return any !== 0;
  }
}

/** The line prefilter's byte automaton (entries and marks are row offsets: state << shift). */
interface ByteAutomaton {
  /** Transitions: `table[s | byteClass[byte]]`, rows 1 << shift wide. */
  table: Int32Array;
  shift: number;
  byteClass: Uint8Array;
  /** Marks: a state at or above `flag` is worth a look; `loud`, `cr` (NL is every other mark). */
  flag: number;
  loud: number;
  cr: number;
  /** The space's class (a CR not before LF steps as a space). */
  space: number;
  /** The pair-side bits of each flagged state, by (state - flag) >> shift. */
  bits: Uint32Array;
  /** Bit p of the mask: bits p and p + 1 of a line are the two sides of a hint pair. */
  pairMask: number;
}

export interface LineFilter {
  /**
   * For each of `lines`, 1 when nothing in it can give a finding on its own: it is plain ASCII without NUL, holds no rule's hint
   * (nor both sides of a hint pair), none of the `triggers` (text a rewrite acts on, see audit.ts) and no run of 24
   * base64 characters. Prose is also read without its code spans (audit.ts blanks them out) for some rules (`masked`),
   * which can join the words of a multi-word hint of theirs across a span: the words before each space of such a hint,
   * then a backtick, count too.
   */
  quiet(lines: readonly string[]): Uint8Array;
  /**
   * The same over a file's UTF-8 bytes, line i being what `text.split(/\r?\n/)[i]` is once decoded (an ASCII byte is
   * never part of a longer sequence, so the newlines are the same; any byte past ASCII makes its line loud).
   */
  quietBytes(buf: Uint8Array): Uint8Array;
}

/**
 * The line prefilter for a rule book and the rewrites' trigger strings (lowercase ASCII). `masked`: the rules audit.ts
 * also runs on prose with its code spans blanked out (default: every rule); only their hints are looked for across a
 * span (a fence line's backticks are no reason to read it unless such a hint starts with one).
 */
export function lineFilter(
  rules: readonly AuditRule[],
  triggers: readonly string[],
  masked: (r: AuditRule) => boolean = () => true,
): LineFilter {
  const { groups, pairs } = hintGroups(rules);
  for (const t of triggers) checkHint('(rewrite trigger)', t);
  // Group 0: anything that makes the line worth reading; then both sides of each hint pair.
  const pairGroups = pairs.flatMap((p) => [groups[p.a]!, groups[p.b]!]);
  const spanned = (h: string): string[] =>
    [...h.matchAll(/ /g)].flatMap((m) => [h.slice(0, m.index) + '`', h.slice(0, m.index) + ' `']);
  const loud = [...groups.slice(0, rules.length).flat(), ...triggers];
  const acrossSpans = [
    ...rules.flatMap((r, i) => (masked(r) ? groups[i]! : [])),
    ...pairs.flatMap((p) => (masked(rules[p.rule]!) ? [...groups[p.a]!, ...groups[p.b]!] : [])),
  ];
  loud.push(...acrossSpans.flatMap(spanned));
  if (pairGroups.length > 30) throw new Error('audit hints: too many hint pairs');
  const input = [[...new Set(loud)], ...pairGroups];
  const text = automaton(input);
  const { next, width, cls, out } = text;
  const bytes = byteFilter(byteAutomaton(next, width, cls, out, text.order, pairGroups.length));
  // Both sides of a pair seen: the byte automaton's test, its bits laid out as these (see byteAutomaton's pairMask).
  const { pairMask } = bytes.automaton;
  const paired = (bits: number): boolean => ((bits >>> 1) & bits & pairMask) !== 0;
  return {
    quiet(lines) {
      const quiet = new Uint8Array(lines.length);
      for (let n = 0; n < lines.length; n++) {
        const line = lines[n]!;
        let s = 0;
        let bits = 0;
        let i = 0;
        for (; i < line.length; i++) {
          const c = line.charCodeAt(i);
          if (c > 127 || c === 0) break;
          s = next[s * width + cls[c]!]!;
          const o = out[s]!;
          if (o) {
            if (o & 1) break;
            bits |= o;
          }
        }
        if (i < line.length || (line.length >= 24 && hasBase64Run(line))) continue;
        if (!bits || !paired(bits)) quiet[n] = 1;
      }
      return quiet;
    },
    quietBytes: bytes.js,
  };
}

/** Base64 characters, by byte. */
const B64_BYTE = new Uint8Array(256);
for (let c = 0; c < 128; c++) B64_BYTE[c] = /[A-Za-z0-9+/]/.test(String.fromCharCode(c)) ? 1 : 0;

/**
 * Whether bytes [start, end) hold 24 base64 characters in a row: any such run covers one of every 24th position, so
 * only those are looked at, and the run around a hit is measured (as hasBase64Run does on a string).
 */
function base64Run(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start + 23; i < end; i += 24) {
    if (!B64_BYTE[buf[i]!]) continue;
    let lo = i;
    let hi = i;
    while (lo > start && B64_BYTE[buf[lo - 1]!]) lo--;
    while (hi + 1 < end && B64_BYTE[buf[hi + 1]!]) hi++;
    if (hi - lo + 1 >= 24) return true;
    i = hi;
  }
  return false;
}

/**
 * The line prefilter as a byte automaton, one table step per byte: the text automaton's states renumbered so that a
 * state worth a look (it ends a side of a hint pair) is at or above FLAG, with the marks LOUD (anything past ASCII, or
 * a loud string: the rest of the line does not matter), NL (a line ends) and CR (a line ends when LF follows, else a
 * space) above those. Rows are 1 << SHIFT wide (the classes, padded), so a step is `next[(s << SHIFT) | cls[byte]]`.
 */
function byteAutomaton(
  next: Uint16Array,
  width: number,
  cls: Uint8Array,
  out: Uint32Array,
  order: Uint16Array,
  pairSides: number,
): ByteAutomaton {
  const states = next.length / width;
  const words = out.length / states;
  // New numbers: quiet states first (the start state stays 0), then the ones with pair bits, then the marks; each
  // part breadth first, so the shallow states most text stays in have neighbouring rows.
  const id = new Int32Array(states).fill(-1);
  let plain = 0;
  for (let k = 0; k < states; k++) {
    const s = order[k]!;
    if (out[s * words]! === 0) id[s] = plain++;
  }
  let flagged = plain;
  for (let k = 0; k < states; k++) {
    const s = order[k]!;
    const o = out[s * words]!;
    if (o !== 0 && (o & 1) === 0) id[s] = flagged++;
  }
  if (out[0]) throw new Error('audit hints: the start state cannot match');
  const FLAG = plain;
  const LOUD = flagged;
  const NL = flagged + 1;
  const CR = flagged + 2;
  if (CR > 0xffff) throw new Error('audit hints: too many automaton states');
  const lfClass = width;
  const crClass = width + 1;
  const highClass = width + 2;
  let SHIFT = 0;
  while (1 << SHIFT < width + 3) SHIFT++;
  // Entries are row offsets (a state's number << SHIFT), so a step is one load: `next[s | cls[byte]]`.
  const target = new Int32Array(states);
  for (let s = 0; s < states; s++) target[s] = ((out[s * words]! & 1) === 1 ? LOUD : id[s]!) << SHIFT;
  const table = new Int32Array(flagged << SHIFT);
  const bits = new Uint32Array(flagged - FLAG);
  for (let s = 0; s < states; s++) {
    const n = id[s]!;
    if (n < 0) continue;
    if (n >= FLAG) bits[n - FLAG] = out[s * words]!;
    const row = n << SHIFT;
    const from = s * width;
    for (let c = 0; c < width; c++) table[row | c] = target[next[from + c]!]!;
    table[row | lfClass] = NL << SHIFT;
    table[row | crClass] = CR << SHIFT;
    table[row | highClass] = LOUD << SHIFT;
  }
  const byteClass = new Uint8Array(256).fill(highClass);
  byteClass.set(cls.subarray(0, 128));
  byteClass[10] = lfClass;
  byteClass[13] = crClass;
  // A NUL byte makes its line loud, as a byte past ASCII does: a file whose every line is quiet holds none.
  byteClass[0] = highClass;
  let pairMask = 0;
  for (let p = 1; p < pairSides; p += 2) pairMask |= 1 << p;
  return {
    table,
    shift: SHIFT,
    byteClass,
    flag: FLAG << SHIFT,
    loud: LOUD << SHIFT,
    cr: CR << SHIFT,
    space: cls[32]!,
    bits,
    pairMask,
  };
}

/** quietBytes over a byte automaton. */
function byteFilter(automaton: ByteAutomaton): {
  js: (buf: Uint8Array) => Uint8Array;
  automaton: ByteAutomaton;
} {
  const { table, byteClass, bits, space, flag: F, loud: L, cr: R, shift: SHIFT, pairMask } = automaton;
  const paired = (b: number): boolean => ((b >>> 1) & b & pairMask) !== 0;
  let scratch = new Uint8Array(1024);

  const js = function quietBytes(buf: Uint8Array): Uint8Array {
    const len = buf.length;
    const T = table;
    const C = byteClass;
    let q = scratch;
    let n = 0;
    let s = 0;
    let b = 0;
    let start = 0;
    let loud = false;
    for (let i = 0; i < len; i++) {
      let t = T[s | C[buf[i]!]!]!;
      if (t < F) {
        s = t;
        continue;
      }
      if (t === R) {
        // A CR just before LF belongs to the line break, as in `split(/\r?\n/)`; any other CR is whitespace.
        if (i + 1 < len && buf[i + 1] === 10) continue;
        t = T[s | space]!;
        if (t < F) {
          s = t;
          continue;
        }
      }
      if (t < L) {
        b |= bits[(t - F) >> SHIFT]!;
        s = t;
        continue;
      }
      if (t === L) {
        // The rest of the line does not matter.
        loud = true;
        const nl = buf.indexOf(10, i + 1);
        if (nl === -1) break;
        i = nl;
      }
      // The end of a line (i is its LF).
      if (n === q.length) {
        const grown = new Uint8Array(q.length * 2);
        grown.set(q);
        q = scratch = grown;
      }
      q[n++] = loud || (b !== 0 && paired(b)) || (i - start >= 24 && base64Run(buf, start, i)) ? 0 : 1;
      s = 0;
      b = 0;
      loud = false;
      start = i + 1;
    }
    const quiet = new Uint8Array(n + 1);
    quiet.set(q.subarray(0, n));
    quiet[n] = loud || (b !== 0 && paired(b)) || (len - start >= 24 && base64Run(buf, start, len)) ? 0 : 1;
    return quiet;
  };
  return { js, automaton };
}

/** Whitespace outside ASCII, as `\s` in a regex has it. */
function isSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
