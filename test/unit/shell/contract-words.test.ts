// A call outside the contract says what is wrong as words too: a text too long names the field and the limit, in
// English for the CLI and in the window's language (the 1 MB paste gave a raw zod sentence).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dispatch, type Handlers } from '../../../main/core/service/dispatch.js';
import { english, MAX_MESSAGE_CHARS } from '../../../preload/contract.js';

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
