// The best k of a stream of scored documents, without allocating per search: a binary heap in typed arrays
// with the weakest kept document at its root. Equal scores go to the document with the smaller rank.

export class TopK {
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

  offer(d: number, s: number): void {
    const docs = this.docs;
    const scores = this.scores;
    const rank = this.rank;
    if (this.size < this.limit) {
      // Sift up from the end.
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        const ps = scores[p]!;
        if (!(s < ps || (s === ps && rank[d]! > rank[docs[p]!]!))) break;
        docs[i] = docs[p]!;
        scores[i] = ps;
        i = p;
      }
      docs[i] = d;
      scores[i] = s;
      return;
    }
    if (this.size === 0) return;
    const rs = scores[0]!;
    if (s > rs || (s === rs && rank[d]! < rank[docs[0]!]!)) this.siftDown(d, s, this.size);
  }

  /** Order the kept documents best first (the heap is used up). */
  finish(): void {
    const docs = this.docs;
    const scores = this.scores;
    for (let end = this.size - 1; end > 0; end--) {
      const d = docs[end]!;
      const s = scores[end]!;
      docs[end] = docs[0]!;
      scores[end] = scores[0]!;
      this.siftDown(d, s, end);
    }
  }

  /** Put `d` with score `s` at the root of the heap docs/scores[0 … size) and sift it down. */
  private siftDown(d: number, s: number, size: number): void {
    const docs = this.docs;
    const scores = this.scores;
    const rank = this.rank;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      const r = c + 1;
      if (r < size && (scores[r]! < scores[c]! || (scores[r] === scores[c] && rank[docs[r]!]! > rank[docs[c]!]!)))
        c = r;
      const cs = scores[c]!;
      if (!(cs < s || (cs === s && rank[docs[c]!]! > rank[d]!))) break;
      docs[i] = docs[c]!;
      scores[i] = cs;
      i = c;
    }
    docs[i] = d;
    scores[i] = s;
  }
}
