// The one ranked full-text index, behind SkillSearch, ToolSearch and marketplace browsing: BM25F over weighted
// fields, prefix matches from a sorted vocabulary, a typo fallback for words the index does not know, weighted
// query expansion (synonyms, Chinese↔English), coordination, and one round of pseudo-relevance feedback (RM3).
// What differs between the callers (fields, weights, expansions, feedback) is configuration.
//
// Terms are interned to stable integer ids when a document is added; postings are recompiled lazily on the next
// search after a change. Everything a search touches per query (scores, coverage masks, the plan, feedback weights)
// lives in typed arrays reused across searches and reset through touched lists, so a search allocates almost nothing.
import { BoundedMap } from '../base/index.js';
import { hasHan, terms } from './tokenize.js';
import { requestTerms, type QueryNormalization } from './query.js';

/** Expands one query term into extra terms (synonyms, translations). Expanded terms rank lower. */
export type Expander = (term: string) => string[];

export interface FieldSpec {
  weight: number;
  /** Length normalisation for this field (BM25 b). */
  b: number;
}

export interface RankedIndexOptions {
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
   * as a vector-space model does by weighting query and document alike.
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

/**
 * A document, tokenised once when it is added: what compile() needs of it is its own (no other document changes it),
 * so a change of one document costs one tokenisation, and compile() derives every weight from these runs with no
 * per-term map and no word read again.
 */
interface Doc {
  id: string;
  /** Whatever the caller attached (ToolSearch: the tool and its re-ranking features). */
  data: unknown;
  alive: boolean;
  /** Its distinct term ids, in first-occurrence order across the fields (fields in option order). */
  tids: Int32Array;
  /** Per run entry: P(t|d), the term's share of the document's field-weighted text. */
  lm: Float64Array;
  /**
   * Per field f, its distinct terms in first-occurrence order as [cStart[f], cStart[f + 1]) of cEntry (the term's
   * index in `tids`) and cCount (its count in the field); and the field's length in terms.
   */
  cStart: Int32Array;
  cEntry: Int32Array;
  cCount: Int32Array;
  lens: Int32Array;
}

/** An index's documents as tokenised (RankedIndex.snapshot / restore). */
export interface IndexSnapshot {
  terms: string[];
  ids: string[];
  ints: Int32Array;
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
/** Prefix matches per request word, and typo matches per unknown word. */
const PREFIX_CAP = 24;
const TYPO_CAP = 8;

const EMPTY_I32 = new Int32Array(0);
const EMPTY_F32 = new Float32Array(0);
const EMPTY_F64 = new Float64Array(0);

export class RankedIndex {
  private readonly fieldNames: string[];
  private readonly specs: FieldSpec[];
  private readonly docs: Doc[] = [];
  private readonly byId = new Map<string, number>();
  private dirty = true;
  private alive = 0;

  /** Term dictionary: ids are stable for the index's lifetime (a removed document's words keep theirs). */
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  /**
   * Postings as of the last compile, one flat run per term id (postStart[t] … postStart[t + 1]): documents and
   * saturated weights; and per term id idf^power (0 = not indexed).
   */
  private postStart = EMPTY_I32;
  private postDoc = EMPTY_I32;
  private postW = EMPTY_F32;
  private idf = EMPTY_F64;
  private vocab: string[] = [];
  /** Per document number: rank of its id in code-unit order (ties between equal scores go to the smaller id). */
  private idRank = EMPTY_I32;
  /** The live document numbers in id order, as of the last compile. */
  private byName: number[] = [];
  /**
   * Per document number, as of the last compile, in one flat run per document (docStart[d] … docStart[d + 1]):
   * its distinct term ids, their saturated BM25F weight (without idf) and P(t|d) (share of its weighted text).
   */
  private docStart = EMPTY_I32;
  private docTerm = EMPTY_I32;
  private docSat = EMPTY_F64;
  private docLm = EMPTY_F64;
  /** Per term id, documents holding it as of the last compile; the averages the weights were made with. */
  private df = EMPTY_I32;
  private avg: Float64Array = EMPTY_F64;
  /** Per field, the live documents' total length in terms (integers: exact however it is added up). */
  private lenSum: number[];
  /** Document numbers added and removed since the last compile (compile patches those in). */
  private pendingAdds: number[] = [];
  private pendingRemovals: number[] = [];
  /** How many compiles rebuilt everything and how many patched a change in (tests, benchmarks). */
  readonly compiled = { rebuilt: 0, patched: 0 };
  private readonly wordCache = new BoundedMap<string, WordPlan>(WORD_CACHE_LIMIT);

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

  constructor(private readonly opts: RankedIndexOptions) {
    this.fieldNames = Object.keys(opts.fields);
    this.specs = this.fieldNames.map((f) => opts.fields[f]!);
    this.lenSum = this.specs.map(() => 0);
  }

  get size(): number {
    return this.alive;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** What was attached to a document when it was added. */
  get(id: string): unknown {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.docs[i]!.data;
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
    const F = this.specs.length;
    const entryOf = new Map<number, number>();
    const tids: number[] = [];
    const raw: number[] = [];
    const cStart = new Int32Array(F + 1);
    const cEntry: number[] = [];
    const cCount: number[] = [];
    const lens = new Int32Array(F);
    let weighted = 0;
    for (let f = 0; f < F; f++) {
      const spec = this.specs[f]!;
      const ts = terms(fields[this.fieldNames[f]!] ?? '');
      const tf = new Map<number, number>();
      for (const t of ts) {
        const tid = this.intern(t);
        tf.set(tid, (tf.get(tid) ?? 0) + 1);
      }
      lens[f] = ts.length;
      weighted += spec.weight * ts.length;
      cStart[f] = cEntry.length;
      for (const [t, c] of tf) {
        let e = entryOf.get(t);
        if (e === undefined) {
          e = tids.push(t) - 1;
          entryOf.set(t, e);
          raw.push(0);
        }
        cEntry.push(e);
        cCount.push(c);
        raw[e]! += spec.weight * c;
      }
    }
    cStart[F] = cEntry.length;
    const doc: Doc = {
      id,
      data,
      alive: true,
      tids: Int32Array.from(tids),
      lm: Float64Array.from(raw, (r) => (weighted ? r / weighted : 0)),
      cStart,
      cEntry: Int32Array.from(cEntry),
      cCount: Int32Array.from(cCount),
      lens,
    };
    for (let f = 0; f < F; f++) this.lenSum[f]! += lens[f]!;
    this.pendingAdds.push(this.docs.length);
    this.byId.set(id, this.docs.length);
    this.docs.push(doc);
    this.alive++;
    this.dirty = true;
  }

  /**
   * The live documents as tokenised, in the form `restore` takes back: the vocabulary, the ids, and per document its
   * runs as Int32 ([terms n, term ids × n, field starts × F+1, entries m, entry × m, count × m, field lengths × F]).
   * Weights are not in it: they are worked out again from these (bit for bit what `add` gave).
   */
  snapshot(): IndexSnapshot {
    const live = this.docs.filter((d) => d.alive);
    const F = this.specs.length;
    let n = 0;
    for (const d of live) n += 2 + d.tids.length + F + 1 + 2 * d.cEntry.length + F;
    const ints = new Int32Array(n);
    let at = 0;
    for (const d of live) {
      ints[at++] = d.tids.length;
      ints.set(d.tids, at);
      at += d.tids.length;
      ints.set(d.cStart, at);
      at += F + 1;
      ints[at++] = d.cEntry.length;
      ints.set(d.cEntry, at);
      at += d.cEntry.length;
      ints.set(d.cCount, at);
      at += d.cCount.length;
      ints.set(d.lens, at);
      at += F;
    }
    return { terms: [...this.termText], ids: live.map((d) => d.id), ints };
  }

  /**
   * Add the documents of a snapshot (this index's fields, in the same order) to this empty index without tokenising
   * their text again; `data` gives what to attach to each id. Throws on anything out of bounds (a damaged snapshot),
   * leaving the index empty. The documents keep views of `snap.ints`: the caller hands it over and never changes it.
   */
  restore(snap: IndexSnapshot, data: (id: string) => unknown): void {
    if (this.docs.length || this.termText.length) throw new Error('restore needs an empty index');
    const F = this.specs.length;
    const T = snap.terms.length;
    const { ints } = snap;
    const docs: Doc[] = [];
    let at = 0;
    // Views of the snapshot's own buffer, not copies: a restored index of thousands of documents would otherwise
    // allocate six arrays per document.
    const take = (n: number): Int32Array => {
      if (n < 0 || at + n > ints.length) throw new Error('index snapshot: runs cut short');
      const a = ints.subarray(at, at + n);
      at += n;
      return a;
    };
    const one = (): number => {
      if (at >= ints.length) throw new Error('index snapshot: runs cut short');
      return ints[at++]!;
    };
    for (const id of snap.ids) {
      const tids = take(one());
      for (let k = 0; k < tids.length; k++) {
        const t = tids[k]!;
        if (t < 0 || t >= T) throw new Error('index snapshot: a term id out of range');
      }
      const cStart = take(F + 1);
      const m = one();
      const cEntry = take(m);
      const cCount = take(m);
      const lens = take(F);
      if (cStart[0] !== 0 || cStart[F] !== m) throw new Error('index snapshot: field starts do not add up');
      const raw = new Float64Array(tids.length);
      let weighted = 0;
      for (let f = 0; f < F; f++) {
        const w = this.specs[f]!.weight;
        if (cStart[f + 1]! < cStart[f]! || lens[f]! < 0) throw new Error('index snapshot: a field out of order');
        weighted += w * lens[f]!;
        for (let k = cStart[f]!; k < cStart[f + 1]!; k++) {
          const e = cEntry[k]!;
          if (e < 0 || e >= tids.length || cCount[k]! < 1) throw new Error('index snapshot: an entry out of range');
          raw[e]! += w * cCount[k]!;
        }
      }
      for (let e = 0; e < raw.length; e++) raw[e] = weighted ? raw[e]! / weighted : 0;
      docs.push({ id, data: data(id), alive: true, tids, lm: raw, cStart, cEntry, cCount, lens });
    }
    if (at !== ints.length) throw new Error('index snapshot: runs left over');
    if (new Set(snap.ids).size !== snap.ids.length) throw new Error('index snapshot: an id twice');
    if (new Set(snap.terms).size !== T) throw new Error('index snapshot: a term twice');
    for (const t of snap.terms) this.intern(t);
    for (const d of docs) {
      for (let f = 0; f < F; f++) this.lenSum[f]! += d.lens[f]!;
      this.pendingAdds.push(this.docs.length);
      this.byId.set(d.id, this.docs.length);
      this.docs.push(d);
      this.alive++;
    }
    this.dirty = true;
  }

  remove(id: string): void {
    const i = this.byId.get(id);
    if (i === undefined) return;
    const d = this.docs[i]!;
    d.alive = false;
    for (let f = 0; f < this.specs.length; f++) this.lenSum[f]! -= d.lens[f]!;
    this.pendingRemovals.push(i);
    this.byId.delete(id);
    this.alive--;
    this.dirty = true;
  }

  private known(tid: number): boolean {
    return tid >= 0 && tid < this.idf.length && this.idf[tid]! > 0;
  }

  /**
   * Bring postings, idf and the per-document runs up to date with the documents added and removed since the last
   * compile, into flat typed arrays: a search after a change pays for this once (or the caller, ahead of it).
   *
   * A change of a few documents is patched in: their runs are appended, their postings cut out and spliced in, and
   * only idf (per term) and the name order (per document) are worked out again; the other documents' weights stand.
   * They can, because a saturated weight depends on the rest of the index only through the average field lengths,
   * taken on a grid (averageOnGrid) that a few documents rarely move. When they do move it, after many removals
   * (compaction), and at the first compile, everything is rebuilt. Both ways give the same index, weights and ranks.
   */
  compile(): void {
    if (!this.dirty) return;
    const avg = this.averages();
    const full =
      this.docStart.length === 0 ||
      this.docs.length > this.alive * 2 + 64 ||
      avg.some((a, f) => a !== this.avg[f]) ||
      this.pendingAdds.length + this.pendingRemovals.length > this.alive / 4;
    if (full) this.rebuild(avg);
    else this.patch();
    this.compiled[full ? 'rebuilt' : 'patched']++;
    this.pendingAdds = [];
    this.pendingRemovals = [];
    this.finish();
  }

  /** Per field, the live documents' average length on the grid (at least 1), from the exact running sums. */
  private averages(): Float64Array {
    const F = this.specs.length;
    const avg = new Float64Array(F);
    for (let f = 0; f < F; f++) avg[f] = averageOnGrid(this.alive ? this.lenSum[f]! / this.alive : 1);
    return avg;
  }

  /** A document's run: its terms, saturated weights and P(t|d), written at `at` of docTerm/docSat/docLm. */
  private writeRun(d: Doc, at: number, x: Float64Array, df: Int32Array): void {
    const k1 = this.opts.k1 ?? 1.2;
    const { tids, cStart, cEntry, cCount } = d;
    for (let f = 0; f < this.specs.length; f++) {
      const spec = this.specs[f]!;
      const norm = 1 - spec.b + (spec.b * d.lens[f]!) / this.avg[f]!;
      for (let k = cStart[f]!, end = cStart[f + 1]!; k < end; k++) x[cEntry[k]!]! += (spec.weight * cCount[k]!) / norm;
    }
    for (let e = 0; e < tids.length; e++) {
      const t = tids[e]!;
      const xe = x[e]!;
      this.docTerm[at + e] = t;
      this.docSat[at + e] = (xe * (k1 + 1)) / (xe + k1);
      this.docLm[at + e] = d.lm[e]!;
      df[t]!++;
      x[e] = 0;
    }
  }

  /** Everything from the documents' runs: removed documents dropped (renumbered), every weight worked out again. */
  private rebuild(avg: Float64Array): void {
    if (this.docs.length > this.alive) {
      const live = this.docs.filter((d) => d.alive);
      this.docs.length = 0;
      this.byId.clear();
      for (const d of live) {
        this.byId.set(d.id, this.docs.length);
        this.docs.push(d);
      }
    }
    this.avg = avg;
    const T = this.termText.length;
    const D = this.docs.length;
    let m = 0;
    let widest = 0;
    for (const d of this.docs) {
      m += d.tids.length;
      if (d.tids.length > widest) widest = d.tids.length;
    }
    const start = new Int32Array(D + 1);
    this.docTerm = new Int32Array(m);
    this.docSat = new Float64Array(m);
    this.docLm = new Float64Array(m);
    const df = new Int32Array(T);
    const x = new Float64Array(widest);
    for (let di = 0, at = 0; di < D; di++) {
      start[di] = at;
      this.writeRun(this.docs[di]!, at, x, df);
      at += this.docs[di]!.tids.length;
    }
    start[D] = m;
    this.docStart = start;
    this.df = df;
    this.byName = this.docs.map((_, i) => i).sort((a, b) => (this.docs[a]!.id < this.docs[b]!.id ? -1 : 1));
    // Postings in document order: counts to offsets, then one pass over the documents' runs.
    const postStart = new Int32Array(T + 1);
    for (let t = 0, at = 0; t < T; t++) {
      postStart[t] = at;
      at += df[t]!;
    }
    postStart[T] = m;
    const fill = postStart.slice(0, T);
    const postDoc = new Int32Array(m);
    const postW = new Float32Array(m);
    for (let di = 0; di < D; di++) {
      for (let j = start[di]!, end = start[di + 1]!; j < end; j++) {
        const at = fill[this.docTerm[j]!]!++;
        postDoc[at] = di;
        postW[at] = this.docSat[j]!;
      }
    }
    this.postStart = postStart;
    this.postDoc = postDoc;
    this.postW = postW;
  }

  /**
   * The documents added since the last compile get runs after the others' and postings at the end of their terms'
   * (their numbers are the highest); the removed ones' postings are cut out (their runs stay, unread, until a rebuild).
   */
  private patch(): void {
    const T = this.termText.length;
    const oldD = this.docStart.length - 1;
    const D = this.docs.length;
    const oldM = this.docStart[oldD]!;
    // Runs: the new documents' after the last one (a document added and removed since has none).
    let grow = 0;
    let widest = 0;
    for (let di = oldD; di < D; di++) {
      const d = this.docs[di]!;
      if (!d.alive) continue;
      grow += d.tids.length;
      if (d.tids.length > widest) widest = d.tids.length;
    }
    const start = new Int32Array(D + 1);
    start.set(this.docStart.subarray(0, oldD + 1));
    // Room for more runs is kept (a quarter more each time it runs out): a patch copies the runs only then.
    const grown = <A extends Int32Array | Float64Array>(a: A, make: (n: number) => A): A => {
      if (a.length >= oldM + grow) return a;
      const b = make(Math.ceil((oldM + grow) * 1.25));
      b.set(a.subarray(0, oldM));
      return b;
    };
    this.docTerm = grown(this.docTerm, (n) => new Int32Array(n));
    this.docSat = grown(this.docSat, (n) => new Float64Array(n));
    this.docLm = grown(this.docLm, (n) => new Float64Array(n));
    const df = new Int32Array(T);
    df.set(this.df.subarray(0, Math.min(T, this.df.length)));
    const x = new Float64Array(widest);
    let at = oldM;
    // New postings, (term, document, weight), in document order, then ordered by term (a stable sort keeps documents in order).
    const addT: number[] = [];
    const addD: number[] = [];
    const addW: number[] = [];
    for (let di = oldD; di < D; di++) {
      start[di] = at;
      const d = this.docs[di]!;
      if (!d.alive) continue;
      this.writeRun(d, at, x, df);
      for (let j = at; j < at + d.tids.length; j++) {
        addT.push(this.docTerm[j]!);
        addD.push(di);
        addW.push(this.docSat[j]!);
      }
      at += d.tids.length;
    }
    start[D] = at;
    this.docStart = start;
    const adds = addT.map((_, k) => k).sort((a, b) => addT[a]! - addT[b]!);
    // Name order: the removed documents leave it, the added ones are merged in where their ids sort.
    const id = (d: number): string => this.docs[d]!.id;
    const newcomers: number[] = [];
    for (let di = oldD; di < D; di++) if (this.docs[di]!.alive) newcomers.push(di);
    newcomers.sort((a, b) => (id(a) < id(b) ? -1 : 1));
    const byName: number[] = [];
    let c = 0;
    for (const d of this.byName) {
      if (!this.docs[d]!.alive) continue;
      while (c < newcomers.length && id(newcomers[c]!) < id(d)) byName.push(newcomers[c++]!);
      byName.push(d);
    }
    while (c < newcomers.length) byName.push(newcomers[c++]!);
    this.byName = byName;
    // Removed documents: their terms lose them.
    const gone = new Uint8Array(oldD);
    const touched = new Set<number>();
    for (const d of this.pendingRemovals) {
      if (d >= oldD) continue;
      gone[d] = 1;
      for (let j = start[d]!, end = start[d + 1]!; j < end; j++) {
        touched.add(this.docTerm[j]!);
        df[this.docTerm[j]!]!--;
      }
    }
    for (const t of addT) touched.add(t);
    const order = [...touched].sort((a, b) => a - b);
    // The touched terms' runs are rebuilt; the runs between them move as blocks.
    const oldStart = this.postStart;
    const oldT = oldStart.length - 1;
    const oldAt = (t: number): number => oldStart[Math.min(t, oldT)]!;
    const postStart = new Int32Array(T + 1);
    let m = 0;
    for (let t = 0; t < T; t++) {
      postStart[t] = m;
      m += df[t]!;
    }
    postStart[T] = m;
    const postDoc = new Int32Array(m);
    const postW = new Float32Array(m);
    const block = (from: number, to: number): void => {
      if (from >= to) return;
      postDoc.set(this.postDoc.subarray(oldAt(from), oldAt(to)), postStart[from]!);
      postW.set(this.postW.subarray(oldAt(from), oldAt(to)), postStart[from]!);
    };
    let next = 0;
    let k = 0;
    for (const t of order) {
      block(next, t);
      let p = postStart[t]!;
      for (let j = oldAt(t), end = oldAt(t + 1); j < end; j++) {
        const d = this.postDoc[j]!;
        if (gone[d]) continue;
        postDoc[p] = d;
        postW[p++] = this.postW[j]!;
      }
      while (k < adds.length && addT[adds[k]!]! < t) k++;
      for (; k < adds.length && addT[adds[k]!] === t; k++) {
        postDoc[p] = addD[adds[k]!]!;
        postW[p++] = addW[adds[k]!]!;
      }
      next = t + 1;
    }
    block(next, T);
    this.postStart = postStart;
    this.postDoc = postDoc;
    this.postW = postW;
    this.df = df;
  }

  /** idf per term, the vocabulary, the name order and the scratch sizes, after a rebuild or a patch. */
  private finish(): void {
    const n = this.alive;
    const T = this.termText.length;
    const D = this.docs.length;
    const df = this.df;
    const power = this.opts.idfPower ?? 1.5;
    const idf = new Float64Array(T);
    let vocabChanged = T !== this.idf.length;
    for (let t = 0; t < T; t++) {
      if (df[t]) idf[t] = Math.log(1 + (n - df[t]! + 0.5) / (df[t]! + 0.5)) ** power;
      if (!vocabChanged && idf[t]! > 0 !== this.idf[t]! > 0) vocabChanged = true;
    }
    this.idf = idf;
    // The sorted vocabulary (prefix and typo matches) changes only when a term gains its first or loses its last document.
    if (vocabChanged) this.vocab = this.termText.filter((_, t) => idf[t]! > 0).sort();
    this.idRank = new Int32Array(D);
    this.byName.forEach((d, r) => (this.idRank[d] = r));
    if (this.scores.length < D) {
      this.scores = new Float64Array(D * 2);
      this.masks = new Uint32Array(D * 2);
      this.touched = new Int32Array(D * 2);
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
      for (let i = lowerBound(this.vocab, t), n = 0; i < this.vocab.length && n < PREFIX_CAP; i++) {
        const p = this.vocab[i]!;
        if (!p.startsWith(t)) break;
        if (p === t) continue;
        direct.push(this.termId(p));
        directF.push(pw * (t.length / p.length));
        viaPrefix = true;
        n++;
      }
    }
    if (!known && !viaPrefix && fw > 0 && t.length > 4) {
      // Words with the same first letter within one edit (two from 8 letters on).
      const max = t.length >= 8 ? 2 : 1;
      for (let i = 0, n = 0; i < this.vocab.length && n < TYPO_CAP; i++) {
        const v = this.vocab[i]!;
        if (Math.abs(v.length - t.length) > max || v[0] !== t[0] || !withinEdits(t, v, max)) continue;
        direct.push(this.termId(v));
        directF.push(fw);
        n++;
      }
    }
    const exp = this.expansions().map(({ expand, weight: ew, unknownOnly }) => {
      const out = { tids: [] as number[], f: [] as number[] };
      if (unknownOnly && known) return out;
      for (const rawTerm of expand(t)) {
        const parts = terms(rawTerm);
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

  /** Build the current plan for a query; returns its request words (plan sources index into them). */
  private buildPlan(query: string): { term: string; weight: number }[] {
    this.compile();
    this.clearPlan();
    const norm = this.opts.normalize ?? {};
    const own =
      norm === false
        ? [...new Set(terms(query))].map((term) => ({ term, weight: 1 }))
        : requestTerms(query, terms, norm);
    const plans = own.map((o) => this.wordPlan(o.term));
    for (let s = 0; s < own.length; s++) {
      const w = own[s]!.weight;
      const p = plans[s]!;
      for (let j = 0; j < p.direct.length; j++) this.put(p.direct[j]!, w * p.directF[j]!, s);
    }
    // The segmenter may split one dictionary word (数据库 → 数据 + 库): adjacent Chinese words are also
    // expanded joined, credited to the first of them.
    const expanded: [number, WordPlan][] = plans.map((p, s) => [s, p]);
    for (let s = 0; s + 1 < own.length; s++) {
      const [a, b] = [own[s]!.term, own[s + 1]!.term];
      if (hasHan(a) && hasHan(b)) expanded.push([s, this.wordPlan(a + b)]);
    }
    const nExp = this.expansions().length;
    for (let k = 0; k < nExp; k++) {
      for (const [s, p] of expanded) {
        const w = own[s]!.weight;
        const e = p.exp[k]!;
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

  /** The best `limit` documents for a request (no feedback), with their scores. */
  search(query: string, limit: number, filter?: (id: string) => boolean): IndexHit[] {
    const own = this.buildPlan(query);
    const n = this.rank(this.planT, this.planW, this.planSrc, this.planN, own.length, limit, filter);
    this.clearPlan();
    const out: IndexHit[] = [];
    for (let i = 0; i < n; i++) out.push({ id: this.docs[this.top.docs[i]!]!.id, score: this.top.scores[i]! });
    return out;
  }

  /** Per field, the given terms a document holds (which words of a request it matched). */
  matched(id: string, plan: readonly { term: string }[]): Record<string, string[]> {
    const i = this.byId.get(id);
    const out: Record<string, string[]> = {};
    if (i === undefined) return out;
    const want = new Set(plan.map((p) => this.termId(p.term)));
    const d = this.docs[i]!;
    for (let f = 0; f < this.specs.length; f++) {
      const hit: string[] = [];
      for (let k = d.cStart[f]!; k < d.cStart[f + 1]!; k++) {
        const t = d.tids[d.cEntry[k]!]!;
        if (want.has(t)) hit.push(this.termText[t]!);
      }
      if (hit.length) out[this.fieldNames[f]!] = hit;
    }
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
      const docs = this.postDoc;
      const w = this.postW;
      const f = this.idf[t]! * ws[i]!;
      const slot = coverage > 0 ? slotOfSrc[srcs[i]!]! : -1;
      const bit = slot >= 0 ? this.slotBit[slot]! : 0;
      for (let j = this.postStart[t]!, end = this.postStart[t + 1]!; j < end; j++) {
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
    const hits = this.rank(this.planT, this.planW, this.planSrc, n, own.length, depth);
    if (feedback && feedback.weight > 0 && hits > 1) {
      let total = 0;
      for (let i = 0; i < n; i++) total += this.planW[i]!;
      total ||= 1;
      const top = this.top;
      const nFb = this.feedbackInto(top.docs, top.scores, Math.min(feedback.docs, hits), feedback.terms);
      const w = feedback.weight;
      const f = this.termScratch2;
      for (let i = 0; i < nFb; i++) f[this.fbT[i]!] = this.idf[this.fbT[i]!]! * this.fbW[i]!;
      for (let i = 0; i < hits; i++) {
        const d = top.docs[i]!;
        let fb = 0;
        for (let j = this.docStart[d]!, end = this.docStart[d + 1]!; j < end; j++)
          fb += f[this.docTerm[j]!]! * this.docSat[j]!;
        top.scores[i] = ((1 - w) * top.scores[i]!) / total + w * fb;
      }
      for (let i = 0; i < nFb; i++) f[this.fbT[i]!] = 0;
    }
    // The plan stays readable (planTerms) until the next search; only its position index is cleared now.
    for (let i = 0; i < n; i++) this.planPos[this.planT[i]!] = -1;
    this.planN = 0;
    return { n: hits, docs: this.top.docs, scores: this.top.scores, planTerms: this.planT, planCount: n };
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
}

/**
 * An average field length on a grid of 32 steps per doubling (each within 1.1% of the exact one): the saturated
 * weights use this, so adding or removing a few documents leaves the others' weights as they are (RankedIndex.compile
 * patches) and a fresh index over the same documents has the very same weights.
 */
export function averageOnGrid(avg: number): number {
  return Math.max(1, 2 ** (Math.round(Math.log2(Math.max(avg, 1)) * 32) / 32));
}

/** The first index of sorted `xs` whose value is not below `x` (xs.length when none is). */
export function lowerBound<T extends string | number>(xs: readonly T[], x: T): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the Levenshtein distance of two strings is at most `max` (stops once a row exceeds it). */
function withinEdits(a: string, b: string, max: number): boolean {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost));
      if (cur[j]! < rowMin) rowMin = cur[j]!;
    }
    if (rowMin > max) return false;
    prev = cur;
  }
  return prev[b.length]! <= max;
}

/**
 * The best k of a stream of scored documents, without allocating per search: a binary heap in typed arrays with
 * the weakest kept document at its root. Equal scores go to the document with the smaller rank.
 */
class TopK {
  /** Best first after finish(): document numbers and their scores, `size` of them. */
  docs = new Int32Array(64);
  scores = new Float64Array(64);
  size = 0;
  private limit = 0;
  private rank: Int32Array = new Int32Array(0);

  /** Start a selection of at most `limit` documents; `rank` breaks ties (smaller wins). */
  reset(limit: number, rank: Int32Array): void {
    if (this.docs.length < limit) {
      this.docs = new Int32Array(limit * 2);
      this.scores = new Float64Array(limit * 2);
    }
    this.limit = limit;
    this.rank = rank;
    this.size = 0;
  }

  /** Whether document a (score sa) ranks below document b (score sb). */
  private below(sa: number, a: number, sb: number, b: number): boolean {
    return sa < sb || (sa === sb && this.rank[a]! > this.rank[b]!);
  }

  offer(d: number, s: number): void {
    const { docs, scores } = this;
    if (this.size < this.limit) {
      // Sift up from the end.
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.below(s, d, scores[p]!, docs[p]!)) break;
        docs[i] = docs[p]!;
        scores[i] = scores[p]!;
        i = p;
      }
      docs[i] = d;
      scores[i] = s;
    } else if (this.size > 0 && this.below(scores[0]!, docs[0]!, s, d)) this.siftDown(d, s, this.size);
  }

  /** Order the kept documents best first (the heap is used up). */
  finish(): void {
    for (let end = this.size - 1; end > 0; end--) {
      const d = this.docs[end]!;
      const s = this.scores[end]!;
      this.docs[end] = this.docs[0]!;
      this.scores[end] = this.scores[0]!;
      this.siftDown(d, s, end);
    }
  }

  /** Put `d` with score `s` at the root of the heap docs/scores[0 … size) and sift it down. */
  private siftDown(d: number, s: number, size: number): void {
    const { docs, scores } = this;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && this.below(scores[c + 1]!, docs[c + 1]!, scores[c]!, docs[c]!)) c++;
      if (!this.below(scores[c]!, docs[c]!, s, d)) break;
      docs[i] = docs[c]!;
      scores[i] = scores[c]!;
      i = c;
    }
    docs[i] = d;
    scores[i] = s;
  }
}
