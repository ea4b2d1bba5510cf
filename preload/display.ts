// Text shown to a person for approval (terminal prompt, app dialog, logs): every control, bidi and invisible
// formatting character escaped, so a path or command cannot move the cursor, erase a line or reorder what is read.

/**
 * Characters that change how the surrounding text is shown rather than showing themselves: C0 controls and DEL,
 * C1 controls (0x9B is an 8-bit CSI), bidi embeddings/overrides/isolates and marks, zero-width and invisible
 * formatting characters, line and paragraph separators, the byte order mark, interlinear annotations, tag characters.
 */
const UNSAFE_RANGES: [number, number][] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xd800, 0xdfff],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];
const hex = (n: number): string => `\\u{${n.toString(16)}}`;
// Built from code points (a literal class would mix combining marks into it); `u` mode: lone surrogates match too.
const UNSAFE = new RegExp(
  `[${UNSAFE_RANGES.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`,
  'gu',
);

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

/** True when `text` would be changed by displaySafe (it holds something that is not shown as itself). */
export function hasUnsafeDisplay(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const hit = UNSAFE.test(String(text));
  UNSAFE.lastIndex = 0;
  return hit;
}
