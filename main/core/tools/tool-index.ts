// The ranked index behind ToolSearch: BM25F over weighted fields (name words, summary, description, parameters)
// with a sorted vocabulary for prefix matches, a one/two-edit typo fallback for words the index does not know,
// weighted query expansion (synonyms, Chinese↔English) from the shared search Expander, and the term statistics
// for pseudo-relevance feedback. Incremental adds and removals; postings are recompiled lazily on the next search.
import type { Expander } from '../search/text-index.js';
import { fastTerms } from './fast-terms.js';
import { requestTerms, type QueryNormalization } from '../search/query.js';

export interface FieldSpec {
  weight: number;
  /** Length normalisation for this field (BM25 b). */
  b: number;
}

export interface ToolIndexOptions {
  fields: Record<string, FieldSpec>;
  /** BM25 saturation (default 1.2). */
  k1?: number;
  expand?: Expander;
  /** Weight of expanded terms (default 0.5). */
  expansionWeight?: number;
  /** Weight of a prefix match relative to an exact one (default 0.4); 0 turns prefix matching off. */
  prefixWeight?: number;
  /** Shortest query word that may prefix-match (default 3). */
  prefixMin?: number;
  /** Weight of a typo match (default 0.4); 0 turns it off. */
  fuzzyWeight?: number;
  /**
   * Exponent on idf (default 1.5): above 1 leans on the rare, specific words of a request more than plain BM25,
   * as a vector-space model does by weighting query and document alike (chosen on half the fixture's queries).
   */
  idfPower?: number;
  /** Further expansions, each at its own weight (WordNet synonyms: lower than translations). */
  moreExpansions?: { expand: Expander; weight: number; /** Only for request words the index does not know. */ unknownOnly?: boolean }[];
  /**
   * Coordination: a document's score is multiplied by (share of the request's words it matches)^coverage, so one
   * that answers the whole request beats one that repeats a single word (default 0 = plain sum).
   */
  coverage?: number;
  /** How requests are read (fillers, numbers, literal values); false reads every word at full weight. */
  normalize?: QueryNormalization | false;
}


interface Doc {
  id: string;
  /** Per field: term → count, and the field length in terms. */
  fields: { tf: Map<string, number>; len: number }[];
  alive: boolean;
  /** Saturated BM25F weight per term (without idf), as of the last compile. */
  sat: Map<string, number>;
  /** Terms with their share of the field-weighted text (P(t|d) for feedback), as of the last compile. */
  lm: { term: string; p: number }[];
}

interface Posting {
  docs: Int32Array;
  /** Saturated BM25F term weight per doc (without idf). */
  w: Float32Array;
  idf: number;
}

export interface WeightedTerm {
  term: string;
  weight: number;
  /** The user's word this term stands for (own word, prefix/typo match or expansion of it). */
  source?: string;
}

export interface IndexHit {
  id: string;
  score: number;
}

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return false;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]! <= max;
}

export class ToolIndex {
  private readonly fieldNames: string[];
  private readonly specs: FieldSpec[];
  private readonly docs: Doc[] = [];
  private readonly byId = new Map<string, number>();
  private postings = new Map<string, Posting>();
  private vocab: string[] = [];
  private dirty = true;
  private alive = 0;
  /** Score accumulator reused across searches (reset after each), so a search allocates little. */
  private scores = new Float64Array(0);
  /** Per document, a bit per request word matched (coverage), reset like `scores`. */
  private masks = new Uint32Array(0);

  constructor(private readonly opts: ToolIndexOptions) {
    this.fieldNames = Object.keys(opts.fields);
    this.specs = this.fieldNames.map((f) => opts.fields[f]!);
  }

  get size(): number {
    return this.alive;
  }

  add(id: string, fields: Record<string, string>): void {
    this.remove(id);
    const doc: Doc = {
      id,
      alive: true,
      sat: new Map(),
      lm: [],
      fields: this.fieldNames.map((f) => {
        const ts = fastTerms(fields[f] ?? '');
        const tf = new Map<string, number>();
        for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
        return { tf, len: ts.length };
      }),
    };
    this.byId.set(id, this.docs.length);
    this.docs.push(doc);
    this.alive++;
    this.dirty = true;
  }

  remove(id: string): void {
    const i = this.byId.get(id);
    if (i === undefined) return;
    this.docs[i]!.alive = false;
    this.byId.delete(id);
    this.alive--;
    this.dirty = true;
  }

  /** Rebuild postings from the per-doc term counts (drops removed docs). */
  private compile(): void {
    if (!this.dirty) return;
    if (this.docs.length > this.alive * 2 + 64) {
      const live = this.docs.filter((d) => d.alive);
      this.docs.length = 0;
      this.byId.clear();
      for (const d of live) {
        this.byId.set(d.id, this.docs.length);
        this.docs.push(d);
      }
    }
    const k1 = this.opts.k1 ?? 1.2;
    const n = this.alive;
    const avg = this.specs.map((_, f) => {
      let sum = 0;
      for (const d of this.docs) if (d.alive) sum += d.fields[f]!.len;
      return n ? Math.max(1, sum / n) : 1;
    });
    const acc = new Map<string, { docs: number[]; w: number[] }>();
    const wtf = new Map<string, number>();
    const raw = new Map<string, number>();
    this.docs.forEach((d, di) => {
      if (!d.alive) return;
      wtf.clear();
      raw.clear();
      let weighted = 0;
      d.fields.forEach((fd, f) => {
        const spec = this.specs[f]!;
        const norm = 1 - spec.b + (spec.b * fd.len) / avg[f]!;
        weighted += spec.weight * fd.len;
        for (const [t, c] of fd.tf) {
          wtf.set(t, (wtf.get(t) ?? 0) + (spec.weight * c) / norm);
          raw.set(t, (raw.get(t) ?? 0) + spec.weight * c);
        }
      });
      d.sat = new Map();
      d.lm = [];
      for (const [t, x] of wtf) {
        let p = acc.get(t);
        if (!p) acc.set(t, (p = { docs: [], w: [] }));
        const w = (x * (k1 + 1)) / (x + k1);
        p.docs.push(di);
        p.w.push(w);
        d.sat.set(t, w);
        d.lm.push({ term: t, p: weighted ? raw.get(t)! / weighted : 0 });
      }
    });
    this.postings = new Map();
    for (const [t, p] of acc) {
      const df = p.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      this.postings.set(t, { docs: Int32Array.from(p.docs), w: Float32Array.from(p.w), idf: idf ** (this.opts.idfPower ?? 1.5) });
    }
    this.vocab = [...acc.keys()].sort();
    this.dirty = false;
  }

  private prefixTerms(prefix: string, cap = 24): string[] {
    const v = this.vocab;
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < v.length && out.length < cap && v[i]!.startsWith(prefix); i++) if (v[i] !== prefix) out.push(v[i]!);
    return out;
  }

  private typoTerms(term: string): string[] {
    const max = term.length >= 8 ? 2 : 1;
    const out: string[] = [];
    for (const v of this.vocab) {
      if (Math.abs(v.length - term.length) > max || v[0] !== term[0]) continue;
      if (editDistanceAtMost(term, v, max)) out.push(v);
      if (out.length >= 8) break;
    }
    return out;
  }

  /** The weighted index terms a query stands for: own words, prefix and typo matches, expansions. */
  queryPlan(query: string): { term: string; weight: number; source: string }[] {
    this.compile();
    const norm = this.opts.normalize ?? {};
    const own =
      norm === false
        ? [...new Set(fastTerms(query))].map((term) => ({ term, weight: 1 }))
        : requestTerms(query, fastTerms, norm);
    const plan = new Map<string, { term: string; weight: number; source: string }>();
    const put = (term: string, weight: number, source: string) => {
      const cur = plan.get(term);
      if (!cur || cur.weight < weight) plan.set(term, { term, weight, source });
    };
    const pw = this.opts.prefixWeight ?? 0.4;
    const fw = this.opts.fuzzyWeight ?? 0.4;
    const pmin = this.opts.prefixMin ?? 3;
    for (const { term: t, weight: w } of own) {
      const known = this.postings.has(t);
      if (known) put(t, w, t);
      let viaPrefix = false;
      if (pw > 0 && t.length >= pmin) {
        for (const p of this.prefixTerms(t)) {
          put(p, w * pw * (t.length / p.length), t);
          viaPrefix = true;
        }
      }
      if (!known && !viaPrefix && fw > 0 && t.length > 4) for (const f of this.typoTerms(t)) put(f, w * fw, t);
    }
    const expansions = [
      ...(this.opts.expand ? [{ expand: this.opts.expand, weight: this.opts.expansionWeight ?? 0.5 }] : []),
      ...(this.opts.moreExpansions ?? []),
    ];
    for (const { expand, weight: ew, unknownOnly } of expansions as { expand: Expander; weight: number; unknownOnly?: boolean }[]) {
      for (const { term: t, weight: w } of own) {
        if (unknownOnly && this.postings.has(t)) continue;
        for (const raw of expand(t)) {
          const parts = fastTerms(raw);
          for (const e of parts) if (this.postings.has(e)) put(e, (w * ew) / parts.length, t);
        }
      }
    }
    return [...plan.values()].filter((p) => this.postings.has(p.term));
  }

  search(query: string, limit: number, filter?: (id: string) => boolean): IndexHit[] {
    return this.searchPlan(this.queryPlan(query), limit, filter);
  }

  /** Score a weighted term plan (queryPlan's, or one extended by feedback) and return the best `limit` documents. */
  searchPlan(plan: readonly WeightedTerm[], limit: number, filter?: (id: string) => boolean): IndexHit[] {
    this.compile();
    if (!plan.length || limit <= 0) return [];
    if (this.scores.length < this.docs.length) {
      this.scores = new Float64Array(this.docs.length * 2);
      this.masks = new Uint32Array(this.docs.length * 2);
    }
    const scores = this.scores;
    const masks = this.masks;
    const coverage = this.opts.coverage ?? 0;
    // Request words (sources) and their weights: a word's weight is that of its best term in the plan.
    const sources = new Map<string, { bit: number; weight: number }>();
    if (coverage > 0) {
      for (const p of plan) {
        const key = p.source ?? p.term;
        const cur = sources.get(key);
        if (cur) cur.weight = Math.max(cur.weight, p.weight);
        else if (sources.size < 32) sources.set(key, { bit: 1 << sources.size, weight: p.weight });
      }
    }
    const seen: number[] = [];
    for (const { term, weight, source } of plan) {
      const p = this.postings.get(term);
      if (!p) continue;
      const f = p.idf * weight;
      const bit = coverage > 0 ? (sources.get(source ?? term)?.bit ?? 0) : 0;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i]!;
        const before = scores[d]!;
        if (before === 0) seen.push(d);
        scores[d] = before + f * p.w[i]!;
        masks[d]! |= bit;
      }
    }
    if (coverage > 0 && sources.size > 1) {
      let total = 0;
      for (const s of sources.values()) total += s.weight;
      for (const d of seen) {
        let got = 0;
        for (const s of sources.values()) if (masks[d]! & s.bit) got += s.weight;
        scores[d] = scores[d]! * (got / total) ** coverage;
      }
    }
    // Top-k selection: a small sorted list, touched only when a document beats its last entry.
    const top: { d: number; s: number }[] = [];
    const before = (a: { d: number; s: number }, b: { d: number; s: number }) =>
      a.s > b.s || (a.s === b.s && this.docs[a.d]!.id < this.docs[b.d]!.id);
    for (const d of seen) {
      const doc = this.docs[d]!;
      const cand = { d, s: scores[d]! };
      scores[d] = 0;
      masks[d] = 0;
      if (!doc.alive || (filter && !filter(doc.id))) continue;
      if (top.length >= limit && !before(cand, top[top.length - 1]!)) continue;
      let i = top.length;
      while (i > 0 && before(cand, top[i - 1]!)) i--;
      top.splice(i, 0, cand);
      if (top.length > limit) top.pop();
    }
    return top.map((t) => ({ id: this.docs[t.d]!.id, score: t.s }));
  }

  /**
   * Scores of a few given documents for a weighted term plan, computed from their own term counts (no posting
   * traversal): what re-scoring a candidate pool costs, whatever the terms' document frequencies.
   */
  scoreDocs(ids: readonly string[], plan: readonly WeightedTerm[]): number[] {
    this.compile();
    const terms = plan.map((p) => ({ term: p.term, f: (this.postings.get(p.term)?.idf ?? 0) * p.weight }));
    return ids.map((id) => {
      const i = this.byId.get(id);
      if (i === undefined) return 0;
      const sat = this.docs[i]!.sat;
      let score = 0;
      for (const t of terms) score += t.f * (sat.get(t.term) ?? 0);
      return score;
    });
  }

  /**
   * Relevance-model feedback terms (RM3's RM1 step): P(t|R) ≈ Σ_d P(t|d)·P(d|q) over the given top documents,
   * with P(t|d) the term's share of the document's field-weighted text and P(d|q) the documents' normalised
   * scores. The `terms` most probable index terms, weights summing to 1.
   */
  feedbackTerms(hits: readonly IndexHit[], terms: number): WeightedTerm[] {
    this.compile();
    const total = hits.reduce((a, h) => a + Math.max(0, h.score), 0);
    if (!(total > 0) || terms <= 0) return [];
    const acc = new Map<string, number>();
    for (const h of hits) {
      const i = this.byId.get(h.id);
      if (i === undefined || h.score <= 0) continue;
      const pd = h.score / total;
      for (const { term, p } of this.docs[i]!.lm) acc.set(term, (acc.get(term) ?? 0) + p * pd);
    }
    const best = [...acc]
      .filter(([t]) => this.postings.has(t))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, terms);
    const sum = best.reduce((a, [, p]) => a + p, 0) || 1;
    return best.map(([term, p]) => ({ term, weight: p / sum }));
  }
}
