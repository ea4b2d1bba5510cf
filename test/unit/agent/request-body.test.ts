// The Anthropic and Chat Completions requests' JSON text is built from the stable prefix serialised once (system text with the catalog,
// tool definitions) plus the turn's own parts: its bytes on the wire must be the UTF-8 of what JSON.stringify would
// send, every turn (the prefix kept encoded too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicBodyBytes, anthropicRequest } from '../../../main/core/agent/providers/anthropic.js';
import { openaiBodyBytes, openaiRequest } from '../../../main/core/agent/providers/openai.js';
import type { ModelRequest } from '../../../main/core/agent/providers/types.js';
import type { PromptTool } from '../../../main/core/tools/prompt-cost.js';
import { agentEnv } from '../../helpers/agent-env.js';

const schema = {
  type: 'object',
  properties: { path: { type: 'string', description: 'File "path" \\ with\nescapes' } },
  required: ['path'],
};
const tools: PromptTool[] = [
  { name: 'read_file', description: 'Read a file.', inputSchema: schema },
  {
    name: 'bash',
    description: 'Run a command – in the workspace 中文',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
  },
];

/** The body's bytes are the UTF-8 of JSON.stringify of the request. */
function sameAsStringify(params: unknown, bytes: Buffer, label: string): void {
  const json = JSON.stringify(params);
  assert.equal(bytes.toString('utf8'), json, label);
  assert.ok(
    bytes.equals(Buffer.from(json, 'utf8')),
    `${label}: the bytes are the UTF-8 of JSON.stringify (${bytes.length} vs ${Buffer.byteLength(json)} bytes)`,
  );
}

function same(req: Omit<ModelRequest, 'maxTokens'> & { maxTokens?: number }, label: string): void {
  const full = { maxTokens: 1024, ...req };
  const params = anthropicRequest('claude-x', full, true);
  sameAsStringify(params, anthropicBodyBytes(params, full.tools), label);
}

test('the request body is exactly JSON.stringify of the request, as the system text, tools and messages change', () => {
  const messages: ModelRequest['messages'] = [{ role: 'user', text: 'hello "there"\n\u2028' }];
  same({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'first turn');
  same(
    {
      system: { stable: 'STABLE', dynamic: '' },
      tools,
      messages: [{ role: 'user', text: 'a lone surrogate \ud800, a pair \ud83d\ude00, 中文 — ünïcödé' }],
    },
    'non-ASCII text in the messages',
  );
  same(
    { system: { stable: 'STABLE 中文 skill — é', dynamic: '' }, tools, messages },
    'non-ASCII text in the kept prefix',
  );
  same({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'the same prefix again (kept JSON)');
  same(
    { system: { stable: 'STABLE', dynamic: '' }, tools, messages, maxTokens: 77 },
    'the same system with another reply budget',
  );
  assert.notEqual(
    anthropicBodyBytes(
      anthropicRequest('claude-y', { system: { stable: 'STABLE', dynamic: '' }, tools, messages, maxTokens: 77 }, true),
      tools,
    )
      .toString('utf8')
      .indexOf('"model":"claude-y"'),
    -1,
    'another model with the same system',
  );
  same(
    { system: { stable: 'STABLE, then the catalog changed', dynamic: 'LOADED <skill>' }, tools, messages },
    'a new system text and a dynamic block',
  );
  // The same schema object under another description or name: the kept JSON of that schema must not be reused.
  same(
    {
      system: { stable: 'S', dynamic: '' },
      tools: [{ ...tools[0]!, description: 'Read a file (changed).' }, tools[1]!],
      messages,
    },
    'a changed description',
  );
  same(
    { system: { stable: 'S', dynamic: '' }, tools: [tools[1]!, { ...tools[0]!, name: 'view_file' }], messages },
    'a renamed tool, now last (cache breakpoint)',
  );
  same({ system: { stable: 'S', dynamic: '' }, tools: [], messages }, 'no tools');
  same({ system: { stable: 'S', dynamic: '' }, tools, messages }, 'tools again after none (their kept bytes)');
  same(
    {
      system: { stable: 'S', dynamic: 'D' },
      tools,
      messages: [
        ...messages,
        { role: 'assistant', text: 'ok', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{"path":"x"}' }] },
        { role: 'tool', results: [{ callId: 't1', name: 'read_file', content: '{"ok":true}', isError: false }] },
      ],
    },
    'a conversation with a tool call',
  );
});

test('the server receives the body as JSON, with the content type, through the official SDK', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'ok' });
  const chat = env.agent.newSession();
  await chat.send('hello');
  const r = env.server.requests[0]!;
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.equal((r.body as { model?: string }).model, 'fake-model');
  assert.ok(Array.isArray(r.body.tools) && r.body.tools.length > 0, 'the tool definitions are sent');
  const tools = r.body.tools as { cache_control?: unknown }[];
  assert.deepEqual(tools.at(-1)!.cache_control, { type: 'ephemeral' });
  assert.equal(tools.filter((t) => t.cache_control).length, 1, 'one breakpoint on the tool list');
});

/** Two turns of a new chat against the fake `kind` server: each request's bytes are its JSON as JSON.stringify writes it. */
async function twoTurnsOnTheWire(kind: 'anthropic' | 'openai', second: string) {
  const env = await agentEnv({ kind });
  env.server.script({ text: 'ok' }, { text: 'ok again' });
  const chat = env.agent.newSession();
  await chat.send('hello — 你好 \ud83d\ude00');
  await chat.send(second);
  assert.equal(env.server.requests.length, 2);
  for (const r of env.server.requests) {
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(Number(r.headers['content-length']), Buffer.byteLength(r.raw), 'the length sent is the bytes sent');
    assert.equal(r.raw, JSON.stringify(r.body));
  }
  return env.server.requests;
}

test('the bytes on the wire are the JSON of the request as JSON.stringify writes it, non-ASCII text included, turn after turn', async () => {
  const requests = await twoTurnsOnTheWire('anthropic', 'and a second turn: ünïcödé');
  const last = requests[1]!.body.messages as { content: { text?: string }[] }[];
  assert.equal(last[0]!.content[0]!.text, 'hello — 你好 \ud83d\ude00');
  assert.equal(last.at(-1)!.content[0]!.text, 'and a second turn: ünïcödé');
});

function sameChat(
  req: Omit<ModelRequest, 'maxTokens'> & { maxTokens?: number },
  label: string,
  sendMaxTokens = false,
): void {
  const full = { maxTokens: 1024, ...req };
  const params = openaiRequest('gpt-x', full, sendMaxTokens, true);
  sameAsStringify(params, openaiBodyBytes(params, full.tools), label);
}

test('the Chat Completions request body is exactly JSON.stringify of the request, as the system text, tools, reply budget and messages change', () => {
  const messages: ModelRequest['messages'] = [{ role: 'user', text: 'hello "there"\n\u2028' }];
  sameChat({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'first turn');
  sameChat({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'the same prefix again (kept JSON)');
  sameChat({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'with a reply budget', true);
  sameChat({ system: { stable: 'STABLE', dynamic: '' }, tools, messages, maxTokens: 77 }, 'another reply budget', true);
  sameChat({ system: { stable: 'STABLE', dynamic: '' }, tools, messages }, 'no reply budget again');
  sameChat(
    {
      system: { stable: 'STABLE 中文 — é', dynamic: 'LOADED <skill>' },
      tools,
      messages: [{ role: 'user', text: 'a lone surrogate \ud800, a pair \ud83d\ude00, 你好' }],
    },
    'non-ASCII text, a dynamic part',
  );
  sameChat({ system: { stable: 'S', dynamic: '' }, tools: [], messages }, 'no tools');
  sameChat({ system: { stable: 'S', dynamic: '' }, tools: [], messages: [] }, 'no messages after the system message');
  sameChat(
    { system: { stable: 'S', dynamic: '' }, tools: [tools[1]!, { ...tools[0]!, name: 'view_file' }], messages },
    'another tool list',
  );
  sameChat(
    {
      system: { stable: 'S', dynamic: 'D' },
      tools,
      messages: [
        ...messages,
        {
          role: 'assistant',
          text: '',
          toolCalls: [
            { id: 't1', name: 'read_file', arguments: '{"path":"x"}' },
            { id: 't2', name: 'bash', arguments: 'not json' },
          ],
        },
        {
          role: 'tool',
          results: [
            { callId: 't1', name: 'read_file', content: '{"ok":true}', isError: false },
            { callId: 't2', name: 'bash', content: 'failed', isError: true },
          ],
        },
        { role: 'assistant', text: 'done', toolCalls: [], interrupted: true },
      ],
    },
    'a conversation with tool calls',
    true,
  );
});

test('an OpenAI-compatible server receives the bytes of the request as JSON.stringify writes it, turn after turn', async () => {
  const requests = await twoTurnsOnTheWire('openai', 'and a second turn');
  const last = requests[1]!.body as {
    messages: { role: string; content: string }[];
    tools?: unknown[];
    stream?: boolean;
  };
  assert.equal(last.messages[0]!.role, 'system');
  assert.equal(last.messages[1]!.content, 'hello — 你好 \ud83d\ude00');
  assert.equal(last.messages.at(-1)!.content, 'and a second turn');
  assert.ok(Array.isArray(last.tools) && last.tools.length > 0, 'the tool definitions are sent');
  assert.equal(last.stream, true);
});
