// One ranked full-text index used by SkillSearch: BM25+ over boosted fields, prefix and one-edit typo matching, shared
// tokenisation, weighted query expansion; flat postings scored term-at-a-time into per-document accumulators.
import { hasHan, terms } from './tokenize.js';
import { requestTerms, type QueryNormalization } from './query.js';

/** Expands one query term into extra terms (synonyms, translations). Expanded terms rank lower. */
export type Expander = (term: string) => string[];

export interface TextIndexOptions<T> {
  /** Field name → weight. */
  fields: Record<string, number>;
  /** Pulls the field texts out of a document. */
  extract: (doc: T) => Record<string, string>;
  idOf: (doc: T) => string;
  expand?: Expander;
  /** Weight of expanded terms relative to the user's own words (default 0.5). */
  expansionWeight?: number;
  /** Fuzzy edit distance as a fraction of term length (default 0.2); 0 turns fuzzy off. */
  fuzzy?: number;
  /** Prefix matching for terms of at least this length (default 3). */
  prefixMin?: number;
  /** Most edits fuzzy matching allows for one term (default 1). */
  maxFuzzy?: number;
  /** Further expansions at their own weights (e.g. WordNet synonyms, lower than translations). */
  moreExpansions?: { expand: Expander; weight: number }[];
  /** How requests are read (fillers, numbers, literal values); default: every word at full weight. */
  normalize?: QueryNormalization | false;
}

export interface Hit {
  id: string;
  score: number;
  /** Query terms that matched, per field. */
  match: Record<string, string[]>;
}

/*
 * Scoring (the formula MiniSearch uses, which the search defaults were tuned with): for each query term q at weight
 * w, each index term d it reaches (itself; longer words it is a prefix of, at 0.375·|d|/(|d| + 0.3·extra letters);
 * words one edit away, at 0.45·|d|/(|d| + 1)) and each field f at boost b:
 *   w · reach · b · idf_f(d) · (0.5 + tf·(k1 + 1) / (tf + k1·(1 − B + B·len/avglen)))      k1 1.2, B 0.7
 * with idf_f(d) = ln(1 + (N − df + 0.5)/(df + 0.5)) over the documents having d in field f and len counting
 * distinct terms. A document's sum is multiplied by how many of the user's own words it covers (a translation
 * or synonym covers the word it came from), so many translations of one word never outrank the word itself.
 */
const K1 = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** Documents holding one term, per field: slots in insertion order and term counts. */
interface Postings {
  docs: number[][];
  tf: number[][];
  /** Live documents per field (removed ones stay in the lists until the next compaction). */
  df: number[];
}

interface Slot<T> {
  id: string;
  doc: T;
  /** Distinct terms per field. */
  len: number[];
  /** The document's distinct terms and, per term, a bit per field it occurs in. */
  terms: string[];
  fieldBits: number[];
}

/** A request's terms with their weights, the user's word each stands for, and the user's own terms. */
export interface ExpandedQuery {
  weights: Map<string, number>;
  source: Map<string, string>;
  own: Set<string>;
}

/**
 * Weights and, for every term, the user's word it stands for. An expansion written as several terms
 * (数据库 → 数据 + 库) shares its weight among them, so a translation never outweighs the word it translates.
 */
export function expandQuery<T>(query: string, opts: TextIndexOptions<T>): ExpandedQuery {
  const norm = opts.normalize ?? false;
  const ownWeighted =
    norm === false ? terms(query).map((term) => ({ term, weight: 1 })) : requestTerms(query, terms, norm);
  const own = ownWeighted.map((t) => t.term);
  const weights = new Map<string, number>();
  const source = new Map<string, string>();
  for (const { term, weight } of ownWeighted) {
    weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    source.set(term, term);
  }
  const expansions = [
    ...(opts.expand ? [{ expand: opts.expand, weight: opts.expansionWeight ?? 0.5 }] : []),
    ...(opts.moreExpansions ?? []),
  ];
  // The segmenter may split one dictionary word (数据库 → 数据 + 库): adjacent Chinese terms are also
  // expanded joined, credited to the first of them.
  const lookups: [string, string][] = own.map((t) => [t, t]);
  for (let i = 0; i + 1 < own.length; i++) {
    if (hasHan(own[i]!) && hasHan(own[i + 1]!)) lookups.push([own[i]! + own[i + 1]!, own[i]!]);
  }
  for (const { expand, weight: w } of expansions) {
    for (const [lookup, t] of lookups) {
      const base = weights.get(t) ?? 1;
      for (const raw of expand(lookup)) {
        const parts = terms(raw);
        for (const e of parts) {
          if (weights.has(e)) continue;
          weights.set(e, (base * w) / parts.length);
          source.set(e, t);
        }
      }
    }
  }
  return { weights, source, own: new Set(own) };
}

export class TextIndex<T> {
  private readonly opts: TextIndexOptions<T>;
  private readonly fieldNames: string[];
  private readonly boosts: number[];
  private readonly docs = new Map<string, number>();
  private slots: (Slot<T> | undefined)[] = [];
  private postings = new Map<string, Postings>();
  private totalLen: number[];
  private live = 0;
  private dead = 0;
  /** Per slot × field: the BM25 length term k1·(1 − B + B·len/avglen); NaN for removed slots. Rebuilt after changes. */
  private lenNorm: Float64Array | undefined;
  /** Sorted vocabulary (prefix ranges) and terms by length (typo candidates), rebuilt after changes. */
  private vocab: string[] | undefined;
  private byLength: Map<number, string[]> | undefined;
  // Per-query scratch, reused: scores, the user's words covered (a bit each; past 32 words, a set), documents touched.
  private acc = new Float64Array(0);
  private words = new Uint32Array(0);
  private seen = new Uint8Array(0);
  private touched = new Int32Array(0);

  constructor(opts: TextIndexOptions<T>) {
    this.opts = opts;
    this.fieldNames = Object.keys(opts.fields);
    this.boosts = this.fieldNames.map((f) => opts.fields[f] ?? 1);
    this.totalLen = this.fieldNames.map(() => 0);
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: string): T | undefined {
    const s = this.docs.get(id);
    return s === undefined ? undefined : this.slots[s]!.doc;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  addAll(docs: Iterable<T>): void {
    const F = this.fieldNames.length;
    const fresh: string[] = [];
    for (const d of docs) {
      const id = this.opts.idOf(d);
      if (this.docs.has(id)) this.remove(id);
      const fields = this.opts.extract(d);
      const slot = this.slots.length;
      const len: number[] = [];
      const bits = new Map<string, number>();
      for (let f = 0; f < F; f++) {
        const text = fields[this.fieldNames[f]!];
        const counts = new Map<string, number>();
        if (text) for (const t of terms(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
        len.push(counts.size);
        this.totalLen[f]! += counts.size;
        for (const [t, n] of counts) {
          let p = this.postings.get(t);
          if (!p) {
            p = { docs: [], tf: [], df: new Array<number>(F).fill(0) };
            this.postings.set(t, p);
            fresh.push(t);
          }
          (p.docs[f] ??= []).push(slot);
          (p.tf[f] ??= []).push(n);
          p.df[f]!++;
          bits.set(t, (bits.get(t) ?? 0) | (1 << f));
        }
      }
      this.slots.push({ id, doc: d, len, terms: [...bits.keys()], fieldBits: [...bits.values()] });
      this.docs.set(id, slot);
      this.live++;
    }
    // The term tables for prefix and typo matching, kept up to date here so that no request pays for them: a
    // first build sorts the vocabulary, later additions merge their new terms in.
    this.lenNorm = undefined;
    if (!this.vocab || !this.byLength) {
      this.vocab = undefined;
      this.byLength = undefined;
      this.sortedVocab();
      this.termsByLength();
    } else if (fresh.length) {
      this.vocab = mergeSorted(this.vocab, fresh.sort());
      for (const t of fresh) {
        const l = this.byLength.get(t.length);
        if (l) l.push(t);
        else this.byLength.set(t.length, [t]);
      }
    }
  }

  remove(id: string): void {
    const s = this.docs.get(id);
    if (s === undefined) return;
    const slot = this.slots[s]!;
    slot.terms.forEach((t, i) => {
      const p = this.postings.get(t)!;
      for (let f = 0; f < this.fieldNames.length; f++) if (slot.fieldBits[i]! & (1 << f)) p.df[f]!--;
    });
    slot.len.forEach((n, f) => (this.totalLen[f]! -= n));
    this.slots[s] = undefined;
    this.lenNorm = undefined;
    this.docs.delete(id);
    this.live--;
    this.dead++;
    if (this.dead > 64 && this.dead > this.live / 4) this.compact();
  }

  clear(): void {
    this.docs.clear();
    this.slots = [];
    this.postings = new Map();
    this.totalLen = this.fieldNames.map(() => 0);
    this.live = 0;
    this.dead = 0;
    this.vocab = undefined;
    this.byLength = undefined;
    this.lenNorm = undefined;
  }

  /** Renumbers the live documents and drops removed ones (and terms left without documents) from the postings. */
  private compact(): void {
    const renumber = new Int32Array(this.slots.length).fill(-1);
    const slots: Slot<T>[] = [];
    this.slots.forEach((slot, s) => {
      if (!slot) return;
      renumber[s] = slots.length;
      this.docs.set(slot.id, slots.length);
      slots.push(slot);
    });
    for (const [t, p] of this.postings) {
      let any = false;
      for (let f = 0; f < p.docs.length; f++) {
        const docs = p.docs[f];
        if (!docs) continue;
        const tf = p.tf[f]!;
        let n = 0;
        for (let i = 0; i < docs.length; i++) {
          const to = renumber[docs[i]!]!;
          if (to < 0) continue;
          docs[n] = to;
          tf[n++] = tf[i]!;
        }
        docs.length = n;
        tf.length = n;
        if (n) any = true;
      }
      if (!any) this.postings.delete(t);
    }
    this.slots = slots;
    this.dead = 0;
    this.lenNorm = undefined;
    this.vocab = undefined;
    this.byLength = undefined;
    this.sortedVocab();
    this.termsByLength();
  }

  /** Query terms after tokenisation and expansion, with their weights. */
  queryTerms(query: string): Map<string, number> {
    return expandQuery(query, this.opts).weights;
  }

  private sortedVocab(): string[] {
    return (this.vocab ??= [...this.postings.keys()].sort());
  }

  private termsByLength(): Map<number, string[]> {
    if (!this.byLength) {
      this.byLength = new Map();
      for (const t of this.postings.keys()) {
        const l = this.byLength.get(t.length);
        if (l) l.push(t);
        else this.byLength.set(t.length, [t]);
      }
    }
    return this.byLength;
  }

  /** Index terms that start with `term` and are longer. */
  private prefixed(term: string): string[] {
    const v = this.sortedVocab();
    let lo = 0;
    let hi = v.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (v[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < v.length && v[i]!.startsWith(term); i++) if (v[i] !== term) out.push(v[i]!);
    return out;
  }

  /** Index terms within `max` edits of `term` (Levenshtein over UTF-16 units), with their distances; not `term` itself. */
  private near(term: string, max: number): [string, number][] {
    const out: [string, number][] = [];
    const byLen = this.termsByLength();
    for (let l = term.length - max; l <= term.length + max; l++) {
      for (const cand of byLen.get(l) ?? []) {
        if (cand === term) continue;
        const d = max === 1 ? oneEdit(term, cand) : editDistance(term, cand, max);
        if (d <= max) out.push([cand, d]);
      }
    }
    return out;
  }

  private lengthNorms(): Float64Array {
    if (this.lenNorm) return this.lenNorm;
    const F = this.fieldNames.length;
    const norm = new Float64Array(this.slots.length * F).fill(NaN);
    const avg = this.totalLen.map((t) => t / Math.max(1, this.live));
    this.slots.forEach((slot, s) => {
      if (slot) for (let f = 0; f < F; f++) norm[s * F + f] = K1 * (1 - B + (B * slot.len[f]!) / avg[f]!);
    });
    return (this.lenNorm = norm);
  }

  private scratch(n: number): void {
    if (this.acc.length >= n) return;
    const size = Math.max(n, this.acc.length * 2, 64);
    this.acc = new Float64Array(size);
    this.words = new Uint32Array(size);
    this.seen = new Uint8Array(size);
    this.touched = new Int32Array(size);
  }

  search(query: string, opts: { limit?: number; filter?: (doc: T) => boolean } = {}): Hit[] {
    const { weights, source, own } = expandQuery(query, this.opts);
    if (weights.size === 0 || this.live === 0) return [];
    const fuzzy = this.opts.fuzzy ?? 0.2;
    const prefixMin = this.opts.prefixMin ?? 3;
    const maxFuzzy = this.opts.maxFuzzy ?? 1;
    const N = this.live;
    const F = this.fieldNames.length;
    const lenNorm = this.lengthNorms();
    this.scratch(this.slots.length);
    const { acc, words, seen, touched } = this;
    let nTouched = 0;
    let moreWords: Map<number, Set<number>> | undefined;
    const wordIndex = new Map<string, number>();
    // Which query terms each reached index term stands for (to report matches for the results only).
    const reached = new Map<string, string[]>();

    const score = (derived: string, weight: number, word: number): void => {
      const p = this.postings.get(derived);
      if (!p) return;
      for (let f = 0; f < F; f++) {
        const docs = p.docs[f];
        const df = p.df[f]!;
        if (!docs || df === 0) continue;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        const w = weight * this.boosts[f]! * idf;
        const tfs = p.tf[f]!;
        for (let i = 0; i < docs.length; i++) {
          const s = docs[i]!;
          const n = lenNorm[s * F + f]!;
          if (n !== n) continue; // removed
          const tf = tfs[i]!;
          acc[s]! += w * (D + (tf * (K1 + 1)) / (tf + n));
          if (!seen[s]) {
            seen[s] = 1;
            touched[nTouched++] = s;
          }
          if (word < 32) words[s]! |= 1 << word;
          else {
            const set = (moreWords ??= new Map()).get(s);
            if (set) set.add(word);
            else moreWords.set(s, new Set([word]));
          }
        }
      }
    };

    for (const [q, w] of weights) {
      const src = source.get(q) ?? q;
      let word = wordIndex.get(src);
      if (word === undefined) wordIndex.set(src, (word = wordIndex.size));
      const reach = (d: string) => {
        const r = reached.get(d);
        if (r) r.push(q);
        else reached.set(d, [q]);
      };
      if (this.postings.has(q)) reach(q);
      score(q, w, word);
      const isOwn = own.has(q);
      const pre = isOwn && q.length >= prefixMin ? this.prefixed(q) : [];
      for (const d of pre) {
        reach(d);
        score(d, (w * PREFIX_WEIGHT * d.length) / (d.length + 0.3 * (d.length - q.length)), word);
      }
      const edits = isOwn && fuzzy > 0 && q.length > 4 ? Math.min(maxFuzzy, Math.round(q.length * fuzzy)) : 0;
      if (edits > 0) {
        const skip = new Set(pre);
        for (const [d, dist] of this.near(q, edits)) {
          if (skip.has(d)) continue;
          reach(d);
          score(d, (w * FUZZY_WEIGHT * d.length) / (d.length + dist), word);
        }
      }
    }

    // Ranking: the limit best of the touched documents, ties in the order they were first reached.
    const limit = opts.limit ?? 10;
    const best: { s: number; score: number }[] = [];
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i]!;
      const sc = acc[s]! * (popcount(words[s]!) + (moreWords?.get(s)?.size ?? 0));
      if (best.length < limit || sc > best[best.length - 1]!.score) {
        if (!opts.filter || opts.filter(this.slots[s]!.doc)) {
          let at = best.length;
          while (at > 0 && best[at - 1]!.score < sc) at--;
          best.splice(at, 0, { s, score: sc });
          if (best.length > limit) best.pop();
        }
      }
    }
    for (let i = 0; i < nTouched; i++) {
      const s = touched[i]!;
      acc[s] = 0;
      words[s] = 0;
      seen[s] = 0;
    }
    return best.map(({ s, score: sc }) => {
      const slot = this.slots[s]!;
      const match: Record<string, string[]> = {};
      slot.terms.forEach((t, i) => {
        if (!reached.has(t)) return;
        for (let f = 0; f < F; f++) if (slot.fieldBits[i]! & (1 << f)) (match[this.fieldNames[f]!] ??= []).push(t);
      });
      return { id: slot.id, score: sc, match };
    });
  }
}

/** Two sorted lists merged into one sorted list. */
function mergeSorted(a: string[], b: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! <= b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** 0, 1, or 2 (meaning "more than one"): the edit distance of two strings, when it is at most one. No allocation. */
function oneEdit(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return 2;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Compare the rest after skipping one unit of the longer string (or one of each, for a substitution).
  let x = la >= lb ? i + 1 : i;
  let y = lb >= la ? i + 1 : i;
  while (x < la && y < lb) if (a.charCodeAt(x++) !== b.charCodeAt(y++)) return 2;
  return 1;
}

/** Levenshtein distance of two strings, or max + 1 once it must exceed max. */
function editDistance(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1),
      );
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return Math.min(prev[b.length]!, max + 1);
}
