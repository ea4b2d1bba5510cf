// Text shown to a person for approval (terminal prompt, app dialog, logs): every control, bidi and invisible
// formatting character escaped, so a path or command cannot move the cursor, erase a line or reorder what is read.

/**
 * Characters that change how the surrounding text is shown rather than showing themselves: C0 controls and DEL,
 * C1 controls (0x9B is an 8-bit CSI), bidi embeddings/overrides/isolates and marks, zero-width and invisible
 * formatting characters, line and paragraph separators, the byte order mark, interlinear annotations, tag characters.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

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
