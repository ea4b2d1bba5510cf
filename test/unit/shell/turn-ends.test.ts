// The window's side of how a turn ends (the contract through the real service and the fake Anthropic server): an
// interrupted, failed or timed-out answer is said once, with Retry; chat.retry finishes it; a message with no model
// set up ends at once as no_model, saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';
import type { TranscriptItem } from '../../../preload/contract.js';

const words = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `w${from + i} `);
const ends = (items: TranscriptItem[]) =>
  items.filter((i): i is Extract<TranscriptItem, { kind: 'end' }> => i.kind === 'end');

test('a dropped connection ends the turn as interrupted, said once with Retry; chat.retry finishes the answer', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ chunks: words(0, 399), dropAfterChunks: true, chunkDelayMs: 1 }, { chunks: words(0, 600) });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'tell me 600 words' });
  const end = await ended;
  assert.equal(end.reason, 'interrupted');
  assert.equal(end.retryable, true);
  assert.match(end.error?.message ?? '', /connection to anthropic was lost before the answer was complete/);
  assert.equal(end.error?.code, 'interrupted');
  // Said once: with the end, not also as an error notice.
  assert.equal(s.of('chat.notice').filter((n) => n.level === 'error').length, 0);
  const opened = await s.call('sessions.open', { id: sessionId });
  const [e] = ends(opened.items);
  assert.equal(e?.reason, 'interrupted');
  assert.equal(e?.retryable, true);
  assert.equal(opened.items.filter((i) => i.kind === 'notice').length, 0);
  const answer = opened.items.find((i) => i.kind === 'assistant') as { text: string };
  assert.equal(answer.text, words(0, 399).join(''));

  const done = s.next('chat.turnEnd', (p) => p.reason === 'done');
  const retried = await s.call('chat.retry', { sessionId });
  assert.notEqual(retried.turnId, end.turnId);
  assert.equal((await done).turnId, retried.turnId);
  const after = await s.call('sessions.open', { id: sessionId });
  assert.equal(ends(after.items)[0]?.retryable, false, 'the retried end is not offered again');
  const replies = after.items.filter((i) => i.kind === 'assistant') as { text: string }[];
  assert.equal(replies.at(-1)!.text, words(0, 600).join(''));
  // The second request was the first one again.
  assert.equal(
    JSON.stringify(s.server.requests[1]!.body.messages),
    JSON.stringify(s.server.requests[0]!.body.messages),
  );
  await assert.rejects(s.call('chat.retry', { sessionId }), /conflict: the last turn ended end turn/);
});

test('a provider failure is said once, with its reason and Retry; a stalled stream ends as timeout', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ status: 400, errorMessage: 'messages: text content blocks must be non-empty' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hi' });
  const end = await ended;
  assert.equal(end.reason, 'error');
  assert.equal(end.retryable, true);
  assert.match(
    end.error?.message ?? '',
    /anthropic rejected the request: messages: text content blocks must be non-empty/,
  );
  assert.equal(s.of('chat.notice').filter((n) => n.level === 'error').length, 0);
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.equal(ends(opened.items)[0]?.message, end.error?.message);
});

test('a stream that stalls past agent.stallSeconds ends the turn as timeout, with Retry', async (t) => {
  const s = await serviceEnv(t, {
    // Long enough that the retried answer's first bytes beat it on a loaded machine (0.3 s did not at load 18).
    files: { '.workbuddy/settings.json': JSON.stringify({ agent: { stallSeconds: 1.5 } }) },
  });
  s.server.script({ chunks: ['half '], hang: true }, { text: 'whole' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hi' });
  const end = await ended;
  assert.equal(end.reason, 'timeout');
  assert.equal(end.retryable, true);
  assert.match(end.error?.message ?? '', /anthropic sent nothing for 1.5 s: the answer timed out/);
  const done = s.next('chat.turnEnd');
  await s.call('chat.retry', { sessionId });
  assert.equal((await done).reason, 'done');
});

test('with no model set up, a message ends at once as no_model, saying so, in the conversation', async (t) => {
  const s = await serviceEnv(t, { extra: { provider: undefined, env: {} } });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hello?' });
  const end = await ended;
  assert.equal(end.reason, 'no_model');
  assert.match(end.error?.message ?? '', /^No model is set up/);
  assert.equal(end.retryable, undefined);
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.equal(ends(opened.items)[0]?.reason, 'no_model');
  await assert.rejects(s.call('chat.retry', { sessionId }), /conflict/);
});

test('a provider without its key: the message says no model is set up, and why', async (t) => {
  const s = await serviceEnv(t, { extra: { provider: { provider: 'deepseek' }, env: {} } });
  const ended = s.next('chat.turnEnd');
  await s.call('chat.send', { text: 'hello?' });
  const end = await ended;
  assert.equal(end.reason, 'no_model');
  assert.match(end.error?.message ?? '', /^No model is set up: no API key for deepseek: set DEEPSEEK_API_KEY/);
});
