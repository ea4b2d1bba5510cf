// A call outside the contract says what is wrong as words too: a text too long names the field and the limit, in
// English for the CLI and in the window's language (the 1 MB paste gave a raw zod sentence). So do a method
// or an answer outside it, and serve mode's connection failing, in main and in the window's client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispatch, type Handlers } from '../../../main/core/service/dispatch.js';
import WebSocket from 'ws';
import {
  english,
  MAX_ATTACHMENTS,
  MAX_MESSAGE_CHARS,
  methods,
  type Result,
  type Said,
} from '../../../preload/contract.js';
import type { KnackError } from '../../../preload/client.js';
import { createClient, socketTransport, type SocketLike, type Transport } from '../../../preload/client.js';
import { assertSaid, chinese } from '../../helpers/words.js';

test('chat.send with a text past the limit fails with contract.tooLong, the field and the limit', async () => {
  const r = await dispatch({} as Handlers, 'chat.send', { sessionId: 's1', text: 'x'.repeat(MAX_MESSAGE_CHARS + 1) });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, 'invalid_input');
  assert.deepEqual(r.error.words, {
    code: 'contract.tooLong',
    params: { method: 'chat.send', field: 'text', limit: MAX_MESSAGE_CHARS },
  });
  assert.equal(english(r.error.words!), 'chat.send: text is too long: at most 200000 characters');
  // The English line of every problem stays the message (logs, the CLI).
  assert.match(r.error.message, /^chat\.send: text: Too big/);
});

/** `input` to `method` through the real dispatch and schemas: refused as invalid_input, its words the English given. */
async function refusedInput(method: string, input: unknown, said: string): Promise<string> {
  const r = await dispatch({} as Handlers, method, input);
  assert.equal(r.ok, false, `${method} accepted ${JSON.stringify(input).slice(0, 100)}`);
  if (r.ok) return '';
  assert.equal(r.error.code, 'invalid_input');
  assert.ok(r.error.message.startsWith(`${method}: `), r.error.message);
  return assertSaid(r.error.words, said);
}

const note = { kind: 'text', name: 'a.txt', mime: 'text/plain', size: 1, text: 'a' } as const;

test("every problem zod finds in a window's request is said as words, zod's English kept as the message", async () => {
  // More than ten files at once. The window's own picker refuses the eleventh before sending (renderer/src/state/
  // attach.ts), so this is what a client that skips it meets.
  assert.equal(
    await refusedInput(
      'chat.send',
      { text: 'read these', attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, () => note) },
      'chat.send: attachments has too many items: at most 10',
    ),
    'chat.send：attachments 的项太多，最多 10 项',
  );
  await refusedInput('store.acknowledge', { movedTo: [] }, 'store.acknowledge: movedTo has too few items: at least 1');
  assert.equal(
    await refusedInput('tools.search', { query: 'x', limit: 51 }, 'tools.search: limit must be at most 50'),
    'tools.search：limit 不能大于 50',
  );
  await refusedInput('tools.search', { query: 'x', limit: 0 }, 'tools.search: limit must be at least 1');
  assert.equal(
    await refusedInput('tools.search', { query: 'x', limit: 1.5 }, 'tools.search: limit must be a whole number'),
    'tools.search：limit 必须是整数',
  );
  assert.equal(
    await refusedInput('chat.send', { text: 3 }, 'chat.send: text must be a string'),
    'chat.send：text 必须是字符串',
  );
  assert.equal(await refusedInput('chat.send', {}, 'chat.send: text is missing'), 'chat.send：缺少 text');
  assert.equal(
    await refusedInput(
      'mcp.remove',
      { scope: 'global', name: 'docs' },
      'mcp.remove: scope must be one of "user", "project"',
    ),
    'mcp.remove：scope 必须是 "user", "project" 之一',
  );
  await refusedInput(
    'chat.send',
    { text: 'x', attachments: [{ ...note, kind: 'video' }] },
    'chat.send: attachments.0.kind must be one of "text", "image"',
  );
  assert.equal(
    await refusedInput('chat.send', { text: 'x', colour: 'red' }, 'chat.send: unknown field colour'),
    'chat.send：没有 colour 这个字段',
  );
  await refusedInput('chat.send', 'hello', 'chat.send: (input) must be an object');
  // Anything else (here a URL that is not one): the field and "is not valid".
  assert.equal(
    await refusedInput(
      'settings.setProvider',
      { preset: 'openai', baseUrl: 'not a url' },
      'settings.setProvider: baseUrl is not valid',
    ),
    'settings.setProvider：baseUrl 无效',
  );
});

test('no input the contract refuses reaches the window without words', async () => {
  const bad: unknown[] = ['text', 7, [], { '': 1 }, { sessionId: 3, id: [], name: {}, query: 9, path: false }];
  for (const method of Object.keys(methods)) {
    for (const input of bad) {
      const r = await dispatch({} as Handlers, method, input);
      if (r.ok || r.error.code !== 'invalid_input') continue;
      assertSaid(r.error.words, english(r.error.words!), `${method} ${JSON.stringify(input)}: ${r.error.message}`);
    }
  }
});

/** `error` carries words that say its message, with no English sentence in their Chinese; returns the Chinese. */
function saidError(error: { message: string; words?: Said }, message: string): string {
  assert.equal(error.message, message);
  return assertSaid(error.words, message);
}

test('a method outside the contract, and an answer outside it, are said as words in main and in the client', async () => {
  const r = await dispatch({} as Handlers, 'skills.frobnicate', {}, () => {});
  assert.ok(!r.ok);
  assert.equal(saidError(r.error, 'unknown method "skills.frobnicate"'), '未知的方法 "skills.frobnicate"');
  // A handler whose answer breaks the contract (rules.list answering no list).
  const wrong = await dispatch(
    { 'rules.list': () => ({ rules: 'all' }) } as unknown as Handlers,
    'rules.list',
    {},
    () => {},
  );
  assert.ok(!wrong.ok);
  saidError(wrong.error, 'rules.list produced an answer outside the contract');

  const answering = (result: Result<unknown>): Transport => ({ call: async () => result, subscribe: () => () => {} });
  const said = async (client: ReturnType<typeof createClient>, method: string, message: string) =>
    assert.rejects(client.call(method as 'rules.list', {}), (e: KnackError) => {
      saidError(e, message);
      return true;
    });
  const quiet = { onContractViolation: () => {} };
  await said(
    createClient(answering({ ok: true, value: { rules: 'all' } }), quiet),
    'rules.list',
    'rules.list answered outside the contract',
  );
  await said(
    createClient(answering({ ok: false, error: { code: 'nope' } } as never), quiet),
    'rules.list',
    'malformed error',
  );
  await said(
    createClient(answering({ ok: true, value: {} }), quiet),
    'rules.frobnicate',
    'unknown method rules.frobnicate',
  );
});

test("serve mode's connection failing in another way is said as words, the socket's own message kept", async () => {
  // The page's WebSocket refuses an address it cannot parse as it is made (the browser's and ws's alike).
  const unparsable = createClient(
    socketTransport({ connect: () => new WebSocket('no address') as unknown as SocketLike }),
  );
  await assert.rejects(unparsable.call('rules.list', {}), (e: KnackError) => {
    assert.equal(e.code, 'unavailable');
    assert.deepEqual(e.words, { code: 'connection.failedBecause', params: { detail: e.message } });
    assert.equal(chinese(e.words!), `无法连接到 Knack：${e.message}`);
    return true;
  });
  unparsable.close();
  // A socket that opens, then refuses to send (a browser's WebSocket throws for a socket not open).
  const stuck: SocketLike = {
    readyState: 1,
    send: () => {
      throw new Error('InvalidStateError: the socket is not open');
    },
    close: () => {},
    addEventListener: (type, listener) => {
      if (type === 'open') queueMicrotask(() => listener({}));
    },
  };
  const client = createClient(socketTransport({ connect: () => stuck }));
  await assert.rejects(client.call('rules.list', {}), (e: KnackError) => {
    assert.equal(e.code, 'unavailable');
    assert.equal(e.message, 'InvalidStateError: the socket is not open');
    assert.equal(chinese(e.words!), '无法把请求发送给 Knack：InvalidStateError: the socket is not open');
    return true;
  });
  client.close();
});
