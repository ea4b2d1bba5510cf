// Text → search terms, shared by every index: NFKC + lowercase, identifier splitting
// (camelCase, snake_case, `mcp__a__b`), Intl.Segmenter word boundaries (Chinese included), light stemming.
import { stemmer } from 'stemmer';
import { BoundedMap } from '../base/index.js';

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const HAN = /\p{Script=Han}/u;
const LATIN_WORD = /^[\p{L}\p{N}]+$/u;
/** What splitIdentifiers acts on: an upper-case letter (camelCase) or an identifier separator. */
const SPLIT_AT = /[\p{Lu}_\-./:\\]/u;

export const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in is it its me my of on or please so some that the this ' +
    'to use using want was we what when which will with would you your need help get make just'
  ).split(' '),
);

/** Chinese function words and politeness fillers ("帮我…一下"): dropped like English stop words. */
const ZH_STOPWORDS = new Set(
  (
    '的 了 吗 呢 吧 啊 呀 我 你 他 她 它 我们 你们 是 在 和 与 及 或 把 被 给 帮 帮我 帮忙 请 请问 一下 一个 这个 那个 这 那 ' +
    '怎么 如何 什么 想 我想 要 需要 能 能否 可以 可能 就 都 也 还 又 很 对 从 用 让 上 下 里 中 个 些 有 没有 做 弄 搞 看看 一些 到 去 来 得 地 着 过 吗 该 应该 怎样 哪些 哪个 所有 时候 时'
  ).split(' '),
);
for (const w of ZH_STOPWORDS) STOPWORDS.add(w);

export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Split an identifier-ish string into words: `readFile` → `read File`, `mcp__gh__list_prs` → `mcp gh list prs`. */
export function splitIdentifiers(text: string): string {
  // Nothing to split without a capital letter or a separator (most messages): one scan instead of three replaces.
  if (!SPLIT_AT.test(text)) return text;
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_\-./:\\]+/g, ' ');
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** Word-like segments of a text, normalised, no stemming. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(normalize(splitIdentifiers(text)))) {
    if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

/** Stem a single normalised word (English only; Han and digits pass through). */
export function stem(word: string): string {
  if (word.length < 4) return word;
  let s = stems.get(word);
  if (s === undefined) {
    s = !LATIN_WORD.test(word) || hasHan(word) ? word : stemmer(word);
    stems.set(word, s);
  }
  return s;
}

/** Stems of words seen (a vocabulary repeats: every message and index reuses most of its words), bounded. */
const MAX_STEMS = 20_000;
const stems = new BoundedMap<string, string>(MAX_STEMS);

/** Index/query terms of one whitespace-free chunk, uncached. */
function chunkTerms(chunk: string, keepStopwords: boolean): string[] {
  const out: string[] = [];
  for (const w of words(chunk)) {
    if (!keepStopwords && STOPWORDS.has(w)) continue;
    out.push(stem(w));
  }
  return out;
}

/*
 * Whitespace always ends a word (UAX #29, and the Chinese dictionary segmenter works within runs of Han), so a
 * text's terms are its whitespace-separated chunks' terms in order, and chunks repeat: "the", "deploy", a
 * Chinese phrase. Each chunk is segmented and stemmed once, then served from a bounded cache (indexing 10,000
 * skills segments a few thousand distinct chunks instead of every word of every field).
 */
const CACHE_LIMIT = 100_000;
const cache = [
  new BoundedMap<string, readonly string[]>(CACHE_LIMIT),
  new BoundedMap<string, readonly string[]>(CACHE_LIMIT),
] as const;
const SPACE = /\s+/;

const ASCII = /^[\x00-\x7f]*$/;
/** Word runs as UAX #29 sees them: `overflow's`, `e.g`, `60,000` and `2.7` stay one word, like Intl.Segmenter. */
const ASCII_WORD = /[a-z0-9_]+(?:(?:(?<=[a-z])['’.:](?=[a-z])|(?<=[0-9])['’.,;](?=[0-9]))[a-z0-9_]+)*/g;

/**
 * Index/query terms: words, stop words dropped, stemmed. ASCII text takes a regular-expression path that gives the
 * segmenter's words ~10× faster (indexing thousands of tools); other text is segmented chunk by chunk.
 */
export function terms(text: string, opts: { keepStopwords?: boolean } = {}): string[] {
  const keep = opts.keepStopwords === true;
  if (ASCII.test(text)) {
    const out: string[] = [];
    for (const w of normalize(splitIdentifiers(text)).match(ASCII_WORD) ?? [])
      if (keep || !STOPWORDS.has(w)) out.push(stem(w));
    return out;
  }
  const memo = cache[keep ? 1 : 0];
  const out: string[] = [];
  for (const chunk of text.split(SPACE)) {
    if (!chunk) continue;
    let t = memo.get(chunk);
    if (t === undefined) {
      t = chunkTerms(chunk, keep);
      memo.set(chunk, t);
    }
    for (let i = 0; i < t.length; i++) out.push(t[i]!);
  }
  return out;
}

/** The same terms without the chunk cache (the reference the cached path is checked against). */
export function termsUncached(text: string, opts: { keepStopwords?: boolean } = {}): string[] {
  return chunkTerms(text, opts.keepStopwords === true);
}
