// A conversation belongs to the folder it was started in: with another folder open, the service does not continue it
// (its tool calls would read and write the other folder's files under that folder's gate, while the window that sent
// it — a second serve-mode tab, a send delivered after a folder switch — still shows the first folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';

test('a conversation of folder A is not continued, answered, opened or exported while folder B is open; back in A it goes on', async (t) => {
  const s = await serviceEnv(t);
  s.server.script({ text: 'Noted for alpha.' });
  const { sessionId } = await s.call('chat.send', { text: 'remember the alpha release' });
  await s.next('chat.turnEnd');
  const other = join(s.root, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'secret.txt'), 'only for the other folder');
  await s.call('workspace.open', { path: other });
  const asked = s.server.requests.length;
  s.server.script({ toolCalls: [{ name: 'list_dir', input: { path: '.' } }] }, { text: 'listed' });
  for (const [m, input] of [
    ['chat.send', { sessionId, text: 'list the files' }],
    ['sessions.open', { id: sessionId }],
    ['sessions.export', { id: sessionId, format: 'markdown' }],
    ['context.get', { sessionId }],
  ] as const) {
    await assert.rejects(
      s.call(m, input as never),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'not_found', `${m}: ${e.message}`);
        assert.match(e.message, /belongs to the folder .*repo.*: open it to continue/);
        return true;
      },
      m,
    );
  }
  assert.equal(s.server.requests.length, asked, 'nothing reached the model');
  await s.call('workspace.open', { path: s.ws });
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.ok(opened.items.length > 0);
  s.server.script({ text: 'Still alpha.' });
  await s.call('chat.send', { sessionId, text: 'and now?' });
  assert.equal((await s.next('chat.turnEnd')).reason, 'done');
});
