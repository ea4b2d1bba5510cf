// Files, edits and versions through the contract as the window calls them: a refused file is a `refused` error naming
// the file (and the model, for an image it cannot read) with nothing sent; an edit and a switch of version come back
// in sessions.open's transcript, which says which version is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';

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

test('an edit through chat.send branches; sessions.open and chat.switchVersion show the versions', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Paris.' }, { text: 'Madrid.' });
  let ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'capital of France?' });
  await ended;
  ended = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'capital of Spain?', edit: 0 });
  await ended;
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
