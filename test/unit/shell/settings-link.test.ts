// Review 10b finding 1, end to end: the user's settings.json is a link into the open folder (dotfiles managed with
// stow), the user allowed write_file by rule, and the model writes the link's target to widen its own ceiling. The
// write is asked (here: refused by the user), the file and the ceiling stay as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';

const waits = { timeout: 60_000 };

test(
  'a settings.json linked into the open folder: the model writing its target is asked, and refused nothing changes',
  waits,
  async (t) => {
    const narrow = JSON.stringify({ policy: { ceiling: { network: false } } });
    const s = await serviceEnv(t, { files: { 'dotfiles/knack/settings.json': narrow } });
    const user = join(s.paths.dataDir, 'settings.json');
    symlinkSync(join(s.ws, 'dotfiles/knack/settings.json'), user);
    s.service.workspace!.store!.policy.insertRule({ effect: 'allow', tool: 'write_file' });
    const wide = JSON.stringify({ policy: { ceiling: { network: true, writeRoots: ['/'] } } });
    s.server.script(
      { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'dotfiles/knack/settings.json', content: wide } }] },
      { text: 'done' },
    );
    const reasons: string[] = [];
    const off = s.service.events.on((n, p) => {
      if (n !== 'chat.approval') return;
      const a = p as { sessionId: string; approvalId: string; reason: string };
      reasons.push(a.reason);
      void s.call('chat.answer', { sessionId: a.sessionId, approvalId: a.approvalId, answer: 'deny' });
    });
    t.after(off);
    const ended = s.next('chat.turnEnd');
    await s.call('chat.send', { text: 'tidy my dotfiles' });
    await ended;
    assert.equal(reasons.length, 1, 'the write was asked');
    assert.match(reasons[0]!, /Knack's own settings\.json/);
    assert.equal(readFileSync(user, 'utf8'), narrow);
    await s.call('workspace.open', { path: s.ws, reload: true });
    assert.equal(s.service.workspace!.settings.policy.ceiling.network, false);
  },
);
