// Saving the permission ceiling in Settings while a conversation runs: the open workspace takes the new ceiling in
// place (no reopen, no stopped turn), and a narrower one binds the running turn's very next tool call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { formatDiagnostic, type Diagnostic } from '../../../main/core/base/index.js';

const setup = (t: { after(fn: () => unknown): void }) => serviceEnv(t);

test('narrowing the ceiling while a turn waits for approval: the turn goes on, the approved write is judged again and denied, and its next write is denied at once', async (t) => {
  const s = await setup(t);
  s.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'first.txt', content: 'x' } }] },
    // The model tries again once the first call is refused: the turn is still running under the new ceiling.
    { toolCalls: [{ id: 'w2', name: 'write_file', input: { path: 'second.txt', content: 'y' } }] },
    { text: 'I cannot write files here.' },
  );
  const asked = s.next('chat.approval');
  const { sessionId, turnId } = await s.call('chat.send', { text: 'write two files' });
  const approval = await asked;
  assert.equal(approval.tool, 'write_file');

  const view = await s.call('settings.setCeiling', { tools: ['read_file', 'list_dir', 'glob', 'grep'] });
  assert.deepEqual(view.ceiling.tools, ['read_file', 'list_dir', 'glob', 'grep']);
  assert.deepEqual(s.of('workspace.changed'), [], 'the workspace was not reopened');
  assert.equal(s.service.openConversations, 1, 'the conversation stays open');
  const open = await s.call('sessions.open', { id: sessionId });
  assert.deepEqual(
    [open.session.running, open.approvals.map((a) => a.approvalId), open.turnId],
    [true, [approval.approvalId], turnId],
  );

  const ended = s.next('chat.turnEnd');
  await s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'once' });
  const end = await ended;
  assert.deepEqual([end.turnId, end.reason], [turnId, 'done']);
  assert.ok(
    !existsSync(join(s.ws, 'first.txt')),
    'the write the user approved before the ceiling narrowed did not run',
  );
  assert.ok(!existsSync(join(s.ws, 'second.txt')), 'the turn could not use the tool the ceiling removed');
  const cards = s.of('chat.toolCall').map((c) => c.card);
  for (const id of ['w1', 'w2']) {
    const mine = cards.filter((c) => c.callId === id);
    assert.ok(
      mine.some((c) => c.status === 'denied' && /not offered in this workspace/.test(c.output ?? '')),
      `${id} was denied by the new ceiling`,
    );
    assert.equal(mine.at(-1)?.errorCode, 'tool.denied', `${id} did not run`);
  }
  assert.equal(s.of('chat.approval').length, 1, 'the removed tool was not asked about again');
  // What the model was told about its second call: refused, not run.
  const last = s.server.requests.at(-1)?.body as { tools?: { name: string }[] } | undefined;
  assert.ok(last?.tools?.length);
  assert.ok(!last.tools.some((x) => x.name === 'write_file'), 'the removed tool is no longer offered to the model');
});

test('the network switch applies to the open workspace in place: web_fetch is offered when it is turned on and gone when it is turned off', async (t) => {
  const s = await setup(t);
  const names = async () => (await s.call('tools.list', {})).tools.map((x) => x.name);
  assert.ok(!(await names()).includes('web_fetch'));
  await s.call('settings.setCeiling', { network: true });
  assert.ok((await names()).includes('web_fetch'));
  assert.equal(
    s.service.workspace!.gate.authorize(
      { tool: 'web_fetch', args: {}, access: { network: true, host: 'example.com' } },
      { kind: 'agent', activeSkills: [] },
    ).verdict !== 'deny',
    true,
  );
  await s.call('settings.setCeiling', { network: false });
  assert.ok(!(await names()).includes('web_fetch'));
  const d = s.service.workspace!.gate.authorize(
    { tool: 'web_fetch', args: {}, access: { network: true, host: 'example.com' } },
    { kind: 'agent', activeSkills: [] },
  );
  assert.equal(d.verdict, 'deny');
  assert.deepEqual(s.of('workspace.changed'), []);
});

test('a read root taken out of the ceiling is refused at the next call, without a reopen', async (t) => {
  const s = await setup(t);
  const outside = join(tempDir(), 'shared');
  writeTree(outside, { 'doc.md': 'shared doc' });
  const read = () =>
    s.service.workspace!.gate.authorize(
      { tool: 'read_file', args: {}, access: { read: [join(outside, 'doc.md')] } },
      { kind: 'agent', activeSkills: [] },
    ).verdict;
  assert.equal(read(), 'deny');
  await s.call('settings.setCeiling', { readRoots: [outside] });
  assert.notEqual(read(), 'deny');
  await s.call('settings.setCeiling', { readRoots: [] });
  assert.equal(read(), 'deny');
  assert.deepEqual(s.of('workspace.changed'), []);
});

test('a save that changes the settings warnings tells the window and the Settings page lists them, without reopening: a workspace asking for the network is no longer warned about once the user turns it on', async (t) => {
  const s = await setup(t);
  // The workspace's own settings ask for the network; the user's ceiling has it off: a warning, the network stays off.
  writeTree(s.ws, { '.workbuddy/settings.json': JSON.stringify({ policy: { ceiling: { network: true } } }) });
  const view = await s.call('settings.setCeiling', { network: false });
  // The Settings page lists it, naming the file and the key.
  assert.ok(
    pageLines(view).some(
      (w) =>
        w.includes(join('.workbuddy', 'settings.json')) &&
        w.includes('policy.ceiling.network') &&
        /cannot turn the network on/.test(w),
    ),
    JSON.stringify(pageLines(view)),
  );
  const warned = s.of('workspace.changed').at(-1)?.workspace.diagnostics ?? [];
  assert.ok(
    warned.some((d) => d.code === 'settings.ceiling-widening' && d.field === 'policy.ceiling.network'),
    JSON.stringify(warned),
  );
  const before = s.of('workspace.changed').length;
  // Saved again unchanged: nothing new to say.
  await s.call('settings.setCeiling', { network: false });
  assert.equal(s.of('workspace.changed').length, before);
  // The user turns the network on: the workspace's wish is no longer a widening, and the window hears that.
  const on = await s.call('settings.setCeiling', { network: true });
  assert.ok(!pageLines(on).some((w) => w.includes('policy.ceiling.network')), JSON.stringify(pageLines(on)));
  assert.ok(!pageLines(await s.call('settings.get', {})).some((w) => w.includes('policy.ceiling')));
  const after = s.of('workspace.changed').at(-1)!.workspace.diagnostics;
  assert.equal(s.of('workspace.changed').length, before + 1);
  assert.ok(!after.some((d) => d.code === 'settings.ceiling-widening'), JSON.stringify(after));
  assert.ok(s.service.workspace, 'the workspace stayed open');
});

test('the Settings page lists a workspace settings problem from the moment the folder is open, not only after a save', async (t) => {
  const s = await serviceEnv(t, {
    files: { '.workbuddy/settings.json': JSON.stringify({ policy: { ceiling: { network: true } } }) },
  });
  const warnings = pageLines(await s.call('settings.get', {}));
  assert.ok(
    warnings.some((w) => w.includes('policy.ceiling.network') && /cannot turn the network on/.test(w)),
    JSON.stringify(warnings),
  );
  // Changing the provider answers with the same page.
  const after = await s.call('settings.setProvider', { preset: 'anthropic', model: 'claude-test' });
  assert.ok(
    pageLines(after).some((w) => w.includes('policy.ceiling.network')),
    JSON.stringify(pageLines(after)),
  );
});

/** The Settings page's lines: providers' warnings, then the settings problems as the CLI prints them. */
function pageLines(v: { warnings: string[]; problems?: Diagnostic[] }): string[] {
  return [...v.warnings, ...(v.problems ?? []).map(formatDiagnostic)];
}
