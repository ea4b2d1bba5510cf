// A provider's failure is words (preload/words.ts `provider.*`): its English is the line the CLI prints and the store
// keeps, unchanged; its Chinese holds no English sentence of its own; and what the provider or its connection said
// itself is the words' `detail`, verbatim. Each failure comes from a fake server on 127.0.0.1 speaking the provider's
// wire format, through the official SDK, for both providers.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import type { FakeServer } from '../../helpers/fake-provider.js';
import { assertSaid, chinese } from '../../helpers/words.js';
import { tempDir } from '../../helpers/tmp.js';
import { anthropicProvider } from '../../../main/core/agent/providers/anthropic.js';
import { openaiProvider } from '../../../main/core/agent/providers/openai.js';
import { ProviderError } from '../../../main/core/agent/providers/errors.js';
import { modelList } from '../../../main/core/agent/providers/models.js';
import {
  keyHintOf,
  providersFilePath,
  readProvidersFile,
  resolveProvider,
} from '../../../main/core/agent/providers/settings.js';
import { english, type Said } from '../../../preload/words.js';
import type { ModelProvider, ModelRequest } from '../../../main/core/agent/providers/types.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const servers: FakeServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function both(stallMs = 0): Promise<{ name: string; server: FakeServer; provider: ModelProvider }[]> {
  const a = await startFakeAnthropic();
  const o = await startFakeOpenAI();
  servers.push(a, o);
  const common = { apiKey: KEY, contextWindow: 100_000, maxRetries: 0, stallMs };
  return [
    { name: 'anthropic', server: a, provider: anthropicProvider({ ...common, model: 'claude-test', baseURL: a.url }) },
    { name: 'openai', server: o, provider: openaiProvider({ ...common, model: 'gpt-test', baseURL: o.url }) },
  ];
}

const request: ModelRequest = {
  system: { stable: 'You are Knack.', dynamic: '' },
  tools: [],
  messages: [{ role: 'user', text: 'hello' }],
  maxTokens: 64,
};

async function failure(p: ModelProvider): Promise<ProviderError> {
  try {
    for await (const _ of p.stream(request));
  } catch (e) {
    assert.ok(e instanceof ProviderError, `a ProviderError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

test("each provider failure is words: the CLI's English unchanged, Chinese, the provider's text verbatim", async () => {
  for (const { name, server, provider } of await both()) {
    const cases: [Parameters<FakeServer['script']>[0], string, RegExp, string | undefined][] = [
      [{ status: 401 }, 'auth', new RegExp(`^${name} refused the API key \\(401\\): check [A-Z_]+$`), undefined],
      [
        { status: 404, errorMessage: 'model: claude-nope' },
        'model',
        /does not know the model "(claude|gpt)-test" at http.*\(model: claude-nope\)$/,
        'model: claude-nope',
      ],
      [
        { status: 400, errorMessage: 'prompt is too long: 210000 tokens > 200000 maximum' },
        'context',
        /^the conversation is too long for (claude|gpt)-test's context window \(prompt is too long/,
        'prompt is too long: 210000 tokens > 200000 maximum',
      ],
      [
        { status: 400, errorMessage: 'messages: text content blocks must be non-empty' },
        'bad_request',
        new RegExp(`^${name} rejected the request: messages: text content blocks must be non-empty$`),
        'messages: text content blocks must be non-empty',
      ],
      [
        { status: 429, errorMessage: 'Number of requests per minute exceeded' },
        'rate_limit',
        new RegExp(`^rate limited by ${name}: try again in a moment \\(Number of requests per minute exceeded\\)$`),
        'Number of requests per minute exceeded',
      ],
      [{ status: 503 }, 'overloaded', new RegExp(`^${name} is overloaded: try again in a moment$`), undefined],
      [
        { status: 500, errorMessage: 'the database fell over' },
        'server',
        new RegExp(`^${name} had an internal error \\(500\\): the database fell over$`),
        'the database fell over',
      ],
      [
        { chunks: ['one ', 'two ', 'three '], dropAfterChunks: true, chunkDelayMs: 1 },
        'interrupted',
        /^the connection to \w+ was lost/,
        'x',
      ],
      [
        { chunks: ['one ', 'two '], endWithoutStop: true },
        'interrupted',
        new RegExp(`^the connection to ${name} was lost before the answer was complete \\(the stream ended without`),
        undefined,
      ],
    ];
    for (const [turn, kind, re, detail] of cases) {
      server.script(turn);
      const e = await failure(provider);
      const what = `${name} ${JSON.stringify(turn)}: ${e.message}`;
      assert.equal(e.kind, kind, what);
      assert.match(e.message, re, what);
      assertSaid(e.words, e.message, what);
      // The provider's own words are kept as they came, outside what is translated.
      if (detail === 'x') assert.ok(e.detail, `${what}: the connection's own words`);
      else assert.equal(e.detail, detail, what);
      assert.ok(!JSON.stringify(e.words).includes(KEY), 'the key never appears');
    }
  }
});

test('a server that is not there, and a stream that stalls: words too', async () => {
  const p = openaiProvider({
    apiKey: KEY,
    model: 'm',
    baseURL: 'http://127.0.0.1:9/v1',
    contextWindow: 1000,
    maxRetries: 0,
  });
  // The picker's list from a provider that cannot be reached: the preset's, and why, as words.
  const listed = await modelList(
    {
      id: 'openai',
      kind: 'openai',
      model: 'm',
      baseURL: 'http://127.0.0.1:9/v1',
      contextWindow: 1000,
      keySource: 'option',
      keyHint: 'OPENAI_API_KEY',
      sendMaxTokens: true,
    },
    KEY,
  );
  assert.equal(listed.source, 'preset');
  assertSaid(listed.errorWords, listed.error!);
  const gone = await failure(p);
  assert.equal(gone.kind, 'network');
  assert.match(gone.message, /^cannot reach openai at http:\/\/127\.0\.0\.1:9\/v1: network down or wrong base URL \(/);
  assert.ok(gone.detail, 'the connection error as the SDK said it');
  assertSaid(gone.words, gone.message);

  for (const { name, server, provider } of await both(300)) {
    server.script({ chunks: ['half '], hang: true });
    const e = await failure(provider);
    assert.equal(e.kind, 'timeout', name);
    assert.equal(e.message, `${name} sent nothing for 0.3 s: the answer timed out`);
    assertSaid(e.words, e.message, name);
  }
});

test('a provider that cannot be set up says why in words: unknown provider, no key', () => {
  const root = tempDir();
  mkdirSync(join(root, 'data'));
  const dataDir = join(root, 'data');
  for (const [choice, re] of [
    [{ provider: 'nobody' }, /^unknown provider "nobody" \(known: anthropic, /],
    [{ provider: 'deepseek' }, /^no API key for deepseek: set DEEPSEEK_API_KEY \(/],
    [{ provider: 'kimi' }, /^no API key for kimi: set MOONSHOT_API_KEY or KIMI_API_KEY \(/],
  ] as const) {
    try {
      resolveProvider(choice, { dataDir, env: {} });
      assert.fail('expected a failure');
    } catch (e) {
      assert.ok(e instanceof ProviderError, String(e));
      assert.match(e.message, re);
      const zh = assertSaid(e.words, e.message);
      // The variables' names as a list each language joins: no English "or" in the Chinese.
      if (choice.provider === 'kimi') assert.match(zh, /请设置 MOONSHOT_API_KEY 或 KIMI_API_KEY（/);
    }
  }
});

test("a provider's own key field is where its key goes when it names no variable, said in each language", () => {
  assert.equal(english(keyHintOf('lab', []) as Said), 'providers.lab.apiKey in providers.json');
  assert.equal(chinese(keyHintOf('lab', []) as Said), 'providers.json 中的 providers.lab.apiKey');
  assert.equal(keyHintOf('deepseek', ['DEEPSEEK_API_KEY']), 'DEEPSEEK_API_KEY');
  const three = keyHintOf('x', ['A_KEY', 'B_KEY', 'C_KEY']) as Said;
  assert.equal(english(three), 'A_KEY, B_KEY or C_KEY');
  assert.equal(chinese(three), 'A_KEY, B_KEY 或 C_KEY');
});

test("providers.json's problems are words, their English the lines the CLI prints", () => {
  const dataDir = join(tempDir(), 'data');
  mkdirSync(dataDir);
  const file = providersFilePath(dataDir);
  const body = { providers: { mine: { kind: 'x', contextWindow: -1 } }, prices: { bad: 1 } };
  writeFileSync(file, JSON.stringify(body, null, 2));
  chmodSync(file, 0o644);
  const { warnings } = readProvidersFile(dataDir);
  for (const w of warnings) assertSaid(w, english(w));
  assert.deepEqual(warnings.map(english), [
    `${file}: readable by other users (mode 644); its API keys are ignored until you run chmod 600 on it`,
    `${file}:4: providers.mine.kind: must be "anthropic" or "openai"`,
    `${file}:5: providers.mine.contextWindow: must be a number of tokens above 0`,
    `${file}:9: prices.bad: expected {input, output, cacheRead?, cacheWrite?} as non-negative USD per million tokens; ignored`,
  ]);
  writeFileSync(file, '{ "providers": { } ');
  chmodSync(file, 0o600);
  const [broken] = readProvidersFile(dataDir).warnings;
  assert.match(english(broken!), new RegExp(`^${file.replace(/[.]/g, '\\.')}:1:\\d+: invalid JSON: `));
  assertSaid(broken, english(broken!));
});
