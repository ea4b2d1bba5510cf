// The dense-retrieval seam against a fake embeddings server on 127.0.0.1 speaking the OpenAI and Ollama wire
// protocols: vectors come back in order and batched, bad answers are clear errors, and reciprocal rank fusion lifts
// a tool the lexical ranking missed without losing what it found.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  EmbeddingIndex,
  EmbeddingsError,
  hybridSearch,
  ollamaEmbeddings,
  openAIEmbeddings,
  reciprocalRankFusion,
} from '../../../main/core/search/embeddings.js';
import { ToolSearchIndex } from '../../../main/core/tools/tool-search.js';

// A toy embedding model: one dimension per concept, counting the concept's words.
const CONCEPTS = [
  ['weather', 'rain', 'forecast', 'umbrella', 'sunny'],
  ['invoice', 'bill', 'pay', 'money', 'charge'],
  ['message', 'chat', 'slack', 'tell', 'notify'],
];
const embed = (text: string) => CONCEPTS.map((ws) => ws.filter((w) => text.toLowerCase().includes(w)).length + 0.01);

const requests: { path: string; auth?: string; body: { model: string; input: string[] } }[] = [];
let mode: 'ok' | 'broken' | 'short' = 'ok';
const body = (req: IncomingMessage) =>
  new Promise<string>((r) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => r(s));
  });
const server = createServer(async (req, res) => {
  const b = JSON.parse(await body(req)) as { model: string; input: string[] };
  requests.push({ path: req.url!, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body: b });
  res.setHeader('content-type', 'application/json');
  if (mode === 'broken') return void res.writeHead(500).end('{"error":"model not loaded"}');
  const vecs = b.input.map(embed).slice(0, mode === 'short' ? 1 : undefined);
  if (req.url === '/v1/embeddings') {
    // Out of order on purpose: clients must sort by index.
    res.end(JSON.stringify({ data: vecs.map((embedding, index) => ({ index, embedding })).reverse(), model: b.model }));
  } else if (req.url === '/api/embed') {
    res.end(JSON.stringify({ model: b.model, embeddings: vecs }));
  } else res.writeHead(404).end('{}');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
after(() => server.close());
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

test('both wire protocols return one vector per text, in order, in batches, with the key when given', async () => {
  requests.length = 0;
  const texts = ['rain tomorrow?', 'pay the bill', 'tell the team', 'sunny forecast', 'charge money'];
  const a = await openAIEmbeddings({ baseUrl: `${base}/`, model: 'm1', apiKey: 'sk-test', batch: 2 }).embed(texts);
  const b = await ollamaEmbeddings({ baseUrl: base, model: 'm2' }).embed(texts);
  assert.deepEqual(a, texts.map(embed));
  assert.deepEqual(b, texts.map(embed));
  assert.deepEqual(
    requests.map((r) => [r.path, r.body.input.length]),
    [
      ['/v1/embeddings', 2],
      ['/v1/embeddings', 2],
      ['/v1/embeddings', 1],
      ['/api/embed', 5],
    ],
  );
  assert.equal(requests[0]!.auth, 'Bearer sk-test');
  assert.equal(requests[3]!.auth, undefined);
});

test('a failing or short answer is a clear error naming the endpoint', async () => {
  mode = 'broken';
  await assert.rejects(
    ollamaEmbeddings({ baseUrl: base, model: 'm' }).embed(['x']),
    (e: Error) => e instanceof EmbeddingsError && /api\/embed: HTTP 500/.test(e.message),
  );
  mode = 'short';
  await assert.rejects(openAIEmbeddings({ baseUrl: base, model: 'm' }).embed(['x', 'y']), /expected 2 embeddings/);
  mode = 'ok';
});

test('reciprocal rank fusion: agreement ranks first, each list contributes, weights tilt it', () => {
  assert.deepEqual(
    reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'a', 'd'],
    ])
      .slice(0, 2)
      .sort(),
    ['a', 'b'],
  );
  assert.deepEqual(reciprocalRankFusion([['a', 'b'], ['c']]), ['a', 'c', 'b']);
  assert.deepEqual(reciprocalRankFusion([['a'], ['c']], { weights: [1, 2] }), ['c', 'a']);
  assert.deepEqual(reciprocalRankFusion([]), []);
});

test('hybrid search lifts a tool the lexical ranking cannot see, and keeps what it found', async () => {
  const tools = [
    {
      name: 'get_forecast',
      summary: 'Weather forecast for a city.',
      description: 'Weather forecast for a city.',
      inputSchema: { type: 'object', properties: {} },
    },
    {
      name: 'send_invoice',
      summary: 'Email an invoice to a customer.',
      description: 'Email an invoice to a customer.',
      inputSchema: { type: 'object', properties: {} },
    },
    {
      name: 'post_message',
      summary: 'Post a message to a Slack channel.',
      description: 'Post a message to a Slack channel.',
      inputSchema: { type: 'object', properties: {} },
    },
  ];
  const lexical = new ToolSearchIndex();
  lexical.addAll(tools);
  const rank = (q: string, n: number) => lexical.search(q, n).tools.map((t) => t.name);
  const dense = new EmbeddingIndex(ollamaEmbeddings({ baseUrl: base, model: 'm' }));
  await dense.addAll(tools.map((t) => ({ id: t.name, text: `${t.name} ${t.description}` })));
  assert.equal(dense.size, 3);
  // No word of the request is in the weather tool's text: lexical search misses it; the embedding does not.
  const q = 'do I need an umbrella, will it rain';
  assert.ok(!rank(q, 5).includes('get_forecast'));
  assert.equal((await hybridSearch(q, rank, dense, 3))[0], 'get_forecast');
  // Where lexical search is right, fusion keeps it first.
  assert.equal((await hybridSearch('send the invoice', rank, dense, 3))[0], 'send_invoice');
});
