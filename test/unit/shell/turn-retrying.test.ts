// A request the provider's SDK sends again (a 500, an overloaded answer) reaches the window as it happens: a
// chat.retrying event per retry, attempt n of 3, before the answer's first words, and the log keeps each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';

test('two 500s then an answer: the window is told of attempt 2 and 3 of 3 before the words, and the log keeps them', async (t) => {
  const s = await serviceEnv(t);
  const order: string[] = [];
  s.service.events.on((n, p) => {
    if (n === 'chat.retrying') order.push(`retry ${(p as { attempt: number }).attempt}`);
    if (n === 'chat.delta' && !order.includes('words')) order.push('words');
  });
  s.server.script({ status: 500, retryAfter: 0 }, { status: 529, retryAfter: 0 }, { text: 'there it is' });
  const ended = s.next('chat.turnEnd');
  const { sessionId, turnId } = await s.call('chat.send', { text: 'hello' });
  assert.equal((await ended).reason, 'done');
  assert.deepEqual(
    s.of('chat.retrying'),
    [
      { sessionId, turnId, attempt: 2, of: 3 },
      { sessionId, turnId, attempt: 3, of: 3 },
    ],
    'each retry, with the turn it belongs to',
  );
  assert.deepEqual(order, ['retry 2', 'retry 3', 'words']);
  assert.equal(s.server.requests.length, 3);
  // Stored with the session (every event is committed before it is shown).
  const stored = s.service.workspace!.store!.sessions.events(sessionId).filter((e) => e.type === 'model_retry');
  assert.equal(stored.length, 2);
});
