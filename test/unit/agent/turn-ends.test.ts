// Every way a turn can end is a stored state: done, stopped, interrupted (the connection dropped mid-answer), failed
// (the provider's reason), timed out (a stalled stream). Real SDKs against the fake servers, for both providers; Retry
// takes an interrupted, failed or timed-out turn up again from the same point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const KINDS = ['anthropic', 'openai'] as const;
const words = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `w${from + i} `);

function get<T extends AgentEvent['type']>(evs: AgentEvent[], type: T): Extract<AgentEvent, { type: T }>[] {
  return evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

for (const kind of KINDS) {
  test(`${kind}: a connection dropped after 399 of 600 words is stored and reopened as interrupted, its text kept`, async () => {
    const env = await agentEnv({ kind });
    env.server.script({ chunks: words(0, 399), dropAfterChunks: true, chunkDelayMs: 1 });
    const chat = env.agent.newSession();
    const r = await chat.send('tell me 600 words');
    assert.equal(r.reason, 'interrupted', JSON.stringify(r.error));
    assert.equal(r.error?.kind, 'interrupted');
    assert.match(r.error!.message, new RegExp(`connection to ${kind} was lost before the answer was complete`));
    assert.equal(r.text, words(0, 399).join(''));
    // The store says so: reopened, the answer is marked and the turn's end is interrupted.
    const stored = env.agent.openSession(chat.id).events();
    const end = get(stored, 'assistant_end').at(-1)!;
    assert.equal(end.interrupted, true);
    assert.equal(end.stopReason, 'interrupted');
    assert.equal(get(stored, 'turn_end').at(-1)!.reason, 'interrupted');
    assert.equal(get(stored, 'error').at(-1)!.kind, 'interrupted');
    assert.equal(
      get(stored, 'text_delta')
        .map((e) => e.text)
        .join(''),
      words(0, 399).join(''),
    );
  });

  test(`${kind}: a stream that ends cleanly without the provider's end of message is interrupted, not done`, async () => {
    const env = await agentEnv({ kind });
    // The server writes its chunks and closes the response normally, without message_stop / finish_reason / [DONE].
    env.server.script({ chunks: words(0, 20), endWithoutStop: true });
    const chat = env.agent.newSession();
    const r = await chat.send('hi');
    assert.equal(r.reason, 'interrupted', JSON.stringify(r.error));
  });

  test(`${kind}: a stream that stalls past the limit ends as timed out, keeping what came`, async () => {
    // 2 s: the first bytes must come in time even on a loaded machine (the server runs in this same process).
    const env = await agentEnv({ kind, stallMs: 2000 });
    env.server.script({ chunks: ['first ', 'words '], hang: true });
    const chat = env.agent.newSession();
    const evs = recorder(chat);
    const r = await chat.send('hi');
    assert.equal(r.reason, 'timeout', JSON.stringify(r.error));
    assert.equal(r.error?.kind, 'timeout');
    assert.match(r.error!.message, new RegExp(`^${kind} sent nothing for 2 s: the answer timed out$`));
    assert.equal(r.text, 'first words ');
    assert.equal(get(evs, 'assistant_end').at(-1)!.stopReason, 'timeout');
    assert.equal(get(evs, 'turn_end').at(-1)!.reason, 'timeout');
    // The server saw the client go away: the stalled request was ended, not left open.
    const req = env.server.requests.at(-1)!;
    while (!req.clientClosed) await new Promise((resolve) => setTimeout(resolve, 5));
  });

  test(`${kind}: a reply that never starts (no headers) times out too`, async () => {
    const env = await agentEnv({ kind, stallMs: 300 });
    env.server.script({ stall: true });
    const r = await env.agent.newSession().send('hi');
    assert.equal(r.reason, 'timeout', JSON.stringify(r.error));
  });

  test(`${kind}: a slow stream whose bytes keep coming is not timed out`, async () => {
    const env = await agentEnv({ kind, stallMs: 2000 });
    // 25 chunks 100 ms apart: 2.5 s in all, longer than the limit, and never near 2 s without a byte (a loaded machine
    // delays a chunk by far less than that; at a 0.4 s limit it sometimes did not).
    env.server.script({ chunks: words(0, 25), chunkDelayMs: 100 });
    const r = await env.agent.newSession().send('hi');
    assert.equal(r.reason, 'end_turn', JSON.stringify(r.error));
  });

  test(`${kind}: a provider failure mid-answer is failed, with the provider's own reason`, async () => {
    const env = await agentEnv({ kind });
    env.server.script({
      chunks: words(0, 5),
      failAfterChunks: 3,
      errorType: kind === 'anthropic' ? 'overloaded_error' : 'overloaded',
      errorMessage: 'Overloaded right now',
    });
    const chat = env.agent.newSession();
    const r = await chat.send('hi');
    assert.equal(r.reason, 'error');
    assert.equal(r.error?.kind, 'overloaded');
    assert.equal(r.text, words(0, 3).join(''));
  });

  test(`${kind}: Retry after a dropped connection resends from the same point and the stored conversation has the whole answer`, async () => {
    const env = await agentEnv({ kind });
    env.server.script({ chunks: words(0, 399), dropAfterChunks: true, chunkDelayMs: 1 }, { chunks: words(0, 600) });
    const chat = env.agent.newSession();
    assert.equal((await chat.send('tell me 600 words')).reason, 'interrupted');
    const r = await chat.retry();
    assert.equal(r.reason, 'end_turn', JSON.stringify(r.error));
    assert.equal(r.text, words(0, 600).join(''));
    // The same request went again: the conversation up to the user's message, without the cut-off answer.
    const [first, second] = env.server.requests.map((q) => JSON.stringify(q.body.messages));
    assert.equal(second, first);
    // Reopened: the conversation ends with the full answer, and the log keeps the cut-off one before the retry.
    const again = env.agent.openSession(chat.id);
    const last = again.messages().at(-1)!;
    assert.equal(last.role, 'assistant');
    assert.equal(last.role === 'assistant' && last.text, words(0, 600).join(''));
    assert.equal(again.messages().filter((m) => m.role === 'assistant').length, 1);
    const types = again.events().map((e) => e.type);
    assert.ok(types.indexOf('retry') > types.indexOf('error'));
    // A finished turn is not retried.
    await assert.rejects(chat.retry(), /the last turn ended end turn/);
  });
}

test('Retry after a failure with no output, and after a timeout, runs the turn again', async () => {
  const env = await agentEnv({ stallMs: 2000 });
  env.server.script({ status: 500, errorMessage: 'boom' }, { text: 'now it works' });
  const chat = env.agent.newSession();
  const failed = await chat.send('hi');
  assert.equal(failed.reason, 'error');
  assert.match(failed.error!.message, /boom/);
  assert.equal((await chat.retry()).text, 'now it works');
  env.server.script({ chunks: ['half '], hang: true }, { text: 'whole answer' });
  assert.equal((await chat.send('again')).reason, 'timeout');
  assert.equal((await chat.retry()).text, 'whole answer');
  assert.equal(env.server.requests.length, 4);
});

test('a stopped turn is not retried (the user stopped it), nor a new session', async () => {
  const env = await agentEnv();
  const chat = env.agent.newSession();
  await assert.rejects(chat.retry(), /no ended turn to retry/);
  env.server.script({ text: 'a long and slow answer', hang: true });
  chat.on((e) => {
    if (e.type === 'text_delta') chat.stop();
  });
  assert.equal((await chat.send('talk')).reason, 'cancelled');
  await assert.rejects(chat.retry(), /ended cancelled/);
});
