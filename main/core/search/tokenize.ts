// Text → search terms, shared by every index: NFKC + lowercase, identifier splitting
// (camelCase, snake_case, `mcp__a__b`), Intl.Segmenter word boundaries (Chinese included), light stemming.
import { stemmer } from 'stemmer';

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const HAN = /\p{Script=Han}/u;
const LATIN_WORD = /^[\p{L}\p{N}]+$/u;

export const STOPWORDS = new Set(
  ('a an and are as at be by can do does for from how i in is it its me my of on or please so some that the this ' +
    'to use using want was we what when which will with would you your need help get make just').split(' '),
);

export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Split an identifier-ish string into words: `readFile` → `read File`, `mcp__gh__list_prs` → `mcp gh list prs`. */
export function splitIdentifiers(text: string): string {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_\-./:\\]+/g, ' ');
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** Word-like segments of a text, normalised, no stemming. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(normalize(splitIdentifiers(text)))) {
    if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/** Stem a single normalised word (English only; Han and digits pass through). */
export function stem(word: string): string {
  if (!LATIN_WORD.test(word) || hasHan(word) || word.length < 4) return word;
  return stemmer(word);
}

/** Index/query terms: words, stop words dropped, stemmed. */
export function terms(text: string, opts: { keepStopwords?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (!opts.keepStopwords && STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}
