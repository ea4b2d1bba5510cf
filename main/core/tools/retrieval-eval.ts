// Measuring findability: recall@1/5/10 and MRR of a ranker over [{query, gold: [names]}], used by `knack tools eval`,
// `knack skills eval` and the benches. Rankers are plain functions so the searches and BM25 share one harness.
import { readFileSync } from 'node:fs';

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

/** A labelled group of queries (a language, a section of the file). */
export interface EvalGroup {
  label: string;
  queries: EvalQuery[];
}

function parseEntries(file: string, list: unknown[], where: string): EvalQuery[] {
  return list.map((v: unknown, i: number) => {
    const o = v as { query?: unknown; q?: unknown; gold?: unknown };
    const query = o?.query ?? o?.q;
    if (typeof query !== 'string' || !query.trim())
      throw new Error(`${file}${where}[${i}].query: missing or not a string`);
    const gold = typeof o.gold === 'string' ? [o.gold] : o.gold;
    if (!Array.isArray(gold) || !gold.length || !gold.every((g) => typeof g === 'string')) {
      throw new Error(`${file}${where}[${i}].gold: expected a name or a list of names`);
    }
    return { query, gold: gold as string[] };
  });
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

/** Read a queries file: a JSON array of {query, gold} (gold a name or list of names). Throws one clear line. */
export function readQueriesFile(file: string): EvalQuery[] {
  const value = readJson(file);
  if (!Array.isArray(value)) throw new Error(`${file}: expected a JSON array of {query, gold}`);
  return parseEntries(file, value, '');
}

/**
 * Read a queries file in groups: a JSON array of {query, gold} is one group, or an object whose array values are
 * groups named by their keys (`{"en": [...], "zh": [...]}`; other keys such as `about` are ignored). `q` is
 * accepted for `query`.
 */
export function readQueryGroups(file: string): EvalGroup[] {
  const value = readJson(file);
  if (Array.isArray(value)) return [{ label: 'all', queries: parseEntries(file, value, '') }];
  if (value && typeof value === 'object') {
    const groups = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => ({ label: k, queries: parseEntries(file, v as unknown[], `.${k}`) }));
    if (groups.length) return groups;
  }
  throw new Error(
    `${file}: expected a JSON array of {query, gold}, or an object of such arrays (e.g. {"en": [...], "zh": [...]})`,
  );
}
