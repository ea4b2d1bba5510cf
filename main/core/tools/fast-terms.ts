// Search terms for ToolSearch, identical in meaning to the shared tokenizer (search/tokenize.ts: identifier
// splitting, NFKC + lowercase, stop words, the same stemmer) but with an ASCII fast path: Intl.Segmenter is only
// used for text that needs it (Chinese, other scripts), which makes indexing thousands of tools ~10× faster.
import { normalize, splitIdentifiers, stem, STOPWORDS, terms as sharedTerms } from '../search/index.js';

const ASCII = /^[\x00-\x7f]*$/;
/** Word runs as UAX #29 sees them: `overflow's`, `e.g`, `60,000` and `2.7` stay one word, like Intl.Segmenter. */
const WORD = /[a-z0-9_]+(?:(?:(?<=[a-z])['’.:](?=[a-z])|(?<=[0-9])['’.,;](?=[0-9]))[a-z0-9_]+)*/g;
const stems = new Map<string, string>();

function cachedStem(w: string): string {
  let s = stems.get(w);
  if (s === undefined) {
    s = stem(w);
    if (stems.size > 200_000) stems.clear();
    stems.set(w, s);
  }
  return s;
}

export function fastTerms(text: string): string[] {
  if (!ASCII.test(text)) return sharedTerms(text);
  const out: string[] = [];
  const words = normalize(splitIdentifiers(text)).match(WORD);
  if (!words) return out;
  for (const w of words) {
    if (STOPWORDS.has(w)) continue;
    out.push(cachedStem(w));
  }
  return out;
}
