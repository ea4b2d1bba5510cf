// ToolSearch: ranks deferred tools for a query over name words, summary, full description and parameter text
// (the shared TextIndex: field boosts, stemming, prefix/fuzzy, Intl.Segmenter, cross-language expansion),
// with a small phrase bonus for query word pairs that appear side by side; plus exact-name and `select:a,b`.
import { TextIndex, type Expander } from '../search/text-index.js';
import { terms } from '../search/tokenize.js';
import { toSearchDoc, type SearchableTool } from './search-doc.js';

/** Field weights. The name and summary say what a tool is for; parameters only hint. */
export const TOOL_FIELDS = { name: 2, summary: 1.5, description: 1, params: 0.5 } as const;

/** Score multiplier per query word pair found adjacent in a tool's text (capped at PHRASE_CAP pairs). */
const PHRASE_BONUS = 0.15;
const PHRASE_CAP = 3;
/** Candidates re-ranked by the phrase bonus. */
const RERANK_DEPTH = 50;

export interface ToolSearchHit {
  name: string;
  summary: string;
  score: number;
}

export interface ToolSearchResult {
  /** How the query was read: a `select:` list, one exact name, or a ranked search. */
  mode: 'select' | 'exact' | 'ranked';
  tools: ToolSearchHit[];
  /** `select:` names that are not (or no longer) available. */
  missing?: string[];
}

export interface ToolSearchOptions {
  /** Query expansion (synonyms, Chinese↔English). Default: none; the app passes crossLanguageExpander. */
  expander?: Expander;
  fuzzy?: number;
}

function pairs(ts: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < ts.length; i++) out.push(`${ts[i]} ${ts[i + 1]}`);
  return out;
}

export class ToolSearchIndex {
  private readonly index: TextIndex<SearchableTool>;
  private readonly bigrams = new Map<string, Set<string>>();
  private readonly lowerNames = new Map<string, string>();

  constructor(opts: ToolSearchOptions = {}) {
    this.index = new TextIndex<SearchableTool>({
      fields: { ...TOOL_FIELDS },
      extract: (t) => {
        const d = toSearchDoc(t);
        return { name: d.name, summary: d.summary, description: d.description, params: d.params };
      },
      idOf: (t) => t.name,
      ...(opts.expander ? { expand: opts.expander } : {}),
      ...(opts.fuzzy !== undefined ? { fuzzy: opts.fuzzy } : {}),
    });
  }

  get size(): number {
    return this.index.size;
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  addAll(tools: Iterable<SearchableTool>): void {
    const list = [...tools];
    this.index.addAll(list);
    for (const t of list) {
      const d = toSearchDoc(t);
      this.bigrams.set(t.name, new Set(pairs(terms(`${d.name} . ${d.summary} . ${d.description}`))));
      this.lowerNames.set(t.name.toLowerCase(), t.name);
    }
  }

  remove(name: string): void {
    this.index.remove(name);
    this.bigrams.delete(name);
    this.lowerNames.delete(name.toLowerCase());
  }

  /** The real name of a tool given in any letter case, if indexed. */
  resolveName(name: string): string | undefined {
    return this.lowerNames.get(name.trim().toLowerCase());
  }

  private hit(name: string, score: number): ToolSearchHit {
    return { name, summary: this.index.get(name)?.summary ?? '', score };
  }

  search(query: string, limit = 5): ToolSearchResult {
    const q = query.trim();
    const sel = /^select:(.*)$/is.exec(q);
    if (sel) {
      const wanted = sel[1]!.split(',').map((s) => s.trim()).filter(Boolean);
      const found: ToolSearchHit[] = [];
      const missing: string[] = [];
      for (const w of wanted) {
        const real = this.resolveName(w);
        if (real && !found.some((f) => f.name === real)) found.push(this.hit(real, 1));
        else if (!real) missing.push(w);
      }
      return missing.length ? { mode: 'select', tools: found, missing } : { mode: 'select', tools: found };
    }
    const exact = this.resolveName(q);
    if (exact) return { mode: 'exact', tools: [this.hit(exact, Infinity)] };
    if (limit <= 0) return { mode: 'ranked', tools: [] };

    const hits = this.index.search(q, { limit: Math.max(limit, RERANK_DEPTH) });
    const qPairs = pairs(terms(q));
    const ranked = hits.map((h) => {
      let n = 0;
      const bg = this.bigrams.get(h.id);
      if (bg) for (const p of qPairs) if (bg.has(p) && ++n >= PHRASE_CAP) break;
      return { name: h.id, score: h.score * (1 + PHRASE_BONUS * n) };
    });
    ranked.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return { mode: 'ranked', tools: ranked.slice(0, limit).map((r) => this.hit(r.name, r.score)) };
  }
}
