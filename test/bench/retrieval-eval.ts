// Measuring findability: recall@1/5/10 and MRR of a ranker over [{query, gold: [names]}], for the tools and matching
// benches. Rankers are plain functions so the searches and BM25 share one harness.

export interface EvalQuery {
  query: string;
  gold: string[];
}

export interface EvalReport {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  /** Queries whose gold tools are not in the catalog at all (counted as misses). */
  unknownGold: number;
}

/** A ranker returns tool names, best first (at least 10 when it can). */
export type Ranker = (query: string) => string[];

export function evaluate(queries: EvalQuery[], rank: Ranker, known?: (name: string) => boolean): EvalReport {
  let r1 = 0;
  let r5 = 0;
  let r10 = 0;
  let rr = 0;
  let unknownGold = 0;
  for (const q of queries) {
    if (known && !q.gold.some(known)) unknownGold++;
    const gold = new Set(q.gold);
    const idx = rank(q.query).findIndex((n) => gold.has(n));
    if (idx < 0) continue;
    if (idx < 1) r1++;
    if (idx < 5) r5++;
    if (idx < 10) r10++;
    rr += 1 / (idx + 1);
  }
  const n = queries.length || 1;
  return {
    queries: queries.length,
    recallAt1: r1 / n,
    recallAt5: r5 / n,
    recallAt10: r10 / n,
    mrr: rr / n,
    unknownGold,
  };
}
