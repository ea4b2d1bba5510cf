// The audit's prefilter: one pass over a text (an Aho-Corasick automaton over every rule's hints) says which rules
// can match it at all, so a line with no hint costs one scan and no regex. Case-insensitive, like the hints.
import type { AuditRule } from './audit-rules.js';

/** Which rules' hints occur in a text: bit i of word i >> 5 ↔ rules[i]. */
export type RuleMask = Uint32Array;

export interface HintScanner {
  /** The rules (in rule-book order) the masks index. */
  readonly rules: readonly AuditRule[];
  /** Words per mask. */
  readonly words: number;
  /** A fresh, empty mask. */
  mask(): RuleMask;
  /**
   * Set in `out` (cleared first) the bit of every rule with a hint in `text`, case-insensitively and reading any run of
   * whitespace as one space (so it never misses a hint the normalised text would show); returns whether any was set.
   */
  scan(text: string, out: RuleMask): boolean;
}

/** Build the automaton for a rule book. Hints are lowercase ASCII (checked here: a rule book that breaks it throws). */
export function hintScanner(rules: readonly AuditRule[]): HintScanner {
  const words = Math.max(1, Math.ceil(rules.length / 32));
  // Character classes: each character used in a hint has its own, every other character is class 0.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const r of rules) {
    if (!r.hints.length) throw new Error(`audit rule ${r.id} has no hints: the prefilter would never run it`);
    for (const h of r.hints) {
      if (!h || h !== h.toLowerCase() || /[^\x20-\x7e]|\s\s/.test(h)) throw new Error(`audit rule ${r.id}: hint ${JSON.stringify(h)} must be lowercase printable ASCII, single spaces inside`);
      for (let i = 0; i < h.length; i++) {
        const c = h.charCodeAt(i);
        if (!classOf[c]) classOf[c] = classes++;
      }
    }
  }
  if (!classOf[32]) classOf[32] = classes++;
  // Upper-case letters fold onto their lower-case class.
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32]!;
  // The trie of hints, then failure links (breadth first) and the full transition table.
  const children: Map<number, number>[] = [new Map()];
  const outs: number[][] = [[]];
  rules.forEach((r, i) => {
    for (const h of r.hints) {
      let s = 0;
      for (let k = 0; k < h.length; k++) {
        const c = classOf[h.charCodeAt(k)]!;
        let t = children[s]!.get(c);
        if (t === undefined) {
          t = children.push(new Map()) - 1;
          outs.push([]);
          children[s]!.set(c, t);
        }
        s = t;
      }
      if (!outs[s]!.includes(i)) outs[s]!.push(i);
    }
  });
  const states = children.length;
  const next = new Uint16Array(states * classes);
  const fail = new Uint16Array(states);
  const queue: number[] = [];
  for (let c = 1; c < classes; c++) {
    const t = children[0]!.get(c);
    if (t !== undefined) {
      next[c] = t;
      queue.push(t);
    }
  }
  while (queue.length) {
    const s = queue.shift()!;
    for (const o of outs[fail[s]!]!) if (!outs[s]!.includes(o)) outs[s]!.push(o);
    for (let c = 1; c < classes; c++) {
      const t = children[s]!.get(c);
      if (t !== undefined) {
        fail[t] = next[fail[s]! * classes + c]!;
        next[s * classes + c] = t;
        queue.push(t);
      } else next[s * classes + c] = next[fail[s]! * classes + c]!;
    }
  }
  // Per state, the rules whose hints end there (suffixes included): flagged, and as masks.
  const hasOut = new Uint8Array(states);
  const outMask = new Uint32Array(states * words);
  for (let s = 0; s < states; s++) {
    for (const i of outs[s]!) {
      hasOut[s] = 1;
      outMask[s * words + (i >> 5)]! |= 1 << (i & 31);
    }
  }

  const space = classOf[32]!;
  const iClass = classOf[105]!;
  const kClass = classOf[107]!;

  return {
    rules,
    words,
    mask: () => new Uint32Array(words),
    scan(text, out) {
      out.fill(0);
      let s = 0;
      let white = false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let k: number;
        if (c < 128) {
          if (c === 32 || (c >= 9 && c <= 13)) {
            // A run of whitespace reads as one space, as the audit's normalisation writes it.
            if (white) continue;
            white = true;
            k = space;
          } else {
            white = false;
            k = classOf[c]!;
          }
        } else if (isSpace(c)) {
          if (white) continue;
          white = true;
          k = space;
        } else {
          white = false;
          // Lower-cased, only two characters outside ASCII become ASCII letters: İ (then a combining dot) and K (Kelvin).
          if (c === 0x130) {
            s = next[s * classes + iClass]!;
            if (hasOut[s]) for (let w = 0; w < words; w++) out[w]! |= outMask[s * words + w]!;
            s = 0;
            continue;
          }
          k = c === 0x212a ? kClass : 0;
        }
        s = next[s * classes + k]!;
        if (hasOut[s]) for (let w = 0; w < words; w++) out[w]! |= outMask[s * words + w]!;
      }
      for (let w = 0; w < words; w++) if (out[w]) return true;
      return false;
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
