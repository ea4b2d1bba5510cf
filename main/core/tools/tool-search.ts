// ToolSearch: ranks deferred tools for a request over name words, summary, description and parameter text (BM25F
// in ToolIndex: request normalisation, prefix/typo matching, cross-language expansion, coordination), one round of
// pseudo-relevance feedback (RM3), phrase and tool-name bonuses; plus exact-name and `select:a,b`.
import type { Expander } from '../search/text-index.js';
import { fastTerms as terms } from './fast-terms.js';
import { ToolIndex, type FieldSpec } from './tool-index.js';
import { toSearchDoc, type SearchableTool } from './search-doc.js';
import type { QueryNormalization } from '../search/query.js';

/** Field weights and length normalisation. The name and summary say what a tool is for; parameters only hint. */
export const TOOL_FIELDS: Record<'name' | 'summary' | 'description' | 'params', FieldSpec> = {
  name: { weight: 2, b: 0.5 },
  summary: { weight: 1.5, b: 0.75 },
  description: { weight: 1, b: 0.75 },
  params: { weight: 0.5, b: 0.75 },
};

/** Score multiplier per query word pair found adjacent in a tool's text (capped at PHRASE_CAP pairs). */
const PHRASE_BONUS = 0.15;
const PHRASE_CAP = 3;
/** Candidates re-ranked by the phrase bonus. */
const RERANK_DEPTH = 50;

/**
 * Pseudo-relevance feedback (RM3): the words that characterise the best `docs` first-pass hits (`terms` of them)
 * are added to the query with a share `weight` of its total weight, and the first-pass candidates are scored again
 * with it (no tool that shares nothing with the request is pulled in). It lifts tools that describe the task the
 * top hits share in words the request did not use.
 *
 * These settings and the ones below were chosen together on the even-indexed half of BOTH fixtures (Gorilla and
 * BFCL), one configuration for both, by the smaller of the two recall@5 ratios to BM25; the odd halves are held
 * out (see test/bench/tools.bench.ts).
 */
export const FEEDBACK = { docs: 3, terms: 20, weight: 0.25 } as const;
/** Coordination exponent: score × (share of the request's words matched)^COVERAGE. */
export const COVERAGE = 0.5;
/** Score × (1 + NAME_BONUS × share of the tool name's words the request contains). */
export const NAME_BONUS = 0.2;
/** How requests are read: value types (a date, a time, a URL) searched as their type word at full weight. */
export const NORMALIZE: QueryNormalization = { hintWeight: 1 };

export interface FeedbackOptions {
  docs: number;
  terms: number;
  /** Share of the expanded query's weight given to the feedback terms (0–1). */
  weight: number;
}

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
  /** Field weights (default TOOL_FIELDS). */
  fields?: Record<string, FieldSpec>;
  k1?: number;
  /** Score multiplier per adjacent query word pair found in a tool's text (default PHRASE_BONUS). */
  phraseBonus?: number;
  prefixWeight?: number;
  fuzzyWeight?: number;
  idfPower?: number;
  /** Pseudo-relevance feedback (default FEEDBACK); false turns it off. */
  feedback?: FeedbackOptions | false;
  /** Score multiplier 1 + nameBonus × (share of the tool name's words the request contains). */
  nameBonus?: number;
  /** Coordination exponent (ToolIndex `coverage`). */
  coverage?: number;
  /** Further expansions at their own weights (e.g. WordNet synonyms). */
  moreExpansions?: { expand: Expander; weight: number; unknownOnly?: boolean }[];
  /** Query normalisation (default on); false reads every word of a request at full weight. */
  normalize?: QueryNormalization | false;
}

function pairs(ts: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < ts.length; i++) out.push(`${ts[i]} ${ts[i + 1]}`);
  return out;
}

export class ToolSearchIndex {
  private readonly index: ToolIndex;
  private readonly tools = new Map<string, SearchableTool>();
  private readonly bigrams = new Map<string, Set<string>>();
  private readonly lowerNames = new Map<string, string>();
  private readonly nameTerms = new Map<string, string[]>();
  private readonly nameBonus: number;
  private readonly phraseBonus: number;
  private readonly feedback: FeedbackOptions | false;

  constructor(opts: ToolSearchOptions = {}) {
    this.phraseBonus = opts.phraseBonus ?? PHRASE_BONUS;
    this.nameBonus = opts.nameBonus ?? NAME_BONUS;
    this.feedback = opts.feedback ?? FEEDBACK;
    this.index = new ToolIndex({
      fields: opts.fields ?? TOOL_FIELDS,
      ...(opts.k1 !== undefined ? { k1: opts.k1 } : {}),
      ...(opts.prefixWeight !== undefined ? { prefixWeight: opts.prefixWeight } : {}),
      ...(opts.fuzzyWeight !== undefined ? { fuzzyWeight: opts.fuzzyWeight } : {}),
      ...(opts.idfPower !== undefined ? { idfPower: opts.idfPower } : {}),
      normalize: opts.normalize ?? NORMALIZE,
      coverage: opts.coverage ?? COVERAGE,
      ...(opts.moreExpansions ? { moreExpansions: opts.moreExpansions } : {}),
      ...(opts.expander ? { expand: opts.expander } : {}),
    });
  }

  get size(): number {
    return this.tools.size;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  addAll(tools: Iterable<SearchableTool>): void {
    for (const t of tools) {
      const d = toSearchDoc(t);
      this.index.add(t.name, { name: d.name, summary: d.summary, description: d.description, params: d.params });
      this.tools.set(t.name, t);
      this.bigrams.set(t.name, new Set(pairs(terms(`${d.name} . ${d.summary} . ${d.description}`))));
      this.lowerNames.set(t.name.toLowerCase(), t.name);
      this.nameTerms.set(t.name, [...new Set(terms(d.name))]);
    }
  }

  remove(name: string): void {
    this.index.remove(name);
    this.tools.delete(name);
    this.bigrams.delete(name);
    this.lowerNames.delete(name.toLowerCase());
    this.nameTerms.delete(name);
  }

  /** The real name of a tool given in any letter case, if indexed. */
  resolveName(name: string): string | undefined {
    return this.lowerNames.get(name.trim().toLowerCase());
  }

  private hit(name: string, score: number): ToolSearchHit {
    return { name, summary: this.tools.get(name)?.summary ?? '', score };
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

    const depth = Math.max(limit, RERANK_DEPTH);
    const plan = this.index.queryPlan(q);
    let hits = this.index.searchPlan(plan, depth);
    const fb = this.feedback;
    if (fb && fb.weight > 0 && hits.length > 1) {
      // RM3 re-scoring of the candidates: (1 − w)·score/Σ query weights + w·score under the feedback terms.
      // Linear in the terms, so the first-pass score is reused and only the feedback part is computed.
      const total = plan.reduce((a, p) => a + p.weight, 0) || 1;
      const extra = this.index.scoreDocs(hits.map((h) => h.id), this.index.feedbackTerms(hits.slice(0, fb.docs), fb.terms));
      hits = hits.map((h, i) => ({ id: h.id, score: ((1 - fb.weight) * h.score) / total + fb.weight * extra[i]! }));
    }
    const qPairs = pairs(terms(q));
    const planTerms = new Set(plan.map((p) => p.term));
    const ranked = hits.map((h) => {
      let n = 0;
      const bg = this.bigrams.get(h.id);
      if (bg) for (const p of qPairs) if (bg.has(p) && ++n >= PHRASE_CAP) break;
      let named = 0;
      const nt = this.nameTerms.get(h.id);
      if (this.nameBonus > 0 && nt?.length) named = nt.filter((t) => planTerms.has(t)).length / nt.length;
      return { name: h.id, score: h.score * (1 + this.phraseBonus * n) * (1 + this.nameBonus * named) };
    });
    ranked.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return { mode: 'ranked', tools: ranked.slice(0, limit).map((r) => this.hit(r.name, r.score)) };
  }
}
