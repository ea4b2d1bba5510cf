// Sessions searched, renamed and deleted through the contract, with the real agent and a fake Anthropic server: a word
// from an old answer finds its conversation, a renamed one is found by its new title (a live one too), an empty title
// is refused, and a deleted conversation is found no more. The context view says what the conversation has cost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';
import { writeProvidersFile } from '../../../main/core/agent/index.js';

test('search finds a word of an old answer; rename shows and finds the new title; delete leaves nothing to find', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Rotate the credentials with the walrus procedure.' });
  let ended = s.next('chat.turnEnd');
  const old = await s.call('chat.send', { text: 'how do I rotate keys?' });
  await ended;
  s.server.script({ text: 'Lunch is at noon.' });
  ended = s.next('chat.turnEnd');
  const other = await s.call('chat.send', { text: 'when is lunch?' });
  await ended;

  const { hits } = await s.call('sessions.search', { query: 'walrus' });
  assert.deepEqual(
    hits.map((h) => [h.session.id, h.in]),
    [[old.sessionId, 'answer']],
  );
  assert.ok(hits[0]!.snippet.some((p) => p.hit && p.text === 'walrus'));
  assert.equal(hits[0]!.session.title, 'how do I rotate keys?');

  const renamed = await s.call('sessions.rename', { id: other.sessionId, title: '  Team\nlunch  ' });
  assert.equal(renamed.session.title, 'Team lunch');
  assert.equal(s.of('session.updated').at(-1)!.session.title, 'Team lunch');
  const listed = (await s.call('sessions.list', {})).sessions.find((x) => x.id === other.sessionId)!;
  assert.equal(listed.title, 'Team lunch', 'the live conversation shows the title given, not its first message');
  assert.deepEqual(
    (await s.call('sessions.search', { query: 'team' })).hits.map((h) => [h.session.id, h.in]),
    [[other.sessionId, 'title']],
  );
  await assert.rejects(s.call('sessions.rename', { id: other.sessionId, title: ' \n ' }), /invalid_input/);
  await assert.rejects(s.call('sessions.rename', { id: 'no-such-session', title: 'x' }), /not_found/);
  await assert.rejects(s.call('sessions.search', { query: '' }), /invalid_input/);

  assert.deepEqual(await s.call('sessions.delete', { id: old.sessionId }), { deleted: true });
  assert.deepEqual((await s.call('sessions.search', { query: 'walrus' })).hits, []);
  assert.deepEqual((await s.call('sessions.search', { query: 'rotate' })).hits, []);
});

test('the context view carries the tokens and cost so far; no cost where the model has no price', async (t) => {
  const priced = await serviceEnv(t);
  writeProvidersFile(priced.paths.dataDir, {
    providers: {},
    prices: { 'anthropic/fake-model': { input: 3, output: 15 } },
  });
  priced.server.script(
    { text: 'one', usage: { input: 1000, output: 100 } },
    { text: 'two', usage: { input: 2000, output: 200 } },
  );
  let ended = priced.next('chat.turnEnd');
  const { sessionId } = await priced.call('chat.send', { text: 'first' });
  await ended;
  assert.equal((await priced.call('context.get', { sessionId })).spent?.inputTokens, 1000);
  ended = priced.next('chat.turnEnd');
  await priced.call('chat.send', { sessionId, text: 'second' });
  await ended;
  const spent = (await priced.call('context.get', { sessionId })).spent!;
  assert.equal(spent.inputTokens, 3000);
  assert.equal(spent.outputTokens, 300);
  // 3,000 in at $3/M and 300 out at $15/M.
  assert.ok(Math.abs(spent.costUsd! - 0.0135) < 1e-12, String(spent.costUsd));

  const unpriced = await serviceEnv(t);
  unpriced.server.script({ text: 'ok', usage: { input: 10, output: 5 } });
  ended = unpriced.next('chat.turnEnd');
  const other = await unpriced.call('chat.send', { text: 'hi' });
  await ended;
  const u = (await unpriced.call('context.get', { sessionId: other.sessionId })).spent!;
  assert.deepEqual([u.inputTokens, u.outputTokens, 'costUsd' in u], [10, 5, false]);
});
