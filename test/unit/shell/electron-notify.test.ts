// The desktop app's notifications as data: an ended answer and a waiting approval notify (en/zh), a turn whose
// message was given back does not, and nothing else does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notificationOf } from '../../../main/electron/notify.js';

test('an ended answer and a waiting approval notify, in English and Chinese', () => {
  assert.deepEqual(notificationOf('chat.turnEnd', { sessionId: 's', turnId: 't', reason: 'done' }, 'en'), {
    title: 'Knack: the answer is ready',
    body: 'Open Knack to read it.',
  });
  const failed = notificationOf(
    'chat.turnEnd',
    { sessionId: 's', turnId: 't', reason: 'error', error: { code: 'x', message: 'HTTP 529 overloaded' } },
    'zh',
  );
  assert.deepEqual(failed, { title: 'Knack：回答失败', body: 'HTTP 529 overloaded' });
  // The summary as the service makes it (callSummary: it starts with the tool's name), said once.
  const asked = notificationOf('chat.approval', { tool: 'bash', summary: `bash: git push ${'x'.repeat(300)}` }, 'en');
  assert.equal(asked?.title, 'Knack is waiting for your approval');
  assert.equal(asked?.body.length, 120);
  assert.ok(asked?.body.startsWith('bash: git push x'), asked?.body);
  assert.equal(
    notificationOf('chat.turnEnd', { sessionId: 's', turnId: 't', reason: 'error', unsent: 'hi' }, 'en'),
    undefined,
  );
  assert.equal(notificationOf('chat.delta', { text: 'x' }, 'en'), undefined);
});
