// ToolSearch: ranks deferred tools for a request over name words, summary, description and parameter text (BM25F in
// the shared RankedIndex: request normalisation, prefix/typo matching, cross-language expansion, coordination), one
// round of pseudo-relevance feedback (RM3), phrase and tool-name bonuses; plus exact-name and `select:a,b`.
import {
  lowerBound,
  RankedIndex,
  terms,
  type Expander,
  type FeedbackOptions,
  type FieldSpec,
} from '../search/index.js';
import { toSearchDoc, type SearchableTool } from './search-doc.js';
import type { QueryNormalization } from '../search/index.js';

/** Field weights and length normalisation. The name and summary say what a tool is for; parameters only hint. */
const TOOL_FIELDS: Record<'name' | 'summary' | 'description' | 'params', FieldSpec> = {
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
const FEEDBACK = { docs: 3, terms: 20, weight: 0.25 } as const;
/** Coordination exponent: score × (share of the request's words matched)^COVERAGE. */
const COVERAGE = 0.5;
/** Score × (1 + NAME_BONUS × share of the tool name's words the request contains). */
const NAME_BONUS = 0.2;
/** How requests are read: value types (a date, a time, a URL) searched as their type word at full weight. */
const NORMALIZE: QueryNormalization = { hintWeight: 1 };

export type { FeedbackOptions };

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
  /** Coordination exponent (RankedIndex `coverage`). */
  coverage?: number;
  /** Further expansions at their own weights (e.g. WordNet synonyms). */
  moreExpansions?: { expand: Expander; weight: number; unknownOnly?: boolean }[];
  /** Query normalisation (default on); false reads every word of a request at full weight. */
  normalize?: QueryNormalization | false;
}

/** Key of an adjacent term pair (term ids are below 2^26: far more distinct words than any tool set has). */
const pairKey = (a: number, b: number) => a * 0x4000000 + b;
function hasSorted(xs: readonly number[], x: number): boolean {
  const i = lowerBound(xs, x);
  return i < xs.length && xs[i] === x;
}

/** What the re-ranking bonuses need of one tool, in index term ids (precomputed when it is added). */
interface ToolFeatures {
  tool: SearchableTool;
  name: string;
  /** Adjacent term pairs of its name, summary and description (pairKey), sorted. */
  pairs: number[];
  /** Distinct terms of its name. */
  nameTerms: number[];
}

export class ToolSearchIndex {
  private readonly index: RankedIndex;
  private readonly tools = new Map<string, ToolFeatures>();
  /** How many tools have each adjacent term pair: a request pair no tool has is not looked for. */
  private readonly pairCounts = new Map<number, number>();
  private readonly lowerNames = new Map<string, string>();
  private readonly nameBonus: number;
  private readonly phraseBonus: number;
  private readonly feedback: FeedbackOptions | false;
  /** Per term id: 1 while it is in the current request's plan (name bonus), reset after each search. */
  private inPlan = new Uint8Array(0);

  constructor(opts: ToolSearchOptions = {}) {
    this.phraseBonus = opts.phraseBonus ?? PHRASE_BONUS;
    this.nameBonus = opts.nameBonus ?? NAME_BONUS;
    this.feedback = opts.feedback ?? FEEDBACK;
    this.index = new RankedIndex({
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

  addAll(tools: Iterable<SearchableTool>): void {
    for (const t of tools) {
      this.remove(t.name);
      const d = toSearchDoc(t);
      const seq = terms(`${d.name} . ${d.summary} . ${d.description}`).map((w) => this.index.intern(w));
      const pairSet = new Set<number>();
      for (let i = 0; i + 1 < seq.length; i++) pairSet.add(pairKey(seq[i]!, seq[i + 1]!));
      for (const p of pairSet) this.pairCounts.set(p, (this.pairCounts.get(p) ?? 0) + 1);
      const nameTerms = [...new Set(terms(d.name).map((w) => this.index.intern(w)))];
      const features: ToolFeatures = { tool: t, name: t.name, pairs: [...pairSet].sort((a, b) => a - b), nameTerms };
      this.index.add(
        t.name,
        { name: d.name, summary: d.summary, description: d.description, params: d.params },
        features,
      );
      this.tools.set(t.name, features);
      this.lowerNames.set(t.name.toLowerCase(), t.name);
    }
  }

  remove(name: string): void {
    const f = this.tools.get(name);
    if (!f) return;
    for (const p of f.pairs) {
      const n = this.pairCounts.get(p)! - 1;
      if (n > 0) this.pairCounts.set(p, n);
      else this.pairCounts.delete(p);
    }
    this.index.remove(name);
    this.tools.delete(name);
    this.lowerNames.delete(name.toLowerCase());
  }

  /** The real name of a tool given in any letter case, if indexed. */
  resolveName(name: string): string | undefined {
    return this.lowerNames.get(name.trim().toLowerCase());
  }

  private hit(name: string, score: number): ToolSearchHit {
    return { name, summary: this.tools.get(name)?.tool.summary ?? '', score };
  }

  search(query: string, limit = 5): ToolSearchResult {
    const q = query.trim();
    const sel = /^select:(.*)$/is.exec(q);
    if (sel) {
      const wanted = sel[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
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

    // First pass (BM25F, coordination) and feedback re-scoring of the best RERANK_DEPTH candidates.
    const c = this.index.rankRequest(q, Math.max(limit, RERANK_DEPTH), this.feedback);
    // Bonuses for those candidates only: adjacent request word pairs found in the tool's text, and the share of
    // the tool name's words the request's terms cover.
    const qt = terms(q);
    const qPairs: number[] = [];
    for (let i = 0; i + 1 < qt.length; i++) {
      const a = this.index.termId(qt[i]!);
      const b = this.index.termId(qt[i + 1]!);
      if (a >= 0 && b >= 0 && this.pairCounts.has(pairKey(a, b))) qPairs.push(pairKey(a, b));
    }
    if (this.inPlan.length < this.index.termCount) this.inPlan = new Uint8Array(this.index.termCount * 2);
    const inPlan = this.inPlan;
    for (let i = 0; i < c.planCount; i++) inPlan[c.planTerms[i]!] = 1;
    const ranked: { f: ToolFeatures; score: number; order: number }[] = [];
    for (let i = 0; i < c.n; i++) {
      const f = this.index.dataOf(c.docs[i]!) as ToolFeatures;
      let n = 0;
      for (const p of qPairs) if (hasSorted(f.pairs, p) && ++n >= PHRASE_CAP) break;
      let named = 0;
      if (this.nameBonus > 0 && f.nameTerms.length) {
        let k = 0;
        for (const t of f.nameTerms) k += inPlan[t]!;
        named = k / f.nameTerms.length;
      }
      ranked.push({
        f,
        score: c.scores[i]! * (1 + this.phraseBonus * n) * (1 + this.nameBonus * named),
        order: this.index.nameOrder(c.docs[i]!),
      });
    }
    for (let i = 0; i < c.planCount; i++) inPlan[c.planTerms[i]!] = 0;
    // Equal scores in name order (code units, as the first pass breaks its ties).
    ranked.sort((a, b) => b.score - a.score || a.order - b.order);
    const out: ToolSearchHit[] = [];
    for (let i = 0; i < Math.min(limit, ranked.length); i++) {
      const r = ranked[i]!;
      out.push({ name: r.f.name, summary: r.f.tool.summary, score: r.score });
    }
    return { mode: 'ranked', tools: out };
  }
}
