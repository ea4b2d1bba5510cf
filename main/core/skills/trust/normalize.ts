// Text normalisation before audit matching: hidden Unicode found and removed (and reported), NFKC, whitespace collapse,
// and de-obfuscation of common string tricks in scripts ("ev"+"al", global["eval"], \x65val, fromCharCode, base64).

import { invisibleClass } from '../../../../preload/display.js';

/** The invisible characters that hide text in prose, from the one shared table: zero-width, bidi controls, tags. */
const ZERO_WIDTH = invisibleClass(['zero-width']);
const BIDI = invisibleClass(['bidi']);
const TAGS = invisibleClass(['tag']);
const MAY_HIDE = invisibleClass(['zero-width', 'bidi', 'tag'], 'u');

export interface HiddenText {
  zeroWidth: number;
  bidi: number;
  tags: number;
  /** ASCII smuggled in tag characters, decoded. */
  decodedTags: string;
  /** Cyrillic/Greek look-alike letters inside otherwise Latin words ("іgnore"), read as the Latin letter. */
  homoglyphs?: number;
}

/** Cyrillic and Greek letters that look like Latin ones. */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ӏ: 'l',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ɡ: 'g',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

/** Words that mix Latin with Cyrillic/Greek letters, folded to Latin: `іgnоre` → `ignore`. Whole foreign words stay. */
function foldHomoglyphs(line: string): { text: string; count: number } {
  let count = 0;
  const text = line.replace(/[\p{L}\p{M}]+/gu, (word) => {
    if (!LATIN.test(word) || !CYRILLIC_GREEK.test(word)) return word;
    return [...word]
      .map((ch) => {
        const l = CONFUSABLE[ch];
        if (l) count++;
        return l ?? ch;
      })
      .join('');
  });
  return { text, count };
}

export interface NormalizedLine {
  /** NFKC, hidden characters removed, whitespace collapsed. */
  text: string;
  hidden?: HiddenText;
}

/** A zero-width joiner inside an emoji sequence (👩‍💻, 👨‍👩‍👧, 🏳️‍🌈): part of the picture, not hidden text. */
const EMOJI_ZWJ = /(\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])?)\u200D(?=\p{Extended_Pictographic})/gu;
/** Scripts whose spelling uses ZWJ/ZWNJ between letters (Persian می‌خواهم, Devanagari क्‍ष, Sinhala, Khmer …). */
const JOINING =
  '\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Nko}\\p{Script=Mongolian}\\p{Script=Devanagari}\\p{Script=Bengali}' +
  '\\p{Script=Gurmukhi}\\p{Script=Gujarati}\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}\\p{Script=Kannada}\\p{Script=Malayalam}' +
  '\\p{Script=Sinhala}\\p{Script=Khmer}\\p{Script=Myanmar}\\p{Script=Tibetan}\\p{Script=Thaana}\\p{Script=Hebrew}';
const SCRIPT_JOINER = new RegExp(`([${JOINING}]\\p{M}*)[\\u200C\\u200D](?=[${JOINING}])`, 'gu');
/**
 * Right-to-left letters: a line holding them may carry direction marks (LRM, RLM, ALM) as ordinary typography. Letters
 * only: the Arabic letter mark (U+061C) is of the Arabic script itself, and must not make its own line right-to-left prose.
 */
const RTL_LETTER = /(?=\p{L})[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const DIRECTION_MARK = /[\u200E\u200F\u061C]/g;
/** A subdivision flag (🏴 + 2–6 tag letters/digits + cancel tag: England, Scotland, Wales): an emoji, not smuggled text. */
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu;

/**
 * The line without the invisible characters ordinary writing uses: joiners inside emoji and inside the letters of
 * scripts that spell with them, direction marks in right-to-left prose, subdivision flags. What remains is counted.
 */
function withoutTypography(line: string): string {
  let t = line;
  if (t.includes('\u200D')) t = t.replace(EMOJI_ZWJ, '$1');
  if (/[\u200C\u200D]/.test(t)) t = t.replace(SCRIPT_JOINER, '$1');
  if (RTL_LETTER.test(t)) t = t.replace(DIRECTION_MARK, '');
  if (t.includes('\u{1F3F4}')) t = t.replace(FLAG_TAGS, '');
  return t;
}

/** Whitespace that `\s+ → ' '` would change: any whitespace but a plain space, or two spaces in a row. */
const COLLAPSIBLE = /[^\S ]| {2}/;

/** The hidden characters of a line, counted (not the ones ordinary typography uses); undefined when there are none. */
function hiddenIn(line: string): HiddenText | undefined {
  const counted = withoutTypography(line);
  const zw = counted.match(ZERO_WIDTH)?.length ?? 0;
  const bd = counted.match(BIDI)?.length ?? 0;
  const tagChars = counted.match(TAGS) ?? [];
  // A BOM at the very start of a file is not hidden text.
  const zeroWidth = zw - (counted.startsWith('\uFEFF') ? 1 : 0);
  if (zeroWidth <= 0 && bd <= 0 && tagChars.length <= 0) return undefined;
  const decodedTags = tagChars
    .map((c) => c.codePointAt(0)! - 0xe0000)
    .filter((n) => n >= 0x20 && n < 0x7f)
    .map((n) => String.fromCharCode(n))
    .join('');
  return { zeroWidth, bidi: bd, tags: tagChars.length, decodedTags };
}

export function normalizeLine(line: string): NormalizedLine {
  let hidden: HiddenText | undefined;
  // Fast path: plain ASCII lines need no Unicode work; lines with nothing hidden (MAY_HIDE), only NFKC and homoglyphs.
  if (/[^\x00-\x7e]/.test(line)) {
    if (MAY_HIDE.test(line)) {
      hidden = hiddenIn(line);
      line = line.replace(ZERO_WIDTH, '').replace(BIDI, '').replace(TAGS, '');
    }
    line = line.normalize('NFKC');
    if (CYRILLIC_GREEK.test(line)) {
      const folded = foldHomoglyphs(line);
      if (folded.count > 0) {
        line = folded.text;
        hidden = { ...(hidden ?? { zeroWidth: 0, bidi: 0, tags: 0, decodedTags: '' }), homoglyphs: folded.count };
      }
    }
  }
  // Collapsing whitespace allocates a new string: only when there is whitespace other than single spaces.
  const text = (COLLAPSIBLE.test(line) ? line.replace(/\s+/g, ' ') : line).trim();
  return hidden ? { text, hidden } : { text };
}

/**
 * Undo trivial obfuscation in code: escapes, string concatenation, bracket property access, fromCharCode.
 * Returns the rewritten text (equal to the input when nothing was hidden).
 */
export function deobfuscate(code: string): string {
  let t = code;
  if (t.includes('\\')) {
    t = t
      .replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\u\{([0-9a-fA-F]{1,6})\}/g, (_, h: string) => safeCodePoint(parseInt(h, 16)))
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  if (t.includes('fromCharCode')) {
    t = t.replace(/String\.fromCharCode\(\s*([\d\s,]+)\)/g, (_, nums: string) =>
      JSON.stringify(
        nums
          .split(',')
          .map((n) => String.fromCharCode(Number(n.trim()) & 0xffff))
          .join(''),
      ),
    );
  }
  if (t.includes('chr(')) {
    t = t.replace(/(?:chr\(\s*\d+\s*\)\s*\+?\s*){2,}/g, (m) =>
      JSON.stringify(
        [...m.matchAll(/chr\(\s*(\d+)\s*\)/g)].map((x) => String.fromCharCode(Number(x[1]) & 0xffff)).join(''),
      ),
    );
  }
  // r""m, r''m: an empty quoted string inside a shell word adds nothing (`r""m -rf /` is rm).
  if (t.includes('""') || t.includes("''")) t = t.replace(/(?<=[\w/.-])(?:""|'')+(?=[\w/.-])/g, '');
  // "ev" + "al" → "eval" (repeat for longer chains), also Python implicit concatenation "ev" "al".
  for (let i = 0; i < 8 && (t.includes('"') || t.includes("'")); i++) {
    // A replacement pattern, not a function: no call per match ($2 and $4 are inserted as they are).
    const next = t.replace(/(["'])([^"'\n\\]*)\1\s*\+?\s*(["'])([^"'\n\\]*)\3/g, '"$2$4"');
    if (next === t) break;
    t = next;
  }
  // global["eval"](…) / window['Function'] / obj["child_process"] → global.eval(…). `exec`/`compile` are also
  // ordinary methods (`regex["exec"](s)`): bare only on a global object (Python's __builtins__["exec"]).
  if (t.includes('[')) {
    t = t.replace(
      /([\w$)\]])\s*\[\s*["'`]([A-Za-z_$][\w$]*)["'`]\s*\]/g,
      (m, obj: string, name: string, at: number) => {
        const owner = /[\w$]*$/.exec(t.slice(0, at + obj.length))?.[0] ?? obj;
        const bare =
          /^(?:eval|Function|__import__)$/.test(name) || (/^(?:exec|compile)$/.test(name) && GLOBALS.test(owner));
        return bare ? ` ${name}` : `${obj}.${name}`;
      },
    );
  }
  // __import__("os") / importlib.import_module("os") → os
  if (t.includes('import'))
    t = t.replace(/\b(?:__import__|(?:importlib\.)?import_module)\(\s*["'](\w+)["']\s*\)/g, '$1');
  // require("child_" + "process") was joined above; getattr(os, "system") → os.system
  if (t.includes('getattr')) t = t.replace(/getattr\(\s*([\w.]+)\s*,\s*["'](\w+)["']\s*\)/g, '$1.$2');
  // global.eval / window.Function / __builtins__.exec are the bare builtins
  if (BUILTIN_NAME.test(t))
    t = t.replace(
      /\b(?:globalThis|global|window|self|top|parent|frames|__builtins__|builtins)\s*\.\s*(eval|exec|Function|compile|__import__)\b/g,
      ' $1',
    );
  return t;
}

/**
 * Lowercase strings without which deobfuscate() leaves a line as it is (whitespace in them stands for any run): the
 * line prefilter (audit-hints.ts) reads a line that holds none of them, and no rule's hint, as having nothing to find.
 * Keep in step with the rewrites above (a test checks that a line with none of them comes back unchanged).
 */
export const REWRITE_TRIGGERS: readonly string[] = [
  '\\x',
  '\\u',
  'fromcharcode',
  'chr(',
  'getattr(',
  '__import__(',
  'import_module(',
  // "a" + "b", "a" "b", 'a''b': a closing quote, then an opening one.
  ...['"', "'"].flatMap((a) => ['"', "'"].flatMap((b) => ['', ' ', '+', ' +', '+ ', ' + '].map((mid) => a + mid + b))),
  // x["eval"], x[ 'exec' ]
  ...['"', "'", '`'].flatMap((q) => ['[' + q, '[ ' + q]),
  ...['globalthis', 'global', 'window', 'self', 'top', 'parent', 'frames', '__builtins__', 'builtins'].flatMap((g) => [
    g + '.',
    g + ' .',
  ]),
];

/** The builtins the last rewrite looks for (checked first: most code lines hold none). */
const BUILTIN_NAME = /eval|exec|Function|compile|__import__/;
const GLOBALS = /^(?:globalThis|global|window|self|top|parent|frames|__builtins__|builtins)$/;

function safeCodePoint(n: number): string {
  try {
    return String.fromCodePoint(n);
  } catch {
    return '';
  }
}

const B64 = /[A-Za-z0-9+/]{24,}={0,2}/g;
const B64_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) B64_CHAR[c] = /[A-Za-z0-9+/]/.test(String.fromCharCode(c)) ? 1 : 0;

/**
 * Whether the line holds 24 base64 characters in a row (what B64 needs), without a regex step per character: any such
 * run covers one of every 24th position, so only those are looked at, and the run around a hit is measured.
 */
export function hasBase64Run(line: string): boolean {
  const n = line.length;
  for (let i = 23; i < n; i += 24) {
    const c = line.charCodeAt(i);
    if (c >= 128 || !B64_CHAR[c]) continue;
    let lo = i;
    let hi = i;
    while (lo > 0) {
      const d = line.charCodeAt(lo - 1);
      if (d < 128 && B64_CHAR[d]) lo--;
      else break;
    }
    while (hi + 1 < n) {
      const d = line.charCodeAt(hi + 1);
      if (d < 128 && B64_CHAR[d]) hi++;
      else break;
    }
    if (hi - lo + 1 >= 24) return true;
    i = hi;
  }
  return false;
}

/** Base64 blobs in a line that decode to mostly printable text (returned decoded). */
const NO_BLOBS: readonly string[] = Object.freeze([]);

export function decodeBase64Blobs(line: string): readonly string[] {
  if (!hasBase64Run(line)) return NO_BLOBS;
  const out: string[] = [];
  for (const m of line.matchAll(B64)) {
    const blob = m[0];
    if (!/[0-9+/]/.test(blob) || !/[a-z]/.test(blob) || !/[A-Z]/.test(blob)) continue; // identifiers and words are not base64
    const buf = Buffer.from(blob, 'base64');
    if (buf.length < 12) continue;
    let printable = 0;
    for (const b of buf) if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
    if (printable / buf.length >= 0.9) out.push(buf.toString('latin1'));
  }
  return out;
}
