// The seam for dense retrieval: an embeddings provider (an OpenAI-compatible `/v1/embeddings` or Ollama `/api/embed`
// endpoint the user configured), a small cosine index over document vectors, and reciprocal rank fusion of its
// ranking with a lexical one. Lexical search stands alone; this only adds to it when a provider is configured.

/** Turns texts into vectors, one per text, in order. */
export interface EmbeddingsProvider {
  readonly id: string;
  embed(texts: string[]): Promise<number[][]>;
}

export interface EndpointOptions {
  /** e.g. `http://127.0.0.1:11434` (Ollama) or `https://api.openai.com` / any OpenAI-compatible server. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Texts per request (default 64). */
  batch?: number;
}

export class EmbeddingsError extends Error {}

function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

async function postJson(url: string, body: unknown, opts: EndpointOptions): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new EmbeddingsError(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new EmbeddingsError(`${url}: the answer is not JSON`);
  }
}

function checkVectors(url: string, vectors: unknown, count: number): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count)
    throw new EmbeddingsError(`${url}: expected ${count} embeddings`);
  const dim = (vectors[0] as unknown[] | undefined)?.length ?? 0;
  for (const v of vectors) {
    if (
      !Array.isArray(v) ||
      v.length !== dim ||
      dim === 0 ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw new EmbeddingsError(`${url}: an embedding is not a list of ${dim || 'some'} numbers`);
    }
  }
  return vectors as number[][];
}

async function batched(
  texts: string[],
  size: number,
  run: (part: string[]) => Promise<number[][]>,
): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += size) out.push(...(await run(texts.slice(i, i + size))));
  return out;
}

/** OpenAI wire protocol: POST {base}/v1/embeddings {model, input: [...]} → {data: [{index, embedding}]}. */
export function openAIEmbeddings(opts: EndpointOptions): EmbeddingsProvider {
  const url = endpoint(opts.baseUrl, '/v1/embeddings');
  return {
    id: `openai:${opts.model}`,
    embed: (texts) =>
      batched(texts, opts.batch ?? 64, async (input) => {
        const j = (await postJson(url, { model: opts.model, input }, opts)) as {
          data?: { index?: number; embedding?: unknown }[];
        };
        if (!Array.isArray(j?.data)) throw new EmbeddingsError(`${url}: no "data" list in the answer`);
        const sorted = [...j.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        return checkVectors(
          url,
          sorted.map((d) => d.embedding),
          input.length,
        );
      }),
  };
}

/** Ollama wire protocol: POST {base}/api/embed {model, input: [...]} → {embeddings: [[...], ...]}. */
export function ollamaEmbeddings(opts: EndpointOptions): EmbeddingsProvider {
  const url = endpoint(opts.baseUrl, '/api/embed');
  return {
    id: `ollama:${opts.model}`,
    embed: (texts) =>
      batched(texts, opts.batch ?? 64, async (input) => {
        const j = (await postJson(url, { model: opts.model, input }, opts)) as { embeddings?: unknown };
        return checkVectors(url, j?.embeddings, input.length);
      }),
  };
}

function normalized(v: readonly number[]): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * s);
}

/** Document vectors (unit length) and a cosine top-k. Built once per catalog; queries embed one text each. */
export class EmbeddingIndex {
  private readonly ids: string[] = [];
  private readonly vecs: Float32Array[] = [];

  constructor(private readonly provider: EmbeddingsProvider) {}

  get size(): number {
    return this.ids.length;
  }

  async addAll(docs: { id: string; text: string }[]): Promise<void> {
    const vectors = await this.provider.embed(docs.map((d) => d.text));
    docs.forEach((d, i) => {
      this.ids.push(d.id);
      this.vecs.push(normalized(vectors[i]!));
    });
  }

  async search(query: string, limit: number): Promise<{ id: string; score: number }[]> {
    const [qv] = await this.provider.embed([query]);
    const q = normalized(qv!);
    const scored = this.vecs.map((v, i) => {
      let s = 0;
      for (let k = 0; k < Math.min(v.length, q.length); k++) s += v[k]! * q[k]!;
      return { id: this.ids[i]!, score: s };
    });
    return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }
}

/**
 * Reciprocal rank fusion: score(d) = Σ weight_i / (k + rank_i(d)), rank from 1. `k` 60 is the usual choice; a ranking
 * that does not contain d adds nothing. Ties keep the first ranking's order.
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  opts: { k?: number; weights?: readonly number[] } = {},
): string[] {
  const k = opts.k ?? 60;
  const score = new Map<string, number>();
  const first = new Map<string, number>();
  rankings.forEach((list, r) => {
    const w = opts.weights?.[r] ?? 1;
    list.forEach((id, i) => {
      score.set(id, (score.get(id) ?? 0) + w / (k + i + 1));
      if (!first.has(id)) first.set(id, r * 1e6 + i);
    });
  });
  return [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || first.get(a)! - first.get(b)!);
}

/** A lexical ranking fused with the embedding index's ranking of the same request (the hybrid search). */
export async function hybridSearch(
  query: string,
  lexical: (query: string, limit: number) => string[],
  dense: EmbeddingIndex,
  limit: number,
  opts: { depth?: number; k?: number; denseWeight?: number } = {},
): Promise<string[]> {
  const depth = opts.depth ?? Math.max(50, limit);
  const a = lexical(query, depth);
  const b = (await dense.search(query, depth)).map((h) => h.id);
  return reciprocalRankFusion([a, b], {
    ...(opts.k !== undefined ? { k: opts.k } : {}),
    weights: [1, opts.denseWeight ?? 1],
  }).slice(0, limit);
}
