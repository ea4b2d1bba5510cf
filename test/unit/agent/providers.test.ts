import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeAnthropic } from '../../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../../helpers/fake-openai.js';
import type { FakeServer } from '../../helpers/fake-provider.js';
import { anthropicProvider } from '../../../main/core/agent/providers/anthropic.js';
import { openaiProvider } from '../../../main/core/agent/providers/openai.js';
import { ProviderError } from '../../../main/core/agent/providers/errors.js';
import type { ModelProvider, ModelRequest, StreamEvent } from '../../../main/core/agent/providers/types.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const servers: FakeServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function both(): Promise<{ name: string; server: FakeServer; provider: ModelProvider }[]> {
  const a = await startFakeAnthropic();
  const o = await startFakeOpenAI();
  servers.push(a, o);
  return [
    {
      name: 'anthropic',
      server: a,
      provider: anthropicProvider({
        apiKey: KEY,
        model: 'claude-test',
        baseURL: a.url,
        contextWindow: 200_000,
        maxRetries: 2,
      }),
    },
    {
      name: 'openai',
      server: o,
      provider: openaiProvider({
        apiKey: KEY,
        model: 'gpt-test',
        baseURL: o.url,
        contextWindow: 128_000,
        maxRetries: 2,
      }),
    },
  ];
}

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: { stable: 'You are Knack.', dynamic: '' },
  tools: [
    {
      name: 'read_file',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  messages: [{ role: 'user', text: 'hello' }],
  maxTokens: 1024,
  ...over,
});

async function collect(p: ModelProvider, req: ModelRequest): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of p.stream(req)) out.push(ev);
  return out;
}

const textOf = (evs: StreamEvent[]): string =>
  evs
    .filter((e) => e.type === 'text')
    .map((e) => (e as { text: string }).text)
    .join('');

test('both providers stream text through the official SDKs and report the stop reason and usage', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ text: 'Hello there, 你好！', usage: { input: 42, output: 7 } });
    const evs = await collect(provider, request());
    assert.equal(textOf(evs), 'Hello there, 你好！', name);
    const stop = evs.find((e) => e.type === 'stop');
    assert.deepEqual(stop && stop.type === 'stop' ? stop.reason : undefined, 'end_turn', name);
    const usage = evs.find((e) => e.type === 'usage');
    assert.ok(
      usage && usage.type === 'usage' && usage.usage.inputTokens === 42 && usage.usage.outputTokens === 7,
      name,
    );
  }
});

test('several tool calls in one turn arrive whole, with arguments joined from the streamed pieces', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({
      text: 'Let me look.',
      toolCalls: [
        { id: 'c1', name: 'read_file', input: { path: 'a/b.txt' } },
        { id: 'c2', name: 'read_file', input: { path: '中文.md' } },
      ],
    });
    const evs = await collect(provider, request());
    const calls = evs
      .filter((e) => e.type === 'tool_call')
      .map((e) => (e as { call: { id: string; name: string; arguments: string } }).call);
    assert.deepEqual(
      calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [
        ['c1', 'read_file', { path: 'a/b.txt' }],
        ['c2', 'read_file', { path: '中文.md' }],
      ],
      name,
    );
    const stop = evs.at(-1);
    assert.equal(stop?.type === 'stop' ? stop.reason : '', 'tool_use', name);
  }
});

test('malformed tool arguments are passed on verbatim for the pipeline to reject', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ toolCalls: [{ id: 'c9', name: 'read_file', rawArguments: '{"path": "x' }] });
    const evs = await collect(provider, request());
    const call = evs.find((e) => e.type === 'tool_call');
    assert.equal(call?.type === 'tool_call' ? call.call.arguments : '', '{"path": "x', name);
  }
});

test('the conversation goes out in each wire format: tool results, the stable prefix cached for Anthropic', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ text: 'done' });
    await collect(
      provider,
      request({
        system: { stable: 'STABLE', dynamic: 'LOADED SKILLS' },
        messages: [
          { role: 'user', text: 'read it' },
          { role: 'assistant', text: 'ok', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{"path":"x"}' }] },
          { role: 'tool', results: [{ callId: 't1', name: 'read_file', content: '{"ok":true}', isError: false }] },
        ],
      }),
    );
    const body = server.requests.at(-1)!.body as Record<string, unknown>;
    const h = server.requests.at(-1)!.headers;
    assert.ok(h['x-api-key'] === KEY || h.authorization === `Bearer ${KEY}`, `${name}: the key is sent`);
    if (name === 'anthropic') {
      const system = body.system as { text: string; cache_control?: unknown }[];
      assert.deepEqual(
        system.map((s) => s.text),
        ['STABLE', 'LOADED SKILLS'],
      );
      assert.ok(
        system.every((s) => s.cache_control),
        'system blocks carry cache_control',
      );
      const tools = body.tools as { cache_control?: unknown }[];
      assert.ok(tools.at(-1)!.cache_control, 'the last tool definition carries cache_control');
      const msgs = body.messages as { role: string; content: { type: string; tool_use_id?: string }[] }[];
      assert.deepEqual(
        msgs.map((m) => m.role),
        ['user', 'assistant', 'user'],
      );
      assert.equal(msgs[2]!.content[0]!.type, 'tool_result');
      assert.equal(msgs[2]!.content[0]!.tool_use_id, 't1');
    } else {
      const msgs = body.messages as { role: string; content?: string; tool_call_id?: string; tool_calls?: unknown[] }[];
      assert.deepEqual(
        msgs.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool'],
      );
      assert.equal(msgs[0]!.content, 'STABLE\n\nLOADED SKILLS');
      assert.equal(msgs[3]!.tool_call_id, 't1');
      assert.equal((body.tools as unknown[]).length, 1);
    }
  }
});

test('a 429 with retry-after is retried by the SDK and then succeeds', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ status: 429, retryAfter: 0 }, { text: 'after the wait' });
    const before = server.requests.length;
    const evs = await collect(provider, request());
    assert.equal(textOf(evs), 'after the wait', name);
    assert.equal(server.requests.length - before, 2, `${name}: one retry`);
  }
});

test('each retry of the SDK is told as it goes out: attempt 2 and 3 of 3, then the answer', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }, { text: 'third time' });
    const evs = await collect(provider, request());
    assert.equal(textOf(evs), 'third time', name);
    const retries = evs.filter((e) => e.type === 'retry');
    assert.deepEqual(
      retries,
      [
        { type: 'retry', attempt: 2, of: 3 },
        { type: 'retry', attempt: 3, of: 3 },
      ],
      name,
    );
    // Told before the answer's first words.
    assert.ok(evs.findIndex((e) => e.type === 'retry') < evs.findIndex((e) => e.type === 'text'), name);
    // A request that gets through at once is no retry.
    server.script({ text: 'at once' });
    assert.equal((await collect(provider, request())).filter((e) => e.type === 'retry').length, 0, name);
  }
});

async function failure(p: ModelProvider, req = request()): Promise<ProviderError> {
  try {
    await collect(p, req);
  } catch (e) {
    assert.ok(e instanceof ProviderError, `a ProviderError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a failure');
}

test('errors become one clear line each: bad key, unknown model, context too long, rate limited, overloaded', async () => {
  for (const { name, server, provider } of await both()) {
    const cases: [Parameters<FakeServer['script']>[0], string, RegExp][] = [
      [{ status: 401 }, 'auth', /refused the API key/],
      [{ status: 404 }, 'model', /does not know the model/],
      [
        { status: 400, errorMessage: 'prompt is too long: 210000 tokens > 200000 maximum' },
        'context',
        /too long for .* context window/,
      ],
      [{ status: 429, retryAfter: 0 }, 'rate_limit', /rate limited/],
      [{ status: name === 'anthropic' ? 529 : 503, retryAfter: 0 }, 'overloaded', /overloaded/],
    ];
    for (const [turn, kind, re] of cases) {
      // The SDK retries 429 and 5xx twice: script the failure three times.
      const retried = turn.status === 429 || (turn.status ?? 0) >= 500;
      server.script(...Array(retried ? 3 : 1).fill(turn));
      const e = await failure(provider);
      assert.equal(e.kind, kind, `${name} ${turn.status}: ${e.message}`);
      assert.match(e.message, re);
      assert.doesNotMatch(e.message, /\n|at .*\.js/, 'one line, no stack');
      assert.ok(!e.message.includes(KEY), 'the key never appears');
      assert.equal(server.remaining(), 0, `${name} ${turn.status}: retries consumed`);
    }
  }
});

test('an error event in the middle of a stream ends it with a mapped error after the text so far', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({
      text: 'partial answer that breaks',
      failAfterChunks: 2,
      errorType: name === 'anthropic' ? 'overloaded_error' : 'overloaded',
    });
    const seen: string[] = [];
    try {
      for await (const ev of provider.stream(request())) if (ev.type === 'text') seen.push(ev.text);
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof ProviderError);
      assert.equal(e.kind, 'overloaded', `${name}: ${e.message}`);
    }
    assert.equal(seen.join(''), 'partial answ', name);
  }
});

test('a slow stream is cancelled with an AbortController and reported as cancelled', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ text: 'slow words', hang: true });
    const ac = new AbortController();
    const got: string[] = [];
    const e = await (async () => {
      try {
        for await (const ev of provider.stream(request({ signal: ac.signal }))) {
          if (ev.type === 'text') {
            got.push(ev.text);
            ac.abort();
          }
        }
      } catch (err) {
        return err as ProviderError;
      }
      return undefined;
    })();
    assert.ok(e instanceof ProviderError, name);
    assert.equal(e.kind, 'cancelled', name);
    assert.ok(got.length >= 1);
  }
});

test('a server that is not there is "network down", not a stack trace', async () => {
  const p = openaiProvider({
    apiKey: KEY,
    model: 'm',
    baseURL: 'http://127.0.0.1:9/v1',
    contextWindow: 1000,
    maxRetries: 0,
  });
  const e = await failure(p);
  assert.equal(e.kind, 'network');
  assert.match(e.message, /cannot reach openai at http:\/\/127\.0\.0\.1:9\/v1/);
});

test('events are pushed to the loop straight from the SDK stream; an error the loop throws ends the request and comes back as it is', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ text: 'one two three four five six seven', hang: true });
    const seen: string[] = [];
    const mine = new Error('the loop could not take this event');
    const e = await provider
      .run(request(), (ev) => {
        if (ev.type !== 'text') return;
        seen.push(ev.text);
        throw mine;
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    assert.equal(e, mine, name);
    assert.equal(seen.length, 1, name);
    // The stream was left: the server sees the client go away (it would otherwise hang on).
    const req = server.requests.at(-1)!;
    while (!req.clientClosed) await new Promise((resolve) => setTimeout(resolve, 5));
  }
});

test('leaving a stream early (break) ends its request', async () => {
  for (const { name, server, provider } of await both()) {
    server.script({ text: 'one two three four five six seven', hang: true });
    const seen: string[] = [];
    for await (const ev of provider.stream(request())) {
      if (ev.type === 'text') seen.push(ev.text);
      if (seen.length) break;
    }
    assert.equal(seen.length, 1, name);
    const req = server.requests.at(-1)!;
    while (!req.clientClosed) await new Promise((resolve) => setTimeout(resolve, 5));
  }
});
