// The ranked index behind ToolSearch: BM25F over weighted fields (name words, summary, description, parameters)
// with a sorted vocabulary for prefix matches, a one/two-edit typo fallback for words the index does not know,
// weighted query expansion (synonyms, Chinese↔English) from the shared search Expander, and the term statistics
// for pseudo-relevance feedback. Incremental adds and removals; postings are recompiled lazily on the next search.
//
// Terms are interned to stable integer ids when a document is added, and everything a search touches per query
// (scores, coverage masks, the plan, feedback weights) lives in typed arrays reused across searches and reset
// through touched lists: a search allocates almost nothing, so it neither pays for allocation nor triggers GC.
import type { Expander } from '../search/index.js';
import { fastTerms } from './fast-terms.js';
import { requestTerms, type QueryNormalization } from '../search/index.js';
import { TopK } from './top-k.js';
import { prefixMatches, typoMatches } from './vocab-match.js';

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
  moreExpansions?: {
    expand: Expander;
    weight: number;
    /** Only for request words the index does not know. */ unknownOnly?: boolean;
  }[];
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
  /** Whatever the caller attached (ToolSearch: the tool and its re-ranking features). */
  data: unknown;
  /** Per field: distinct term ids in first-occurrence order, their counts, and the field length in terms. */
  fields: { tids: number[]; counts: number[]; len: number }[];
  alive: boolean;
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

export interface FeedbackOptions {
  /** Top first-pass documents the feedback terms are drawn from. */
  docs: number;
  /** Feedback terms added to the query. */
  terms: number;
  /** Share of the expanded query's weight given to the feedback terms (0–1). */
  weight: number;
}

/**
 * A ranked search's candidates, in buffers owned by the index and overwritten by its next search: read them
 * before searching again. `docs[i]` is a document number for `idOf`; plan term ids are for `termId` look-ups.
 */
export interface RankedCandidates {
  n: number;
  docs: Int32Array;
  scores: Float64Array;
  planTerms: Int32Array;
  planCount: number;
}

/** What one request word (index term) stands for, cached per word until the vocabulary changes. */
interface WordPlan {
  /** Term ids and weight factors: the word itself, prefix matches, typo matches (in `put` order). */
  direct: number[];
  directF: number[];
  /** Per expander (in option order): term ids and weight factors of its expansions that the index knows. */
  exp: { tids: number[]; f: number[] }[];
}

/** Expansion-cache entries before it starts over (requests are user input: keep it bounded). */
const WORD_CACHE_LIMIT = 20_000;
/** Request words that count for coordination (one bit each). */
const MAX_SOURCES = 32;
/** Requests with up to this many words get their coordination factors from a per-search table. */
const COVERAGE_LUT_BITS = 12;

const EMPTY_I32 = new Int32Array(0);
const EMPTY_F32 = new Float32Array(0);
const EMPTY_F64 = new Float64Array(0);

export class ToolIndex {
  private readonly fieldNames: string[];
  private readonly specs: FieldSpec[];
  private readonly docs: Doc[] = [];
  private readonly byId = new Map<string, number>();
  private dirty = true;
  private alive = 0;

  /** Term dictionary: ids are stable for the index's lifetime (a removed tool's words keep theirs). */
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  /** Per term id, as of the last compile: posting documents, saturated weights, idf^power (0 = not indexed). */
  private postDocs: Int32Array[] = [];
  private postW: Float32Array[] = [];
  private idf = EMPTY_F64;
  private vocab: string[] = [];
  /** Per document number: rank of its id in code-unit order (ties between equal scores go to the smaller id). */
  private idRank = EMPTY_I32;
  /**
   * Per document number, as of the last compile, in one flat run per document (docStart[d] … docStart[d + 1]):
   * its distinct term ids, their saturated BM25F weight (without idf) and P(t|d) (share of its weighted text).
   */
  private docStart = EMPTY_I32;
  private docTerm = EMPTY_I32;
  private docSat = EMPTY_F64;
  private docLm = EMPTY_F64;
  private readonly wordCache = new Map<string, WordPlan>();

  // Per-search scratch, sized to documents or terms, all zero / -1 between searches.
  private scores = EMPTY_F64;
  private masks = new Uint32Array(0);
  private touched = EMPTY_I32;
  private termScratch = EMPTY_F64;
  private termScratch2 = EMPTY_F64;
  private planPos = EMPTY_I32;
  // The current plan (terms in first-put order, best weight, request word) and its coordination slots.
  private planT = new Int32Array(64);
  private planW = new Float64Array(64);
  private planSrc = new Int32Array(64);
  private planN = 0;
  private slotOfSrc = new Int32Array(64);
  private readonly slotW = new Float64Array(MAX_SOURCES);
  private readonly slotBit = new Uint32Array(MAX_SOURCES);
  private readonly coverageLut = new Float64Array(1 << COVERAGE_LUT_BITS);
  // Results: top candidates, and feedback terms.
  private readonly top = new TopK();
  private fbT = new Int32Array(64);
  private fbW = new Float64Array(64);

  constructor(private readonly opts: ToolIndexOptions) {
    this.fieldNames = Object.keys(opts.fields);
    this.specs = this.fieldNames.map((f) => opts.fields[f]!);
  }

  get size(): number {
    return this.alive;
  }

  /** The stable id of a term, created if new. */
  intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termText.length;
      this.termIds.set(term, id);
      this.termText.push(term);
    }
    return id;
  }

  /** The stable id of a term, or -1 if no document ever had it. */
  termId(term: string): number {
    return this.termIds.get(term) ?? -1;
  }

  /** Terms in the dictionary (every term id is below this). */
  get termCount(): number {
    return this.termText.length;
  }

  /** The id of a document number from RankedCandidates. */
  idOf(doc: number): string {
    return this.docs[doc]!.id;
  }

  /** Where a document number's id comes in code-unit order among the indexed ids (for breaking ties). */
  nameOrder(doc: number): number {
    return this.idRank[doc]!;
  }

  /** What was attached to a document number from RankedCandidates when it was added. */
  dataOf(doc: number): unknown {
    return this.docs[doc]!.data;
  }

  add(id: string, fields: Record<string, string>, data?: unknown): void {
    this.remove(id);
    const doc: Doc = {
      id,
      data,
      alive: true,
      fields: this.fieldNames.map((f) => {
        const ts = fastTerms(fields[f] ?? '');
        const tf = new Map<number, number>();
        for (const t of ts) {
          const tid = this.intern(t);
          tf.set(tid, (tf.get(tid) ?? 0) + 1);
        }
        const tids: number[] = [];
        const counts: number[] = [];
        for (const [tid, c] of tf) {
          tids.push(tid);
          counts.push(c);
        }
        return { tids, counts, len: ts.length };
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

  private known(tid: number): boolean {
    return tid >= 0 && tid < this.idf.length && this.idf[tid]! > 0;
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
    const T = this.termText.length;
    const avg = this.specs.map((_, f) => {
      let sum = 0;
      for (const d of this.docs) if (d.alive) sum += d.fields[f]!.len;
      return n ? Math.max(1, sum / n) : 1;
    });
    const pDocs: number[][] = new Array<number[]>(T);
    const pW: number[][] = new Array<number[]>(T);
    const wtf = new Float64Array(T);
    const raw = new Float64Array(T);
    const order: number[] = [];
    const start = new Int32Array(this.docs.length + 1);
    const fT: number[] = [];
    const fSat: number[] = [];
    const fLm: number[] = [];
    this.docs.forEach((d, di) => {
      start[di] = fT.length;
      if (!d.alive) return;
      order.length = 0;
      let weighted = 0;
      d.fields.forEach((fd, f) => {
        const spec = this.specs[f]!;
        const norm = 1 - spec.b + (spec.b * fd.len) / avg[f]!;
        weighted += spec.weight * fd.len;
        for (let j = 0; j < fd.tids.length; j++) {
          const t = fd.tids[j]!;
          const c = fd.counts[j]!;
          if (wtf[t] === 0 && raw[t] === 0) order.push(t);
          wtf[t] = wtf[t]! + (spec.weight * c) / norm;
          raw[t] = raw[t]! + spec.weight * c;
        }
      });
      for (const t of order) {
        const x = wtf[t]!;
        const w = (x * (k1 + 1)) / (x + k1);
        (pDocs[t] ??= []).push(di);
        (pW[t] ??= []).push(w);
        fT.push(t);
        fSat.push(w);
        fLm.push(weighted ? raw[t]! / weighted : 0);
        wtf[t] = 0;
        raw[t] = 0;
      }
    });
    start[this.docs.length] = fT.length;
    this.docStart = start;
    this.docTerm = Int32Array.from(fT);
    this.docSat = Float64Array.from(fSat);
    this.docLm = Float64Array.from(fLm);
    const power = this.opts.idfPower ?? 1.5;
    this.postDocs = new Array<Int32Array>(T);
    this.postW = new Array<Float32Array>(T);
    this.idf = new Float64Array(T);
    this.vocab = [];
    for (let t = 0; t < T; t++) {
      const docs = pDocs[t];
      if (!docs) {
        this.postDocs[t] = EMPTY_I32;
        this.postW[t] = EMPTY_F32;
        continue;
      }
      const df = docs.length;
      this.postDocs[t] = Int32Array.from(docs);
      this.postW[t] = Float32Array.from(pW[t]!);
      this.idf[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5)) ** power;
      this.vocab.push(this.termText[t]!);
    }
    this.vocab.sort();
    const byName = this.docs.map((_, i) => i).sort((a, b) => (this.docs[a]!.id < this.docs[b]!.id ? -1 : 1));
    this.idRank = new Int32Array(this.docs.length);
    byName.forEach((d, r) => (this.idRank[d] = r));
    if (this.scores.length < this.docs.length) {
      this.scores = new Float64Array(this.docs.length * 2);
      this.masks = new Uint32Array(this.docs.length * 2);
      this.touched = new Int32Array(this.docs.length * 2);
    }
    if (this.termScratch.length < T) {
      this.termScratch = new Float64Array(T * 2);
      this.termScratch2 = new Float64Array(T * 2);
      this.planPos = new Int32Array(T * 2).fill(-1);
    }
    this.wordCache.clear();
    this.dirty = false;
  }

  private expansions(): { expand: Expander; weight: number; unknownOnly?: boolean }[] {
    return [
      ...(this.opts.expand ? [{ expand: this.opts.expand, weight: this.opts.expansionWeight ?? 0.5 }] : []),
      ...(this.opts.moreExpansions ?? []),
    ];
  }

  /** What one request word stands for: itself, prefix and typo matches, expansions (weights per unit weight). */
  private wordPlan(t: string): WordPlan {
    const hit = this.wordCache.get(t);
    if (hit) return hit;
    const pw = this.opts.prefixWeight ?? 0.4;
    const fw = this.opts.fuzzyWeight ?? 0.4;
    const pmin = this.opts.prefixMin ?? 3;
    const direct: number[] = [];
    const directF: number[] = [];
    const tid = this.termId(t);
    const known = this.known(tid);
    if (known) {
      direct.push(tid);
      directF.push(1);
    }
    let viaPrefix = false;
    if (pw > 0 && t.length >= pmin) {
      for (const p of prefixMatches(this.vocab, t)) {
        direct.push(this.termId(p));
        directF.push(pw * (t.length / p.length));
        viaPrefix = true;
      }
    }
    if (!known && !viaPrefix && fw > 0 && t.length > 4) {
      for (const f of typoMatches(this.vocab, t)) {
        direct.push(this.termId(f));
        directF.push(fw);
      }
    }
    const exp = this.expansions().map(({ expand, weight: ew, unknownOnly }) => {
      const out = { tids: [] as number[], f: [] as number[] };
      if (unknownOnly && known) return out;
      for (const rawTerm of expand(t)) {
        const parts = fastTerms(rawTerm);
        for (const e of parts) {
          const eid = this.termId(e);
          if (!this.known(eid)) continue;
          out.tids.push(eid);
          out.f.push(ew / parts.length);
        }
      }
      return out;
    });
    const plan = { direct, directF, exp };
    if (this.wordCache.size >= WORD_CACHE_LIMIT) this.wordCache.clear();
    this.wordCache.set(t, plan);
    return plan;
  }

  /** Add a term to the current plan, keeping its best weight (and the request word that gave it). */
  private put(tid: number, weight: number, source: number): void {
    const at = this.planPos[tid]!;
    if (at >= 0) {
      if (this.planW[at]! < weight) {
        this.planW[at] = weight;
        this.planSrc[at] = source;
      }
      return;
    }
    if (this.planN === this.planT.length) {
      const grow = <A extends Int32Array | Float64Array>(a: A, make: (n: number) => A): A => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.planT = grow(this.planT, (n) => new Int32Array(n));
      this.planW = grow(this.planW, (n) => new Float64Array(n));
      this.planSrc = grow(this.planSrc, (n) => new Int32Array(n));
    }
    this.planPos[tid] = this.planN;
    this.planT[this.planN] = tid;
    this.planW[this.planN] = weight;
    this.planSrc[this.planN] = source;
    this.planN++;
  }

  private clearPlan(): void {
    for (let i = 0; i < this.planN; i++) this.planPos[this.planT[i]!] = -1;
    this.planN = 0;
  }

  /** The request's own words with their weights (normalised unless turned off). */
  private ownWords(query: string): { term: string; weight: number }[] {
    const norm = this.opts.normalize ?? {};
    return norm === false
      ? [...new Set(fastTerms(query))].map((term) => ({ term, weight: 1 }))
      : requestTerms(query, fastTerms, norm);
  }

  /** Build the current plan for a query; returns its request words (plan sources index into them). */
  private buildPlan(query: string): { term: string; weight: number }[] {
    this.compile();
    this.clearPlan();
    const own = this.ownWords(query);
    const plans = own.map((o) => this.wordPlan(o.term));
    for (let s = 0; s < own.length; s++) {
      const w = own[s]!.weight;
      const p = plans[s]!;
      for (let j = 0; j < p.direct.length; j++) this.put(p.direct[j]!, w * p.directF[j]!, s);
    }
    const nExp = plans.length ? plans[0]!.exp.length : 0;
    for (let k = 0; k < nExp; k++) {
      for (let s = 0; s < own.length; s++) {
        const w = own[s]!.weight;
        const e = plans[s]!.exp[k]!;
        for (let j = 0; j < e.tids.length; j++) this.put(e.tids[j]!, w * e.f[j]!, s);
      }
    }
    return own;
  }

  /** The weighted index terms a query stands for: own words, prefix and typo matches, expansions. */
  queryPlan(query: string): { term: string; weight: number; source: string }[] {
    const own = this.buildPlan(query);
    const out: { term: string; weight: number; source: string }[] = [];
    for (let i = 0; i < this.planN; i++)
      out.push({ term: this.termText[this.planT[i]!]!, weight: this.planW[i]!, source: own[this.planSrc[i]!]!.term });
    this.clearPlan();
    return out;
  }

  search(query: string, limit: number, filter?: (id: string) => boolean): IndexHit[] {
    return this.searchPlan(this.queryPlan(query), limit, filter);
  }

  /** Score a weighted term plan (queryPlan's, or one extended by feedback) and return the best `limit` documents. */
  searchPlan(plan: readonly WeightedTerm[], limit: number, filter?: (id: string) => boolean): IndexHit[] {
    this.compile();
    if (!plan.length || limit <= 0) return [];
    const keys = new Map<string, number>();
    const tids = new Int32Array(plan.length);
    const ws = new Float64Array(plan.length);
    const srcs = new Int32Array(plan.length);
    plan.forEach((p, i) => {
      tids[i] = this.termId(p.term);
      ws[i] = p.weight;
      const key = p.source ?? p.term;
      let k = keys.get(key);
      if (k === undefined) keys.set(key, (k = keys.size));
      srcs[i] = k;
    });
    const n = this.rank(tids, ws, srcs, plan.length, keys.size, limit, filter);
    const out: IndexHit[] = [];
    for (let i = 0; i < n; i++) out.push({ id: this.docs[this.top.docs[i]!]!.id, score: this.top.scores[i]! });
    return out;
  }

  /**
   * BM25F with coordination over a plan given as arrays (term id or -1, weight, request word number < nSources);
   * the best `limit` documents go to `top`, their count is returned. Scratch buffers are left cleared.
   */
  private rank(
    tids: Int32Array,
    ws: Float64Array,
    srcs: Int32Array,
    n: number,
    nSources: number,
    limit: number,
    filter?: (id: string) => boolean,
  ): number {
    if (n === 0 || limit <= 0) return 0;
    const scores = this.scores;
    const masks = this.masks;
    const touched = this.touched;
    const coverage = this.opts.coverage ?? 0;
    // Request words get a coordination bit in the order the plan first names them, with their best term's weight.
    if (this.slotOfSrc.length < nSources) this.slotOfSrc = new Int32Array(nSources * 2);
    const slotOfSrc = this.slotOfSrc;
    slotOfSrc.fill(-1, 0, nSources);
    let slots = 0;
    if (coverage > 0) {
      for (let i = 0; i < n; i++) {
        const s = slotOfSrc[srcs[i]!]!;
        if (s >= 0) this.slotW[s] = Math.max(this.slotW[s]!, ws[i]!);
        else if (slots < MAX_SOURCES) {
          slotOfSrc[srcs[i]!] = slots;
          this.slotW[slots] = ws[i]!;
          this.slotBit[slots] = (1 << slots) >>> 0;
          slots++;
        }
      }
    }
    let seen = 0;
    for (let i = 0; i < n; i++) {
      const t = tids[i]!;
      if (!this.known(t)) continue;
      const docs = this.postDocs[t]!;
      const w = this.postW[t]!;
      const f = this.idf[t]! * ws[i]!;
      const slot = coverage > 0 ? slotOfSrc[srcs[i]!]! : -1;
      const bit = slot >= 0 ? this.slotBit[slot]! : 0;
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        const before = scores[d]!;
        if (before === 0) touched[seen++] = d;
        scores[d] = before + f * w[j]!;
        masks[d] = masks[d]! | bit;
      }
    }
    // Coordination: the factor depends only on which request words a document matched (its mask), so it is
    // computed once per distinct mask (in a table for up to COVERAGE_LUT_BITS words) and applied in the same
    // pass that selects the top documents.
    const coordinate = coverage > 0 && slots > 1;
    let total = 0;
    for (let s = 0; s < slots; s++) total += this.slotW[s]!;
    const lut = this.coverageLut;
    const useLut = slots <= COVERAGE_LUT_BITS;
    if (coordinate && useLut) lut.fill(NaN, 0, 1 << slots);
    const top = this.top;
    top.reset(limit, this.idRank);
    for (let k = 0; k < seen; k++) {
      const d = touched[k]!;
      let s = scores[d]!;
      if (coordinate) {
        const m = masks[d]!;
        let factor = useLut ? lut[m]! : NaN;
        if (factor !== factor) {
          let got = 0;
          for (let j = 0; j < slots; j++) if (m & this.slotBit[j]!) got += this.slotW[j]!;
          factor = (got / total) ** coverage;
          if (useLut) lut[m] = factor;
        }
        s *= factor;
      }
      scores[d] = 0;
      masks[d] = 0;
      // Removed documents have no postings (removal recompiles), so only the caller's filter can skip one.
      if (filter && !filter(this.docs[d]!.id)) continue;
      top.offer(d, s);
    }
    top.finish();
    return top.size;
  }

  /**
   * The best `depth` documents for a request, re-scored with one round of pseudo-relevance feedback (RM3) when
   * `feedback` is given: (1 − w)·score/Σ query weights + w·score under the feedback terms, for the first-pass
   * candidates only (feedback never pulls in a document the request did not match). Buffers: see RankedCandidates.
   */
  rankRequest(query: string, depth: number, feedback: FeedbackOptions | false): RankedCandidates {
    const own = this.buildPlan(query);
    const n = this.planN;
    const srcs = this.planSrc;
    const hits = this.rank(this.planT, this.planW, srcs, n, own.length, depth);
    if (feedback && feedback.weight > 0 && hits > 1) {
      let total = 0;
      for (let i = 0; i < n; i++) total += this.planW[i]!;
      total ||= 1;
      const top = this.top;
      const nFb = this.feedbackInto(top.docs, top.scores, Math.min(feedback.docs, hits), feedback.terms);
      const w = feedback.weight;
      this.setFactors(this.fbT, this.fbW, nFb);
      for (let i = 0; i < hits; i++)
        top.scores[i] = ((1 - w) * top.scores[i]!) / total + w * this.scoreDoc(top.docs[i]!);
      this.clearFactors(this.fbT, nFb);
    }
    // The plan stays readable (planTerms) until the next search; only its position index is cleared now.
    for (let i = 0; i < n; i++) this.planPos[this.planT[i]!] = -1;
    this.planN = 0;
    return { n: hits, docs: this.top.docs, scores: this.top.scores, planTerms: this.planT, planCount: n };
  }

  /** Set the per-term query factors (idf × weight) of a plan in termScratch2; `clearFactors` undoes it. */
  private setFactors(tids: Int32Array, ws: Float64Array, n: number): void {
    const f = this.termScratch2;
    for (let i = 0; i < n; i++) {
      const t = tids[i]!;
      if (t >= 0 && t < this.idf.length) f[t] = f[t]! + this.idf[t]! * ws[i]!;
    }
  }

  private clearFactors(tids: Int32Array, n: number): void {
    for (let i = 0; i < n; i++) if (tids[i]! >= 0 && tids[i]! < this.idf.length) this.termScratch2[tids[i]!] = 0;
  }

  /** Score of one document under the factors set by setFactors, from the document's own term weights. */
  private scoreDoc(d: number): number {
    const f = this.termScratch2;
    const terms = this.docTerm;
    const sat = this.docSat;
    let score = 0;
    for (let j = this.docStart[d]!, end = this.docStart[d + 1]!; j < end; j++) score += f[terms[j]!]! * sat[j]!;
    return score;
  }

  /**
   * Scores of a few given documents for a weighted term plan, computed from their own term counts (no posting
   * traversal): what re-scoring a candidate pool costs, whatever the terms' document frequencies.
   */
  scoreDocs(ids: readonly string[], plan: readonly WeightedTerm[]): number[] {
    this.compile();
    const tids = Int32Array.from(plan, (p) => this.termId(p.term));
    const ws = Float64Array.from(plan, (p) => p.weight);
    this.setFactors(tids, ws, plan.length);
    const out = ids.map((id) => {
      const i = this.byId.get(id);
      return i === undefined ? 0 : this.scoreDoc(i);
    });
    this.clearFactors(tids, plan.length);
    return out;
  }

  /**
   * Relevance-model feedback terms (RM3's RM1 step) into fbT/fbW: P(t|R) ≈ Σ_d P(t|d)·P(d|q) over the first `k`
   * documents, with P(t|d) the term's share of the document's field-weighted text and P(d|q) the documents'
   * normalised scores. The `terms` most probable index terms, weights summing to 1; returns their count.
   */
  private feedbackInto(docs: Int32Array, scores: Float64Array, k: number, terms: number): number {
    let total = 0;
    for (let i = 0; i < k; i++) total += Math.max(0, scores[i]!);
    if (!(total > 0) || terms <= 0) return 0;
    const acc = this.termScratch;
    const list: number[] = [];
    for (let i = 0; i < k; i++) {
      const s = scores[i]!;
      if (s <= 0) continue;
      const d = docs[i]!;
      const pd = s / total;
      for (let j = this.docStart[d]!, end = this.docStart[d + 1]!; j < end; j++) {
        const t = this.docTerm[j]!;
        if (acc[t] === 0) list.push(t);
        acc[t] = acc[t]! + this.docLm[j]! * pd;
      }
    }
    const text = this.termText;
    list.sort((a, b) => acc[b]! - acc[a]! || (text[a]! < text[b]! ? -1 : 1));
    const m = Math.min(terms, list.length);
    if (this.fbT.length < m) {
      this.fbT = new Int32Array(m * 2);
      this.fbW = new Float64Array(m * 2);
    }
    let sum = 0;
    for (let i = 0; i < m; i++) sum += acc[list[i]!]!;
    sum ||= 1;
    for (let i = 0; i < m; i++) {
      this.fbT[i] = list[i]!;
      this.fbW[i] = acc[list[i]!]! / sum;
    }
    for (const t of list) acc[t] = 0;
    return m;
  }

  /**
   * Relevance-model feedback terms (RM3's RM1 step): P(t|R) ≈ Σ_d P(t|d)·P(d|q) over the given top documents,
   * with P(t|d) the term's share of the document's field-weighted text and P(d|q) the documents' normalised
   * scores. The `terms` most probable index terms, weights summing to 1.
   */
  feedbackTerms(hits: readonly IndexHit[], terms: number): WeightedTerm[] {
    this.compile();
    // Hits no longer indexed are skipped; their share of P(d|q) would scale every term alike, and the weights
    // are normalised at the end, so leaving them out changes nothing.
    const live = hits.filter((h) => this.byId.has(h.id));
    const docs = Int32Array.from(live, (h) => this.byId.get(h.id)!);
    const scores = Float64Array.from(live, (h) => h.score);
    const m = this.feedbackInto(docs, scores, docs.length, terms);
    const out: WeightedTerm[] = [];
    for (let i = 0; i < m; i++) out.push({ term: this.termText[this.fbT[i]!]!, weight: this.fbW[i]! });
    return out;
  }
}
