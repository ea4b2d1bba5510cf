// A plain Okapi BM25 ranker (k1 = 1.2, b = 0.75): the baseline ToolSearch and SkillSearch are measured against.
// Deliberately simple — lowercase word tokens minus English stop words, no stemming, no field weights.

export interface Bm25Doc {
  id: string;
  text: string;
}

/** A standard English stop-word list (the classic Snowball/NLTK one). */
const STOP = new Set(
  (
    "a about above after again against all am an and any are aren't as at be because been before being below between both but by can't " +
    "cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't have " +
    "haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't " +
    "it it's its itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over " +
    "own same shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then there " +
    "there's these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're " +
    "we've were weren't what what's when when's where where's which while who who's whom why why's with won't would wouldn't you " +
    "you'd you'll you're you've your yours yourself yourselves"
  ).split(' '),
);

export function bm25Tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t));
}

export class Bm25 {
  private readonly ids: string[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, Map<number, number>>();
  private avgLen = 0;

  /** `tokenize` defaults to bm25Tokens (no stemming); pass the shared tokenizer for a stemmed baseline. */
  constructor(
    docs: Iterable<Bm25Doc>,
    readonly k1 = 1.2,
    readonly b = 0.75,
    private readonly tokenize: (text: string) => string[] = bm25Tokens,
  ) {
    let total = 0;
    for (const d of docs) {
      const i = this.ids.length;
      this.ids.push(d.id);
      const toks = this.tokenize(d.text);
      this.lengths.push(toks.length);
      total += toks.length;
      for (const t of toks) {
        let p = this.postings.get(t);
        if (!p) this.postings.set(t, (p = new Map()));
        p.set(i, (p.get(i) ?? 0) + 1);
      }
    }
    this.avgLen = this.ids.length ? total / this.ids.length : 0;
  }

  search(query: string, limit = 10): { id: string; score: number }[] {
    const n = this.ids.length;
    const scores = new Map<number, number>();
    for (const t of new Set(this.tokenize(query))) {
      const p = this.postings.get(t);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5));
      for (const [i, tf] of p) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * this.lengths[i]!) / this.avgLen);
        scores.set(i, (scores.get(i) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    return [...scores.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([i, score]) => ({ id: this.ids[i]!, score }));
  }
}
