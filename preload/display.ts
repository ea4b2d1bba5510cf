// Text shown to a person for approval (terminal prompt, app dialog, logs): every control, bidi and invisible
// formatting character escaped, so a path or command cannot move the cursor, erase a line or reorder what is read.

/**
 * The one table of characters that are not shown as themselves, by kind. Display escapes every kind; the skill audit
 * (main/core/skills/trust/normalize.ts) counts and removes the kinds that hide text in prose: zero-width, bidi, tag.
 * It lives here, not in main/core/base, because the contract (and so this file) depends on nothing in main/.
 */
export type InvisibleKind = 'control' | 'zero-width' | 'bidi' | 'tag' | 'other';
export const INVISIBLE: Record<InvisibleKind, readonly (readonly [number, number])[]> = {
  /** C0 controls and DEL, C1 controls (0x9B is an 8-bit CSI). */
  control: [
    [0x00, 0x1f],
    [0x7f, 0x9f],
  ],
  /**
   * Zero-width and blank formatting characters: soft hyphen, combining grapheme joiner, Hangul fillers, Khmer inherent
   * vowels, Mongolian vowel separator, zero-width space/joiners, word joiner and invisible operators, deprecated format
   * characters, byte order mark, interlinear annotations, and past the BMP the format controls that draw nothing
   * (Egyptian hieroglyph joiners, shorthand format controls, musical beams and ties): `cu\u{1D173}rl` reads as curl.
   */
  'zero-width': [
    [0xad, 0xad],
    [0x34f, 0x34f],
    [0x115f, 0x1160],
    [0x17b4, 0x17b5],
    [0x180e, 0x180e],
    [0x200b, 0x200d],
    [0x2060, 0x2065],
    [0x206a, 0x206f],
    [0x3164, 0x3164],
    [0xfeff, 0xfeff],
    [0xffa0, 0xffa0],
    [0xfff9, 0xfffb],
    [0x13430, 0x1343f],
    [0x1bca0, 0x1bca3],
    [0x1d173, 0x1d17a],
  ],
  /** Bidirectional controls (Trojan Source): Arabic letter mark, marks, embeddings, overrides, isolates. */
  bidi: [
    [0x61c, 0x61c],
    [0x200e, 0x200f],
    [0x202a, 0x202e],
    [0x2066, 0x2069],
  ],
  /** Tag characters (invisible ASCII) and the variation selectors supplement: both can smuggle text. */
  tag: [
    [0xe0000, 0xe007f],
    [0xe0100, 0xe01ef],
  ],
  /**
   * Shown escaped, but ordinary in text: Mongolian and emoji variation selectors, line/paragraph separators, lone
   * surrogates, and the format characters that draw a sign over the digits after them (Arabic, Syriac, Kaithi).
   */
  other: [
    [0x600, 0x605],
    [0x6dd, 0x6dd],
    [0x70f, 0x70f],
    [0x890, 0x891],
    [0x8e2, 0x8e2],
    [0x110bd, 0x110bd],
    [0x110cd, 0x110cd],
    [0x180b, 0x180d],
    [0x180f, 0x180f],
    [0x2028, 0x2029],
    [0xfe00, 0xfe0f],
    [0xd800, 0xdfff],
  ],
};

const hex = (n: number): string => `\\u{${n.toString(16)}}`;
/**
 * A character class (`u` mode, where lone surrogates match too) of the given kinds, built from code points: a literal
 * class would mix combining marks into it.
 */
export function invisibleClass(kinds: readonly InvisibleKind[], flags = 'gu'): RegExp {
  const ranges = kinds.flatMap((k) => INVISIBLE[k]).map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`));
  return new RegExp(`[${ranges.join('')}]`, flags);
}

const UNSAFE = invisibleClass(Object.keys(INVISIBLE) as InvisibleKind[]);

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const cp = c.codePointAt(0)!;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

/** One line of display-safe text: every unsafe character (newlines and tabs too) written as a visible escape. */
export function displaySafe(text: string): string {
  return String(text).replace(UNSAFE, escapeChar);
}

/** Like displaySafe, but real line breaks stay (for multi-line text such as a diff); everything else is escaped. */
export function displaySafeLines(text: string): string {
  return String(text).split('\n').map(displaySafe).join('\n');
}
