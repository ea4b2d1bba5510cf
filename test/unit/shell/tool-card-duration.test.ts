// The window's tool card shows how long the call ran, not the time its approval waited: the real service's contract
// event carries the core's duration (the renderer's adapter passes it on as it is: contract-adapter.test.tsx).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceEnv } from '../../helpers/service-env.js';

test('the tool card main sends says how long a write ran, not how long its approval waited', async (t) => {
  const env = await serviceEnv(t);
  const THINK_MS = 1500; // the user reads the card before answering
  env.service.events.on((name, payload) => {
    if (name !== 'chat.approval') return;
    const p = payload as { sessionId: string; approvalId: string };
    setTimeout(
      () => void env.call('chat.answer', { sessionId: p.sessionId, approvalId: p.approvalId, answer: 'once' }),
      THINK_MS,
    );
  });
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'a.txt', content: 'x' } }] },
    { text: 'written' },
  );
  const done = env.next('chat.toolCall', (e) => e.card.status === 'ok');
  const end = env.next('chat.turnEnd');
  const { sessionId } = await env.call('chat.send', { text: 'write a.txt' });
  const card = (await done).card;
  await end;
  assert.equal(typeof card.durationMs, 'number', 'the finished card carries its duration');
  assert.ok(card.durationMs! < THINK_MS, `the card says ${card.durationMs} ms for writing a.txt`);
  // A conversation opened again shows the same figure.
  const opened = await env.call('sessions.open', { id: sessionId });
  const item = opened.items.find((i) => i.kind === 'tool');
  assert.equal(item?.kind === 'tool' ? item.card.durationMs : undefined, card.durationMs);
});
