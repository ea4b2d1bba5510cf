// The baseline for the SkillSearch latency bench: SkillSearch's previous index on MiniSearch (field boosts, prefix
// and fuzzy matching, query expansion), kept as it was so both engines run the same skills and requests side by side.
import MiniSearch, { type SearchResult } from 'minisearch';
import { terms } from '../../../main/core/search/tokenize.js';
import { expandQuery, type Hit, type TextIndexOptions } from '../../../main/core/search/text-index.js';

export class MiniSearchTextIndex<T> {
  private readonly mini: MiniSearch<Record<string, string>>;
  private readonly opts: TextIndexOptions<T>;
  private readonly docs = new Map<string, T>();

  constructor(opts: TextIndexOptions<T>) {
    this.opts = opts;
    this.mini = new MiniSearch<Record<string, string>>({
      idField: '__id',
      fields: Object.keys(opts.fields),
      tokenize: (text) => terms(text),
      processTerm: (t) => t,
      searchOptions: { boost: opts.fields },
    });
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: string): T | undefined {
    return this.docs.get(id);
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  addAll(docs: Iterable<T>): void {
    const batch: Record<string, string>[] = [];
    for (const d of docs) {
      const id = this.opts.idOf(d);
      if (this.docs.has(id)) this.remove(id);
      this.docs.set(id, d);
      batch.push({ ...this.opts.extract(d), __id: id });
    }
    this.mini.addAll(batch);
  }

  remove(id: string): void {
    if (!this.docs.has(id)) return;
    this.mini.discard(id);
    this.docs.delete(id);
  }

  clear(): void {
    this.mini.removeAll();
    this.docs.clear();
  }

  /** Query terms after tokenisation and expansion, with their weights. */
  queryTerms(query: string): Map<string, number> {
    return expandQuery(query, this.opts).weights;
  }

  search(query: string, opts: { limit?: number; filter?: (doc: T) => boolean } = {}): Hit[] {
    const { weights, source, own } = expandQuery(query, this.opts);
    if (weights.size === 0) return [];
    const fuzzy = this.opts.fuzzy ?? 0.2;
    const prefixMin = this.opts.prefixMin ?? 3;
    const results: SearchResult[] = this.mini.search(
      { queries: [...weights.keys()], combineWith: 'OR' },
      {
        // Query terms are already tokenised and stemmed: stemming them again would miss exact matches.
        tokenize: (t) => [t],
        processTerm: (t) => t,
        prefix: (t) => t.length >= prefixMin && own.has(t),
        // Typos are forgiven in the user's own words only; translations and synonyms must match as written.
        fuzzy: (t) => (fuzzy > 0 && t.length > 4 && own.has(t) ? fuzzy : false),
        // One edit is enough for a typo; more makes large indexes slow (p99) and matches unrelated words.
        maxFuzzy: this.opts.maxFuzzy ?? 1,
        boostTerm: (t) => weights.get(t) ?? 1,
        filter: opts.filter ? (r) => opts.filter!(this.docs.get(r.id as string)!) : undefined,
      },
    );
    // MiniSearch multiplies a score by the number of query terms matched; count the user's words instead,
    // so many translations of one word do not outrank a document that has the word itself.
    const rescored = results.map((r) => {
      const covered = new Set(r.queryTerms.map((q) => source.get(q) ?? q)).size;
      return { r, score: (r.score / Math.max(1, r.queryTerms.length)) * Math.max(1, covered) };
    });
    rescored.sort((a, b) => b.score - a.score);
    const limit = opts.limit ?? 10;
    return rescored.slice(0, limit).map(({ r, score }) => {
      const match: Record<string, string[]> = {};
      for (const [term, fields] of Object.entries(r.match)) {
        for (const f of fields) (match[f] ??= []).push(term);
      }
      return { id: r.id as string, score, match };
    });
  }
}
