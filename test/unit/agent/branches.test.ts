// Editing a sent message and regenerating an answer branch the conversation: the old branch stays reachable, the
// model's next request carries only the branch on screen, and a reopened conversation is on the branch it was on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import type { RecordedRequest } from '../../helpers/fake-provider.js';
import type { ChatMessage } from '../../../main/core/agent/providers/types.js';

/** The text of each message of a conversation's state. */
const texts = (ms: ChatMessage[]): string[] => ms.map((m) => (m.role === 'tool' ? 'tool' : m.text));

/** The user's words and the model's replies a request carried, in order. */
function said(req: RecordedRequest): string[] {
  return (req.body.messages as { role: string; content: string | { type: string; text?: string }[] }[]).map(
    (m) =>
      `${m.role}: ${typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? `[${b.type}]`).join('')}`,
  );
}

test('an edit of the first message branches there; the old branch stays reachable and each request carries one', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'Paris.' }, { text: 'Berlin.' }, { text: 'Madrid.' }, { text: 'About 2 million.' });
  const chat = env.agent.newSession();
  await chat.send('capital of France?');
  await chat.send('and of Germany?');
  // Edit the first message: the conversation starts over from there.
  await chat.edit(0, 'capital of Spain?');
  assert.deepEqual(said(env.server.requests[2]!), ['user: capital of Spain?']);
  assert.deepEqual(chat.versions(), [{ turn: 0, message: { index: 1, count: 2 } }]);
  assert.deepEqual(texts(chat.messages()), ['capital of Spain?', 'Madrid.']);
  // Back to the first version: the whole old branch is there, and the next request carries it, not the edit.
  chat.switchVersion(0, 'message', 0);
  assert.deepEqual(texts(chat.messages()), ['capital of France?', 'Paris.', 'and of Germany?', 'Berlin.']);
  assert.deepEqual(chat.versions(), [{ turn: 0, message: { index: 0, count: 2 } }]);
  await chat.send('how many people live there?');
  assert.deepEqual(said(env.server.requests[3]!), [
    'user: capital of France?',
    'assistant: Paris.',
    'user: and of Germany?',
    'assistant: Berlin.',
    'user: how many people live there?',
  ]);
  // Reopened (a restart), the conversation is on the branch it was on.
  await chat.close();
  const again = env.agent.openSession(chat.id);
  assert.equal(texts(again.messages()).at(-1), 'About 2 million.');
  again.switchVersion(0, 'message', 1);
  await again.close();
  const third = env.agent.openSession(chat.id);
  assert.equal(texts(third.messages())[0], 'capital of Spain?');
  // The whole log is kept: every message ever sent.
  const all = env.ws.store!.sessions.events(chat.id, 0, { all: true }).filter((e) => e.type === 'user_message');
  assert.equal(all.length, 4);
});

test('regenerate makes a sibling answer; switching between them changes what the model is sent next', async () => {
  const env = await agentEnv({ kind: 'openai' });
  env.server.script({ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Follow-up.' });
  const chat = env.agent.newSession();
  await chat.send('write a haiku');
  const r = await chat.regenerate(0);
  assert.equal(r.reason, 'end_turn');
  assert.equal(r.text, 'Second answer.');
  // The regenerated request carries the question only, not the first answer.
  assert.deepEqual(said(env.server.requests[1]!).slice(1), ['user: write a haiku']);
  assert.deepEqual(chat.versions(), [{ turn: 0, answer: { index: 1, count: 2 } }]);
  chat.switchVersion(0, 'answer', 0);
  assert.deepEqual(chat.versions(), [{ turn: 0, answer: { index: 0, count: 2 } }]);
  await chat.send('another');
  assert.deepEqual(said(env.server.requests[2]!).slice(1), [
    'user: write a haiku',
    'assistant: First answer.',
    'user: another',
  ]);
  // Regenerating the regenerated answer adds a third sibling, not a version of a version.
  chat.switchVersion(0, 'answer', 1);
  env.server.script({ text: 'Third answer.' });
  await chat.regenerate(0);
  assert.deepEqual(chat.versions(), [{ turn: 0, answer: { index: 2, count: 3 } }]);
});

test('a switch back to a version lands on the branch of it last used', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'a1' }, { text: 'b1' }, { text: 'a2' }, { text: 'a2 again' });
  const chat = env.agent.newSession();
  await chat.send('one');
  await chat.edit(0, 'uno');
  chat.switchVersion(0, 'message', 0);
  await chat.send('two');
  // On the original, the second message was then edited: going to "uno" and back lands on that edit.
  await chat.edit(1, 'two, again');
  chat.switchVersion(0, 'message', 1);
  assert.equal(texts(chat.messages())[0], 'uno');
  chat.switchVersion(0, 'message', 0);
  assert.deepEqual(texts(chat.messages()), ['one', 'a1', 'two, again', 'a2 again']);
});

test('an edit, a regenerate or a switch is refused while an answer streams, and changes nothing', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'ok' }, { chunks: ['slow ', 'answer'], chunkDelayMs: 200 });
  const chat = env.agent.newSession();
  await chat.send('first');
  const running = chat.send('second');
  await env.server.streaming(2);
  assert.throws(() => chat.edit(0, 'changed'), /a turn is running in this conversation: stop it first/);
  assert.throws(() => chat.regenerate(0), /stop it first/);
  assert.throws(() => chat.switchVersion(0, 'message', 0), /stop it first/);
  chat.stop();
  await running;
  assert.deepEqual(env.ws.store!.sessions.branches(chat.id), []);
  assert.throws(() => chat.edit(5, 'x'), /there is no message 6 in this conversation/);
  assert.throws(() => chat.switchVersion(0, 'message', 3), /there is no version 4 here/);
});

test('opening a search hit puts the conversation on a branch holding it, kept on reopening', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'Paris.' }, { text: 'Berlin.' }, { text: 'Madrid.' }, { text: 'Lisbon.' });
  const chat = env.agent.newSession();
  await chat.send('capital of France?');
  await chat.send('and of Germany?');
  await chat.edit(0, 'capital of Spain?');
  // "Berlin" is only on the first version, which is not on screen: showing the hit goes there.
  const [berlin] = env.agent.searchSessions('Berlin');
  assert.equal(berlin?.in, 'answer');
  chat.showEvent(berlin!.seq!);
  assert.deepEqual(texts(chat.messages()), ['capital of France?', 'Paris.', 'and of Germany?', 'Berlin.']);
  // A hit on the branch shown leaves it as it is.
  const [france] = env.agent.searchSessions('France');
  chat.showEvent(france!.seq!);
  assert.deepEqual(texts(chat.messages()).at(-1), 'Berlin.');
  // Reopened (a reload, a restart), the conversation is on the hit's branch.
  await chat.close();
  const again = env.agent.openSession(chat.id);
  assert.deepEqual(texts(again.messages()).at(-1), 'Berlin.');
  // A branch forked after the hit holds it too; the message of another branch takes the conversation there.
  await again.edit(1, 'and of Portugal?');
  assert.deepEqual(texts(again.messages()), ['capital of France?', 'Paris.', 'and of Portugal?', 'Lisbon.']);
  again.showEvent(berlin!.seq!);
  assert.deepEqual(texts(again.messages()).at(-1), 'Berlin.');
  const [spain] = env.agent.searchSessions('Spain');
  again.showEvent(spain!.seq!);
  assert.deepEqual(texts(again.messages()), ['capital of Spain?', 'Madrid.']);
  assert.throws(() => again.showEvent(999_999), /no event 999999 in conversation/);
});

test('showing a hit on another branch is refused while an answer streams; one on screen is not', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'Paris.' }, { text: 'Madrid.' }, { chunks: ['slow ', 'answer'], chunkDelayMs: 200 });
  const chat = env.agent.newSession();
  await chat.send('capital of France?');
  await chat.edit(0, 'capital of Spain?');
  const running = chat.send('and its size?');
  await env.server.streaming(3);
  const [france] = env.agent.searchSessions('France');
  const [spain] = env.agent.searchSessions('Spain');
  assert.throws(() => chat.showEvent(france!.seq!), /a turn is running in this conversation: stop it first/);
  chat.showEvent(spain!.seq!);
  chat.stop();
  await running;
  assert.equal(texts(chat.messages())[0], 'capital of Spain?');
});
