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
  if (!h || h !== h.toLowerCase() || /[^\x20-\x7e]|\s\s|^ /.test(h)) throw new Error(`audit rule ${id}: hint ${JSON.stringify(h)} must be lowercase printable ASCII, single spaces inside, not first`);
}

/**
 * A dense automaton over groups of lowercase ASCII strings: `next[state * 128 + char]` (upper case folded onto lower
 * case, every character outside ASCII is 0) and, per state, the groups whose strings end there (suffixes included).
 */
interface Automaton {
  next: Uint16Array; words: number; out: Uint32Array; hasOut: Uint8Array;
  /** States entered by a space (the last character of their prefix). */
  spaceEnded: Uint8Array;
}

function automaton(groups: readonly (readonly string[])[]): Automaton {
  const words = Math.max(1, Math.ceil(groups.length / 32));
  const children: Map<number, number>[] = [new Map()];
  const outs: number[][] = [[]];
  const last: number[] = [0];
  groups.forEach((strings, g) => {
    for (const h of strings) {
      let s = 0;
      for (let k = 0; k < h.length; k++) {
        const c = h.charCodeAt(k);
        let t = children[s]!.get(c);
        if (t === undefined) {
          t = children.push(new Map()) - 1;
          outs.push([]);
          last.push(c);
          children[s]!.set(c, t);
        }
        s = t;
      }
      if (!outs[s]!.includes(g)) outs[s]!.push(g);
    }
  });
  const states = children.length;
  if (states > 0xffff) throw new Error('audit hints: too many automaton states');
  const next = new Uint16Array(states * 128);
  const fail = new Uint16Array(states);
  const queue: number[] = [];
  for (let c = 1; c < 128; c++) {
    const t = children[0]!.get(c);
    if (t !== undefined) {
      next[c] = t;
      queue.push(t);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    for (const o of outs[fail[s]!]!) if (!outs[s]!.includes(o)) outs[s]!.push(o);
    for (let c = 1; c < 128; c++) {
      const t = children[s]!.get(c);
      if (t !== undefined) {
        fail[t] = next[fail[s]! * 128 + c]!;
        next[s * 128 + c] = t;
        queue.push(t);
      } else next[s * 128 + c] = next[fail[s]! * 128 + c]!;
    }
  }
  // Upper-case letters step like their lower-case letters.
  for (let s = 0; s < states; s++) for (let c = 65; c <= 90; c++) next[s * 128 + c] = next[s * 128 + c + 32]!;
  const hasOut = new Uint8Array(states);
  const out = new Uint32Array(states * words);
  for (let s = 0; s < states; s++) {
    for (const g of outs[s]!) {
      hasOut[s] = 1;
      out[s * words + (g >> 5)]! |= 1 << (g & 31);
    }
  }
  return { next, words, out, hasOut, spaceEnded: Uint8Array.from(last, (c) => (c === 32 ? 1 : 0)) };
}

/** The hint groups of a rule book: group i is rule i's hints, then both sides of each rule's hint pair. */
function hintGroups(rules: readonly AuditRule[]): { groups: string[][]; pairs: { rule: number; a: number; b: number }[] } {
  const groups: string[][] = [];
  const pairs: { rule: number; a: number; b: number }[] = [];
  rules.forEach((r) => {
    if (!r.hints.length && !r.hintPair) throw new Error(`audit rule ${r.id} has no hints: the prefilter would never run it`);
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
  const { next, words, out: outMask, hasOut } = automaton(groups);
  const ruleWords = Math.ceil(rules.length / 32);
  const has = (m: Uint32Array, g: number): boolean => ((m[g >> 5]! >>> (g & 31)) & 1) === 1;

  return {
    rules,
    words,
    mask: () => new Uint32Array(words),
    scan(text, out) {
      out.fill(0);
      let s = 0;
      let white = false;
      let hit = false;
      for (let i = 0; i < text.length; i++) {
        let c = text.charCodeAt(i);
        if (c < 128) {
          if (c === 32 || (c >= 9 && c <= 13)) {
            // A run of whitespace reads as one space, as the audit's normalisation writes it.
            if (white) continue;
            white = true;
            c = 32;
          } else white = false;
        } else if (isSpace(c)) {
          if (white) continue;
          white = true;
          c = 32;
        } else {
          white = false;
          // Lower-cased, only two characters outside ASCII become ASCII letters: İ (then a combining dot) and K (Kelvin).
          if (c === 0x130) {
            s = next[s * 128 + 105]!;
            if (hasOut[s]) {
              hit = true;
              for (let w = 0; w < words; w++) out[w]! |= outMask[s * words + w]!;
            }
            s = 0;
            continue;
          }
          c = c === 0x212a ? 107 : 0;
        }
        s = next[s * 128 + c]!;
        if (hasOut[s]) {
          hit = true;
          for (let w = 0; w < words; w++) out[w]! |= outMask[s * words + w]!;
        }
      }
      if (!hit) return false;
      for (const p of pairs) if (has(out, p.a) && has(out, p.b)) out[p.rule >> 5]! |= 1 << (p.rule & 31);
      // Pair sides alone are no rule's hint: the scratch words past the rules are cleared.
      if (pairs.length) {
        for (let g = rules.length; g < words * 32; g++) out[g >> 5]! &= ~(1 << (g & 31));
      }
      for (let w = 0; w < ruleWords; w++) if (out[w]) return true;
      return false;
    },
  };
}

export interface LineFilter {
  /**
   * For each of `lines`, 1 when nothing in it can give a finding on its own: it is plain ASCII, holds no rule's hint
   * (nor both sides of a hint pair), none of the `triggers` (text a rewrite acts on, see audit.ts) and no run of 24
   * base64 characters. Prose is also read without its code spans (audit.ts blanks them out), which can join the words
   * of a multi-word hint across a span: the words before each space of such a hint, then a backtick, count too.
   */
  quiet(lines: readonly string[]): Uint8Array;
}

/** The line prefilter for a rule book and the rewrites' trigger strings (lowercase ASCII). */
export function lineFilter(rules: readonly AuditRule[], triggers: readonly string[]): LineFilter {
  const { groups, pairs } = hintGroups(rules);
  for (const t of triggers) checkHint('(rewrite trigger)', t);
  // Group 0: anything that makes the line worth reading; then both sides of each hint pair.
  const pairGroups = pairs.flatMap((p) => [groups[p.a]!, groups[p.b]!]);
  const spanned = (h: string): string[] => [...h.matchAll(/ /g)].flatMap((m) => [h.slice(0, m.index) + '`', h.slice(0, m.index) + ' `']);
  const loud = [...groups.slice(0, rules.length).flat(), ...triggers];
  loud.push(...[...loud, ...pairGroups.flat()].flatMap(spanned));
  if (pairGroups.length > 30) throw new Error('audit hints: too many hint pairs');
  const { next, out, spaceEnded } = automaton([[...new Set(loud)], ...pairGroups]);
  // A run of whitespace reads as one space: every ASCII space character steps as a space, and a state just entered
  // by a space stays where it is on the next one (no hint starts with a space, so the start state needs no care).
  const map = new Uint8Array(128);
  for (let c = 0; c < 128; c++) map[c] = c === 32 || (c >= 9 && c <= 13) ? 32 : c;
  for (let st = 0; st < spaceEnded.length; st++) if (spaceEnded[st]) next[st * 128 + 32] = st;
  return {
    quiet(lines) {
      const quiet = new Uint8Array(lines.length);
      for (let n = 0; n < lines.length; n++) {
        const line = lines[n]!;
        let s = 0;
        let bits = 0;
        let loudLine = false;
        for (let i = 0; i < line.length; i++) {
          const c = line.charCodeAt(i);
          if (c > 127) {
            loudLine = true;
            break;
          }
          s = next[(s << 7) | map[c]!]!;
          const o = out[s]!;
          if (o) {
            if (o & 1) {
              loudLine = true;
              break;
            }
            bits |= o;
          }
        }
        if (loudLine || (line.length >= 24 && hasBase64Run(line))) continue;
        let paired = false;
        for (let p = 1; p < pairGroups.length && !paired; p += 2) paired = ((bits >>> p) & 3) === 3;
        if (!paired) quiet[n] = 1;
      }
      return quiet;
    },
  };
}

/** Whitespace outside ASCII, as `\s` in a regex has it. */
function isSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether rule `i` is set in a mask. */
export function hasRule(mask: RuleMask, i: number): boolean {
  return ((mask[i >> 5]! >>> (i & 31)) & 1) === 1;
}
