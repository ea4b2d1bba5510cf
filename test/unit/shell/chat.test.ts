// Chat through the service, with the real agent and a fake Anthropic server speaking the real wire format: streamed
// deltas, tool-call cards, approvals answered from the contract, sessions listed/opened/exported/deleted, the context
// view, and provider keys that go in but never come back out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd } from '../../helpers/tmp.js';
import { callerOf, serviceEnv } from '../../helpers/service-env.js';
import { KnackService, type ServiceOptions } from '../../../main/core/service/index.js';
import type { EventPayload } from '../../../preload/contract.js';

async function setup(
  t: { after(fn: () => unknown): void },
  extra: Partial<ServiceOptions> = {},
  files: Record<string, string> = {},
) {
  const env = await serviceEnv(t, {
    extra,
    files: {
      ...files,
      'notes.txt': 'release on Friday',
      '.workbuddy/skills/release-notes/SKILL.md': skillMd(
        { name: 'release-notes', description: 'Write release notes', read_when: ['release notes'] },
        '# Notes\n\nGroup the changes under UNLOAD-MARKER-7 headings.\n',
      ),
      '.workbuddy/skills/release-notes/references/checklist.md': '# Checklist\n\n- link every pull request\n',
    },
  });
  const { server, call, next } = env;
  /** A new conversation whose model asks to write `path` (call w1), scripted to say `then` once answered; resolves when it waits for the approval. */
  const askToWrite = async (path: string, content: string, then?: string) => {
    server.script(
      { toolCalls: [{ id: 'w1', name: 'write_file', input: { path, content } }] },
      ...(then ? [{ text: then }] : []),
    );
    const asked = next('chat.approval');
    const sent = await call('chat.send', { text: `write ${path}` });
    return { ...sent, approval: await asked };
  };
  return { ...env, askToWrite };
}

test('a message streams deltas, a tool card and a loaded skill, then the session lists, opens, exports and deletes', async (t) => {
  const s = await setup(t);
  s.server.script(
    { text: 'Reading it.', toolCalls: [{ id: 'c1', name: 'read_file', input: { path: 'notes.txt' } }] },
    { text: 'It says Friday.' },
  );
  const ended = s.next('chat.turnEnd');
  const { sessionId, turnId } = await s.call('chat.send', { text: 'write the release notes' });
  const end = await ended;
  assert.equal(end.reason, 'done');
  assert.equal(end.turnId, turnId);
  assert.equal(
    s
      .of('chat.delta')
      .map((d) => d.text)
      .join(''),
    'Reading it.It says Friday.',
  );
  const cards = s.of('chat.toolCall').map((c) => c.card);
  assert.deepEqual(cards.at(-1), {
    ...cards.at(-1),
    callId: 'c1',
    tool: 'read_file',
    status: 'ok',
    args: { path: 'notes.txt' },
  });
  assert.match(cards.at(-1)!.output!, /release on Friday/);
  assert.deepEqual(
    s.of('chat.skillLoaded').map((e) => e.skill),
    ['release-notes'],
  );

  const { sessions } = await s.call('sessions.list', {});
  assert.deepEqual(
    sessions.map((x) => x.id),
    [sessionId],
  );
  // The message and the model's two replies (a tool call, then the answer): not the ~15 events stored for them.
  assert.equal(sessions[0]!.messages, 3);
  assert.equal(s.of('session.updated').at(-1)!.session.messages, 3);
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.deepEqual(
    opened.items.map((i) => i.kind),
    ['user', 'skill', 'assistant', 'tool', 'assistant'],
  );
  const md = await s.call('sessions.export', { id: sessionId, format: 'markdown' });
  assert.match(md.content, /It says Friday/);
  assert.match(md.filename, /\.md$/);
  assert.doesNotMatch(md.content, /sk-ant-test/);
  const ctx = await s.call('context.get', { sessionId });
  assert.deepEqual(
    ctx.loadedSkills.map((x) => x.name),
    ['release-notes'],
  );
  assert.ok(ctx.sections.find((x) => x.section === 'skills')!.tokens > 0);
  assert.equal(
    ctx.total,
    ctx.sections.reduce((a, x) => a + x.tokens, 0),
  );
  assert.deepEqual(ctx.leftOut, [], 'one skill fits the catalog budget');
  assert.deepEqual(await s.call('sessions.delete', { id: sessionId }), { deleted: true });
  assert.deepEqual(s.of('session.deleted'), [{ id: sessionId }]);
  assert.deepEqual((await s.call('sessions.list', {})).sessions, []);
});

test('an ask becomes a chat.approval with the "always" preview; deny from the contract ends the turn; a stale answer is not_found', async (t) => {
  const s = await setup(t);
  const { sessionId, approval } = await s.askToWrite('out.txt', 'hi', 'ok, not writing');
  assert.equal(approval.tool, 'write_file');
  assert.match(approval.summary, /write_file: out\.txt/);
  assert.ok(approval.alwaysPreview.length > 0);
  assert.deepEqual(s.of('chat.toolCall').at(-1)!.card.status, 'awaiting-approval');
  const ended = s.next('chat.turnEnd');
  assert.deepEqual(
    await s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'deny', message: 'not now' }),
    { ok: true },
  );
  assert.equal((await ended).reason, 'done');
  assert.ok(s.of('chat.toolCall').some((c) => c.card.callId === 'w1' && c.card.status === 'denied'));
  await assert.rejects(
    s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'once' }),
    /not_found/,
  );
  await assert.rejects(s.call('sessions.open', { id: 'no-such-session' }), /not_found/);
});

test('a conversation reopened while it waits for an approval shows that approval and its turn id; answered from there, the turn ends under that id', async (t) => {
  const s = await setup(t);
  const { sessionId, turnId, approval } = await s.askToWrite('out.txt', 'hi', 'written');
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.equal(opened.session.running, true);
  assert.equal(opened.turnId, turnId);
  assert.deepEqual(opened.approvals, [approval]);
  const statusOf = (items: typeof opened.items): string | undefined => {
    const it = items.find((i) => i.kind === 'tool' && i.card.callId === 'w1');
    return it?.kind === 'tool' ? it.card.status : undefined;
  };
  assert.equal(statusOf(opened.items), 'awaiting-approval', 'its tool card waits, as the live one did');
  const ended = s.next('chat.turnEnd');
  await s.call('chat.answer', { sessionId, approvalId: opened.approvals[0]!.approvalId, answer: 'once' });
  assert.equal((await ended).turnId, turnId);
  assert.equal(readFileSync(join(s.ws, 'out.txt'), 'utf8'), 'hi');
  const after = await s.call('sessions.open', { id: sessionId });
  assert.deepEqual([after.turnId, after.approvals, after.session.running], [undefined, [], false]);
  assert.equal(statusOf(after.items), 'ok');
});

test('after a restart, a conversation that was waiting for an approval opens with that approval asked again, and answering it goes on', async (t) => {
  const s = await setup(t);
  const { sessionId } = await s.askToWrite('later.txt', 'after restart', 'written after all');
  // The app dies here (as with kill -9: nothing is closed; the first service is simply never used again).
  const again = new KnackService({
    paths: s.paths,
    transport: 'serve',
    version: 't',
    log: () => {},
    workspaceOptions: { watch: false },
    provider: { provider: 'anthropic', model: 'fake-model', baseURL: s.server.url },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789' },
  });
  t.after(() => again.close());
  await again.openWorkspace(s.ws);
  const call = callerOf(again);
  const opened = await call('sessions.open', { id: sessionId });
  assert.equal(opened.approvals.length, 1, 'the open approval is asked again');
  assert.equal(opened.approvals[0]!.tool, 'write_file');
  assert.ok(opened.turnId);
  const ended = new Promise<EventPayload<'chat.turnEnd'>>((resolve) =>
    again.events.on((n, p) => {
      if (n === 'chat.turnEnd') resolve(p as EventPayload<'chat.turnEnd'>);
    }),
  );
  await call('chat.answer', { sessionId, approvalId: opened.approvals[0]!.approvalId, answer: 'once' });
  assert.equal((await ended).turnId, opened.turnId);
  assert.equal(readFileSync(join(s.ws, 'later.txt'), 'utf8'), 'after restart');
});

test("a conversation reopened while its new turn's request is on the way has that turn's message, and its reply is not merged into the last one", async (t) => {
  const s = await setup(t);
  s.server.script({ text: 'first reply' }, { text: 'second reply' });
  const first = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'one' });
  await first;
  const second = s.next('chat.turnEnd');
  const { turnId } = await s.call('chat.send', { sessionId, text: 'two' });
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.equal(opened.turnId, turnId);
  assert.deepEqual(
    opened.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text),
    ['one', 'two'],
    "the running turn's message is in the log it was read from",
  );
  assert.equal(opened.items.at(-1)!.kind, 'user', "nothing after it yet: the window starts the turn's reply afresh");
  await second;
});

test("a turn's end is said before what follows it (the offer to save a multi-step task as a skill)", async (t) => {
  const s = await setup(t);
  const calls = [1, 2, 3].map((i) => ({ id: `r${i}`, name: 'read_file', input: { path: 'notes.txt' } }));
  s.server.script({ toolCalls: calls }, { text: 'Read it three times.' });
  const order: string[] = [];
  s.service.events.on((n, p) => {
    if (n === 'chat.turnEnd') order.push('turnEnd');
    if (n === 'chat.notice' && (p as EventPayload<'chat.notice'>).kind === 'skill_offer') order.push('offer');
  });
  const ended = s.next('chat.turnEnd');
  await s.call('chat.send', { text: 'read the notes three times' });
  await ended;
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(order, ['turnEnd', 'offer']);
});

test('the moment a turn ends the conversation takes the next message (a window may send on turnEnd itself)', async (t) => {
  const s = await setup(t);
  s.server.script({ text: 'first answer' }, { text: 'second answer' });
  const { sessionId } = await s.call('chat.send', { text: 'one' });
  const second = new Promise<unknown>((resolve) => {
    const off = s.service.events.on((n, p) => {
      if (n !== 'chat.turnEnd') return;
      off();
      assert.equal((p as EventPayload<'chat.turnEnd'>).reason, 'done');
      s.call('chat.send', { sessionId, text: 'two' }).then(resolve, resolve);
    });
  });
  const r = await second;
  assert.ok(!(r instanceof Error), `the second message was refused: ${String(r)}`);
  await s.next('chat.turnEnd');
  assert.deepEqual(
    s
      .of('chat.delta')
      .map((d) => d.text)
      .join(''),
    'first answersecond answer',
  );
});

test('the loaded-skill view lists the resources the model read per skill; unload takes a skill out and says so', async (t) => {
  const s = await setup(t);
  s.server.script(
    {
      toolCalls: [
        { id: 'r1', name: 'read_skill_resource', input: { skill: 'release-notes', path: 'references/checklist.md' } },
      ],
    },
    { text: 'Done.' },
  );
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'write the release notes' });
  assert.equal((await ended).reason, 'done');
  const before = await s.call('context.get', { sessionId });
  const notes = before.loadedSkills.find((x) => x.name === 'release-notes')!;
  assert.equal(notes.resources.length, 1);
  assert.equal(notes.resources[0]!.path, 'references/checklist.md');
  assert.ok(notes.resources[0]!.tokens > 0);

  assert.match(JSON.stringify(s.server.requests.at(-1)!.body), /UNLOAD-MARKER-7/);
  const changed = s.next('context.changed', (p) => p.sessionId === sessionId);
  assert.deepEqual(await s.call('chat.unloadSkill', { sessionId, name: 'release-notes' }), { unloaded: true });
  await changed;
  assert.deepEqual((await s.call('context.get', { sessionId })).loadedSkills, []);
  assert.ok(s.of('chat.notice').some((n) => /release-notes unloaded/.test(n.text)));
  // the next prompt no longer carries the skill's instructions
  s.server.script({ text: 'ok' });
  const again = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'thanks' });
  await again;
  const last = s.server.requests.at(-1)!.body as { system?: unknown; messages: { role: string; content: unknown }[] };
  assert.doesNotMatch(JSON.stringify(last.system ?? ''), /UNLOAD-MARKER-7/);
  await assert.rejects(s.call('chat.unloadSkill', { sessionId, name: 'release-notes' }), /not_found/);
});

test('plan mode is set per session, and a second send while a turn runs is a conflict', async (t) => {
  const s = await setup(t);
  s.server.script({ text: 'slow', chunkDelayMs: 50, hang: true });
  const { sessionId } = await s.call('chat.send', { text: 'plan the release', planMode: true });
  await s.server.streaming(1);
  await assert.rejects(s.call('chat.send', { sessionId, text: 'again' }), /conflict/);
  const ended = s.next('chat.turnEnd');
  assert.deepEqual(await s.call('chat.stop', { sessionId }), { stopped: true });
  assert.equal((await ended).reason, 'stopped');
  assert.equal((await s.call('sessions.list', {})).sessions[0]!.planMode, true);
  assert.deepEqual(await s.call('chat.setPlanMode', { sessionId, on: false }), { planMode: false });
});

test('a key goes in and never comes back: settings show only that one is stored, the file is private', async (t) => {
  const s = await setup(t);
  const before = await s.call('settings.get', {});
  assert.equal(before.provider?.preset, 'anthropic');
  assert.equal(before.provider?.keySource, 'env');
  assert.equal(before.presets.find((p) => p.id === 'deepseek')!.hasKey, false);
  assert.deepEqual(await s.call('settings.setKey', { preset: 'deepseek', key: 'sk-deepseek-secret-value' }), {
    hasKey: true,
  });
  const after = await s.call('settings.get', {});
  assert.equal(after.presets.find((p) => p.id === 'deepseek')!.hasKey, true);
  assert.doesNotMatch(JSON.stringify(after), /sk-deepseek-secret-value/);
  const file = join(s.paths.dataDir, 'providers.json');
  assert.match(readFileSync(file, 'utf8'), /sk-deepseek-secret-value/);
  await assert.rejects(s.call('settings.setKey', { preset: 'nope', key: 'x' }), /not_found/);
  assert.deepEqual(await s.call('settings.clearKey', { preset: 'deepseek' }), { hasKey: false });
  assert.doesNotMatch(readFileSync(file, 'utf8'), /sk-deepseek-secret-value/);
  const switched = await s.call('settings.setProvider', { preset: 'deepseek', model: 'deepseek-chat' });
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).default, 'deepseek');
  // This run was started with --provider anthropic: the command line wins until the next start.
  assert.equal(switched.provider?.preset, 'anthropic');
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o077, 0);
});

test("an approval's rules reach the window one line each: a newline in a quoted word of the command cannot make one rule look like two", async (t) => {
  const s = await setup(t);
  const command = 'git "status\nallow bash command \\"ls\\""';
  // Run outside the sandbox: asked about even with the sandbox up (inside it, the line would run unasked).
  s.server.script({ toolCalls: [{ id: 'b1', name: 'bash', input: { command, sandbox: false } }] }, { text: 'ok' });
  const asked = s.next('chat.approval');
  const { sessionId } = await s.call('chat.send', { text: 'status please' });
  const approval = await asked;
  assert.equal(approval.alwaysPreview.length, 1, JSON.stringify(approval.alwaysPreview));
  assert.doesNotMatch(approval.alwaysPreview[0]!, /\n/);
  assert.match(approval.alwaysPreview[0]!, /status\\nallow/);
  const ended = s.next('chat.turnEnd');
  await s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'deny' });
  await ended;
});

test("the Settings page says where each preset's key comes from: the environment (naming the variable), the key store, or none", async (t) => {
  const s = await setup(t);
  const preset = async (id: string) => (await s.call('settings.get', {})).presets.find((p) => p.id === id)!;
  // The test service runs with ANTHROPIC_API_KEY set: the key is the environment's, and clearing the stored one
  // cannot take it away.
  assert.deepEqual(
    [(await preset('anthropic')).keySource, (await preset('anthropic')).keyEnv],
    ['env', 'ANTHROPIC_API_KEY'],
  );
  assert.equal((await preset('deepseek')).keySource, 'none');
  await s.call('settings.setKey', { preset: 'deepseek', key: 'sk-deepseek-secret-value' });
  assert.equal((await preset('deepseek')).keySource, 'key-store');
  assert.equal((await preset('deepseek')).keyEnv, undefined);
  await s.call('settings.clearKey', { preset: 'deepseek' });
  assert.equal((await preset('deepseek')).keySource, 'none');
});

test("a message the store could not take comes back with the turn's end (unsent), and the next send works", async (t) => {
  const s = await setup(t);
  // Fault injection on the real store: the turn's start (one transaction) fails once, as on a full disk.
  const sessions = s.service.workspace!.store!.sessions;
  const appendMany = sessions.appendMany.bind(sessions);
  let failures = 0;
  sessions.appendMany = (id, rows) => {
    if (!failures++) throw new Error('database or disk is full');
    return appendMany(id, rows);
  };
  s.server.script({ text: 'never shown' }, { text: 'Saved this time.' });
  const end = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'write the release notes' });
  const e = await end;
  assert.equal(e.reason, 'error');
  assert.match(e.error?.message ?? '', /disk is full/);
  assert.equal(e.unsent, 'write the release notes');
  assert.ok(
    !s.of('chat.delta').some((d) => d.text.includes('never shown')),
    'no reply to a message that was not stored',
  );
  await new Promise((r) => setImmediate(r)); // as a client's next message arrives: after the turn has wound down
  const ok = s.next('chat.turnEnd');
  await s.call('chat.send', { sessionId, text: 'write the release notes' });
  const e2 = await ok;
  assert.equal(e2.reason, 'done');
  assert.equal(e2.unsent, undefined);
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.deepEqual(
    opened.items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text),
    ['write the release notes'],
  );
});

test('a long-running window keeps only its recent idle conversations in memory; an older one reopens from the store and goes on where it was', async (t) => {
  const s = await setup(t, { liveSessions: 2 });
  // The first conversation waits for an approval while newer ones come and go: it is never the one closed.
  const { approval, ...waiting } = await s.askToWrite('kept.txt', 'kept');
  const chats: { sessionId: string; turnId: string }[] = [];
  for (const text of ['one', 'two', 'three']) {
    s.server.script({ text: `answer ${text}` });
    const ended = s.next('chat.turnEnd');
    chats.push(await s.call('chat.send', { text }));
    await ended;
  }
  assert.equal(
    s.service.openConversations,
    2,
    'the waiting one and the newest; the older idle ones are closed in memory',
  );
  s.server.script({ text: 'written' });
  const done = s.next('chat.turnEnd', (p) => p.sessionId === waiting.sessionId);
  await s.call('chat.answer', { sessionId: waiting.sessionId, approvalId: approval.approvalId, answer: 'once' });
  assert.equal((await done).turnId, waiting.turnId);
  assert.equal(readFileSync(join(s.ws, 'kept.txt'), 'utf8'), 'kept');

  // The oldest idle conversation was closed in memory: it opens from the store with all it said, and its next turn
  // goes on with the next turn id (a window joins events to replies by turn id).
  const first = chats[0]!;
  const opened = await s.call('sessions.open', { id: first.sessionId });
  assert.deepEqual(
    opened.items.map((i) => (i.kind === 'assistant' || i.kind === 'user' ? `${i.kind}:${i.text}` : i.kind)),
    ['user:one', 'assistant:answer one'],
  );
  s.server.script({ text: 'and again' });
  const ended = s.next('chat.turnEnd', (p) => p.sessionId === first.sessionId);
  const again = await s.call('chat.send', { sessionId: first.sessionId, text: 'once more' });
  assert.equal(again.turnId, `${first.sessionId}:2`);
  assert.equal((await ended).turnId, again.turnId);
  assert.ok(s.service.openConversations <= 2, `${s.service.openConversations} conversations still open`);
  const { sessions } = await s.call('sessions.list', {});
  assert.equal(sessions.length, 4, 'closing one in memory deletes nothing');
});

test('the context view names the skills the catalog budget left out', async (t) => {
  const skills: Record<string, string> = {};
  for (const n of ['alpha-report', 'bravo-report', 'charlie-report', 'delta-report']) {
    skills[`.workbuddy/skills/${n}/SKILL.md`] = skillMd(
      {
        name: n,
        description: `Write the ${n.split('-')[0]} report with every section the team asks for, in full detail`,
      },
      '# Report\n',
    );
  }
  const s = await setup(
    t,
    {},
    { ...skills, '.workbuddy/settings.json': JSON.stringify({ catalog: { budgetTokens: 90 } }) },
  );
  s.server.script({ text: 'ok' });
  const ended = s.next('chat.turnEnd');
  const { sessionId } = await s.call('chat.send', { text: 'hello' });
  await ended;
  const ctx = await s.call('context.get', { sessionId });
  const catalog = ctx.sections.find((x) => x.section === 'catalog')!;
  assert.ok(ctx.leftOut.length > 0, `nothing left out with a 90-token budget: ${JSON.stringify(catalog)}`);
  assert.ok(
    ctx.leftOut.every((n) => /^(alpha|bravo|charlie|delta)-report$|^release-notes$/.test(n)),
    ctx.leftOut.join(', '),
  );
  assert.match(catalog.items[0]!.note!, new RegExp(`${ctx.leftOut.length} left out`));
});

test("going back to the folder already open (the window's picker, a recent entry) leaves its conversations running", async (t) => {
  const s = await setup(t);
  const { sessionId, turnId, approval } = await s.askToWrite('back.txt', 'still here', 'written');
  const info = await s.call('workspace.open', { path: join(s.ws, '.') });
  assert.equal(info.path, s.ws);
  assert.deepEqual(s.of('workspace.changed'), [], 'nothing was switched');
  const ended = s.next('chat.turnEnd');
  await s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'once' });
  const end = await ended;
  assert.deepEqual([end.turnId, end.reason], [turnId, 'done']);
  assert.equal(readFileSync(join(s.ws, 'back.txt'), 'utf8'), 'still here');
});

test('a reload of the open folder (asked for) reads it again: its conversations are closed, and it says the workspace changed', async (t) => {
  const s = await setup(t);
  const { sessionId, approval } = await s.askToWrite('reload.txt', 'never');
  const changed = s.next('workspace.changed');
  await s.call('workspace.open', { path: s.ws, reload: true });
  assert.equal((await changed).workspace.path, s.ws);
  // Its turn was stopped, not left waiting: reopened, it runs nothing and asks nothing.
  const opened = await s.call('sessions.open', { id: sessionId });
  assert.deepEqual([opened.session.running, opened.approvals, opened.turnId], [false, [], undefined]);
  await assert.rejects(
    s.call('chat.answer', { sessionId, approvalId: approval.approvalId, answer: 'once' }),
    /not_found/,
  );
  assert.ok(!existsSync(join(s.ws, 'reload.txt')));
});
