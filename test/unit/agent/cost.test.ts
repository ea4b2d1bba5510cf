import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import {
  costOf,
  priceFor,
  readProvidersFile,
  resolveProvider,
  writeProvidersFile,
  exportSessionOf,
} from '../../../main/core/agent/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { english } from '../../../preload/words.js';

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

test('cost of a call: plain input, cache reads, cache writes and output each at their price per million tokens', () => {
  const sonnet = priceFor('anthropic', 'claude-sonnet-4-5')!;
  // 1,000,000 prompt tokens of which 200,000 read from the cache and 100,000 written to it; 100,000 out.
  const c = costOf(usage(1_000_000, 100_000, 200_000, 100_000), sonnet)!;
  assert.ok(Math.abs(c - (0.7 * 3 + 0.2 * 0.3 + 0.1 * 3.75 + 0.1 * 15)) < 1e-9, String(c));
  assert.equal(costOf(usage(10, 10), priceFor('ollama', 'qwen2.5-coder:7b')), 0, 'local models are free');
});

test('no price, no cost: an unknown model, or cached tokens without a cache price, are never guessed', () => {
  assert.equal(priceFor('anthropic', 'claude-unreleased-9'), undefined);
  assert.equal(priceFor('my-proxy', 'whatever'), undefined);
  assert.equal(costOf(usage(100, 10), undefined), undefined);
  assert.equal(costOf(usage(100, 10, 50), { input: 1, output: 2 }), undefined);
  assert.equal(costOf(usage(100, 10), { input: 1, output: 2 }), (100 + 20) / 1e6);
});

test('prices in providers.json override the table, per provider/model or per model; a malformed one is named and ignored', () => {
  const dataDir = tempDir('knack-prices-');
  writeProvidersFile(dataDir, {
    providers: {},
    prices: {
      'anthropic/claude-sonnet-5-5': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1 },
      'my-model': { input: 5, output: 6 },
      bad: { input: -1, output: 'x' } as never,
    },
  });
  const { file, warnings } = readProvidersFile(dataDir);
  assert.deepEqual(file.prices?.['my-model'], { input: 5, output: 6 });
  assert.equal(file.prices?.bad, undefined);
  assert.ok(
    warnings.some((w) => /prices\.bad: expected/.test(english(w))),
    warnings.map(english).join('\n'),
  );
  const r = resolveProvider({ provider: 'anthropic' }, { dataDir, env: { ANTHROPIC_API_KEY: 'sk-ant-x-1234567890' } });
  assert.deepEqual(r.config?.price, { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1 });
  const o = resolveProvider(
    { provider: 'openai', model: 'my-model' },
    { dataDir, env: { OPENAI_API_KEY: 'sk-x-1234567890' } },
  );
  assert.deepEqual(o.config?.price, { input: 5, output: 6 });
  const u = resolveProvider(
    { provider: 'openai', model: 'gpt-unknown' },
    { dataDir, env: { OPENAI_API_KEY: 'sk-x-1234567890' } },
  );
  assert.equal(u.config?.price, undefined);
});

test('usage events carry the cost of each call and of the session; the Markdown and JSON exports show them', async () => {
  const env = await agentEnv();
  writeProvidersFile(env.dataDir, {
    providers: {},
    prices: { 'anthropic/fake-model': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
  });
  env.server.script(
    { text: 'one', usage: { input: 1000, output: 100, cacheRead: 4000 } },
    { text: 'two', usage: { input: 2000, output: 200 } },
  );
  const chat = env.agent.newSession();
  await chat.send('first');
  await chat.send('second');
  const events = chat.events().filter((e) => e.type === 'usage');
  assert.equal(events.length, 2);
  const first = (1000 * 3 + 4000 * 0.3 + 100 * 15) / 1e6;
  const second = (2000 * 3 + 200 * 15) / 1e6;
  assert.ok(events[0]!.type === 'usage' && Math.abs(events[0]!.cost! - first) < 1e-12);
  assert.ok(events[1]!.type === 'usage' && Math.abs(events[1]!.totalCost! - (first + second)) < 1e-12);
  assert.ok(Math.abs(chat.cost()! - (first + second)) < 1e-12);
  const md = exportSessionOf(env.ws, chat.id, 'md');
  assert.match(
    md,
    /tokens: 5,000 in \(4,000 read from cache, 0 written\), 100 out · \$0\.0057 this turn · session cost \$0\.0057/,
  );
  assert.match(md, /\$0\.0147 in all/);
  const json = JSON.parse(exportSessionOf(env.ws, chat.id, 'json')) as {
    usage: { costUsd: number; outputTokens: number };
  };
  assert.ok(Math.abs(json.usage.costUsd - (first + second)) < 1e-12);
  assert.equal(json.usage.outputTokens, 300);
});

test('a model without a price: tokens are shown, the cost is not', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'hi', usage: { input: 10, output: 2 } });
  const chat = env.agent.newSession();
  await chat.send('hello');
  const u = chat.events().find((e) => e.type === 'usage')!;
  assert.ok(u.type === 'usage' && u.cost === undefined && u.totalCost === undefined);
  assert.equal(chat.cost(), undefined);
  assert.match(exportSessionOf(env.ws, chat.id, 'md'), /tokens: 10 in, 2 out · cost unknown/);
});
