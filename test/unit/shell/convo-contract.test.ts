// Files, edits and versions through the contract as the window calls them: a refused file is a `refused` error naming
// the file (and the model, for an image it cannot read) with nothing sent; an edit and a switch of version come back
// in sessions.open's transcript, which says which version is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callerOf, serviceEnv } from '../../helpers/service-env.js';
import { KnackService } from '../../../main/core/service/index.js';

const png = readFileSync(join(import.meta.dirname, '../../fixtures/attach/red-dot.png')).toString('base64');

test('an image for a model that does not read images is refused before sending, naming the model', async (t) => {
  const s = await serviceEnv(t);
  await assert.rejects(
    s.call('chat.send', {
      text: 'what is this?',
      attachments: [{ kind: 'image', name: 'red-dot.png', mime: 'image/png', size: 69, data: png }],
    }),
    (e: Error & { code?: string }) =>
      e.code === 'refused' && /red-dot\.png is an image, and the model fake-model does not read images/.test(e.message),
  );
  assert.equal(s.server.requests.length, 0);
});

/** A conversation asked the capital of France (answered "Paris."), its message then edited to Spain ("Madrid."). */
async function franceThenSpain(s: Awaited<ReturnType<typeof serviceEnv>>): Promise<string> {
  s.server.script({ text: 'Paris.' }, { text: 'Madrid.' });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'capital of France?' });
  await ended;
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'capital of Spain?', edit: 0 });
  await ended;
  return sessionId;
}

test('an edit through chat.send branches; sessions.open and chat.switchVersion show the versions', async (t) => {
  const s = await serviceEnv(t);
  const sessionId = await franceThenSpain(s);
  const open = await s.call('sessions.open', { id: sessionId });
  const users = open.items.filter((i) => i.kind === 'user');
  assert.deepEqual(
    users.map((u) => [u.kind === 'user' && u.text, u.kind === 'user' && u.versions]),
    [['capital of Spain?', { message: { index: 1, count: 2 } }]],
  );
  const back = await s.call('chat.switchVersion', { sessionId, turn: 0, which: 'message', index: 0 });
  assert.deepEqual(
    back.items.filter((i) => i.kind === 'assistant').map((i) => i.kind === 'assistant' && i.text),
    ['Paris.'],
  );
  await assert.rejects(
    s.call('chat.send', { sessionId, text: 'x', edit: 7 }),
    (e: Error & { code?: string }) => e.code === 'conflict' && /there is no message 8/.test(e.message),
  );
});

test('an edit keeps the message’s files in the request the model gets; the ones removed (keepFiles) do not go', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'It lists two owners.' }, { text: 'Still two.' }, { text: 'Only notes.' }, { text: 'x' });
  const notes = {
    kind: 'text' as const,
    name: 'notes.txt',
    mime: 'text/plain',
    size: 20,
    text: 'owner: Li Lei (NOTES)',
  };
  const plan = { kind: 'text' as const, name: 'plan.md', mime: 'text/markdown', size: 18, text: 'ship Friday (PLAN)' };
  const said = () => JSON.stringify(s.server.requests.at(-1)!.body.messages);
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'who owns it?', attachments: [notes, plan] });
  await ended;
  assert.match(said(), /NOTES/);

  // Edited with no word about the files: both go with the new version, as the window shows them.
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'who owns it, really?', edit: 0 });
  await ended;
  assert.match(said(), /who owns it, really\?/);
  assert.match(said(), /NOTES/);
  assert.match(said(), /PLAN/);
  const open = await s.call('sessions.open', { id: sessionId });
  const user = open.items.find((i) => i.kind === 'user');
  assert.deepEqual(user?.kind === 'user' && user.attachments?.map((a) => a.name), ['notes.txt', 'plan.md']);

  // The user removed plan.md in the edit box: only notes.txt goes.
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'who owns it? notes only', edit: 0, keepFiles: [0] });
  await ended;
  assert.match(said(), /NOTES/);
  assert.doesNotMatch(said(), /PLAN/);

  // A file index the message does not have is refused, naming it, with nothing sent.
  const n = s.server.requests.length;
  await assert.rejects(
    s.call('chat.send', { sessionId, text: 'again', edit: 0, keepFiles: [5] }),
    (e: Error & { code?: string }) =>
      e.code === 'conflict' && /message 1 has no file 6 to keep \(it has 1\)/.test(e.message),
  );
  await assert.rejects(
    s.call('chat.send', { sessionId, text: 'again', keepFiles: [0] }),
    (e: Error & { code?: string }) => e.code === 'invalid_input',
  );
  assert.equal(s.server.requests.length, n);
});

test('after a regenerate, context.get counts the branch on screen (spent) and every branch (spentAll), priced', async (t) => {
  const s = await serviceEnv(t);
  s.server.script(
    { text: 'First answer.', usage: { input: 1000, output: 100 } },
    { text: 'Second answer.', usage: { input: 2000, output: 200 } },
  );
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'plan the release', model: 'claude-sonnet-4-5' });
  await ended;
  const one = await s.call('context.get', { sessionId });
  assert.equal(one.spent?.inputTokens, 1000);
  assert.equal(one.spentAll, undefined, 'one branch: nothing more to say');
  ended = s.next('chat.turnEnd');
  await s.call('chat.regenerate', { sessionId, turn: 0 });
  await ended;
  const two = await s.call('context.get', { sessionId });
  // Sonnet: $3 in, $15 out per million tokens.
  assert.deepEqual([two.spent?.inputTokens, two.spent?.outputTokens], [2000, 200]);
  assert.ok(Math.abs(two.spent!.costUsd! - 0.009) < 1e-9, String(two.spent?.costUsd));
  assert.deepEqual([two.spentAll?.inputTokens, two.spentAll?.outputTokens], [3000, 300]);
  assert.ok(Math.abs(two.spentAll!.costUsd! - 0.0135) < 1e-9, String(two.spentAll?.costUsd));
  // Back on the first answer: its own use, the whole the same.
  await s.call('chat.switchVersion', { sessionId, turn: 0, which: 'answer', index: 0 });
  const back = await s.call('context.get', { sessionId });
  assert.equal(back.spent?.inputTokens, 1000);
  assert.equal(back.spentAll?.inputTokens, 3000);
});

test('the conversation on screen is remembered per workspace in the store: a new service (a restart) finds it; a new chat or a delete forgets it', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Noted.' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'remember me' });
  await ended;
  assert.deepEqual(await s.call('sessions.remembered', {}), { id: null });
  assert.deepEqual(await s.call('sessions.remember', { id: sessionId }), { remembered: true });
  // Another service on the same data folder and workspace: what a restarted app (or serve) opens.
  const again = new KnackService({
    paths: s.paths,
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: { watch: false },
  });
  t.after(() => again.close());
  await again.openWorkspace(s.ws);
  const call = callerOf(again);
  assert.deepEqual(await call('sessions.remembered', {}), { id: sessionId });
  // A new chat: nothing to reopen.
  await s.call('sessions.remember', { id: null });
  assert.deepEqual(await call('sessions.remembered', {}), { id: null });
  // Deleted: forgotten with it.
  await s.call('sessions.remember', { id: sessionId });
  await s.call('sessions.delete', { id: sessionId });
  assert.deepEqual(await s.call('sessions.remembered', {}), { id: null });
  await assert.rejects(
    s.call('sessions.remember', { id: sessionId }),
    (e: Error & { code?: string }) => e.code === 'not_found',
  );
});

test('a search hit on a version not on screen opens on that version, and a plain open after it stays there', async (t) => {
  const s = await serviceEnv(t);
  const sessionId = await franceThenSpain(s);
  const { hits } = await s.call('sessions.search', { query: 'Paris' });
  assert.deepEqual(
    hits.map((h) => [h.session.id, h.in, typeof h.seq]),
    [[sessionId, 'answer', 'number']],
  );
  const answers = (o: { items: { kind: string; text?: string }[] }) =>
    o.items.filter((i) => i.kind === 'assistant').map((i) => i.text);
  assert.deepEqual(answers(await s.call('sessions.open', { id: sessionId, at: hits[0]!.seq! })), ['Paris.']);
  // The reload: the window opens the remembered conversation with no `at`, and finds the hit's version.
  assert.deepEqual(answers(await s.call('sessions.open', { id: sessionId })), ['Paris.']);
  await assert.rejects(
    s.call('sessions.open', { id: sessionId, at: 999_999 }),
    (e: Error & { code?: string }) => e.code === 'not_found' && /no event 999999/.test(e.message),
  );
});
