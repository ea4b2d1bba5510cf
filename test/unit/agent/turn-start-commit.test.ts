// A turn's start (user message, auto-loaded skills, reply start) is committed in one transaction after the request has
// gone out (with the model's first event, or on its own while the request is in flight), before any of it and any model
// output is shown; the context's token counts follow once that start is shown; a turn that waits on the tool box still shows the message at once; a failed commit
// aborts the request and ends the turn before any model output is shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, hostOf } from '../../helpers/agent-env.js';
import { Agent } from '../../../main/core/agent/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';
import { EventMapper } from '../../../main/core/service/chat-events.js';
import type { Store } from '../../../main/core/store/index.js';

/** Fault injection on the real store: the session's next multi-event commit fails (a disk I/O error); later ones work. */
function failFirstCommit(env: { ws: { store: Store | undefined } }): { failed: () => number; restore: () => void } {
  const sessions = env.ws.store!.sessions;
  const appendMany = sessions.appendMany.bind(sessions);
  let failed = 0;
  sessions.appendMany = (id, rows) => {
    if (!failed++) throw new Error('disk I/O error');
    return appendMany(id, rows);
  };
  return { failed: () => failed, restore: () => void (sessions.appendMany = appendMany) };
}

test('the start of a turn is committed together, before the first event of the model is shown, and each event is stored before it is shown', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'hi there' });
  const chat = env.agent.newSession();
  const storedWhenShown: { type: string; stored: string[] }[] = [];
  chat.on((e) => {
    const stored = chat.events();
    assert.ok(
      stored.some((s) => s.seq === e.seq && s.type === e.type),
      `${e.type} shown before it was committed`,
    );
    storedWhenShown.push({ type: e.type, stored: stored.map((s) => s.type) });
  });
  const r = await chat.send('/git-commit please');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  const first = storedWhenShown.find((x) => x.type === 'user_message')!;
  // When the user's message is shown, the whole start of the turn is already in the store: one commit for all (with
  // the first piece of the reply when it came within the in-flight window, as a local server's does).
  const from = first.stored.lastIndexOf('user_message');
  assert.deepEqual(first.stored.slice(from, from + 3), ['user_message', 'skill_loaded', 'assistant_start']);
  assert.ok(
    first.stored.length === from + 3 || (first.stored.length === from + 4 && first.stored[from + 3] === 'text_delta'),
    first.stored.join(','),
  );
  // The request went out with that message; the start of the turn was shown (and so committed) before the reply.
  assert.equal(env.server.requests.length, 1);
  const shownTypes = storedWhenShown.map((x) => x.type);
  assert.ok(shownTypes.indexOf('assistant_start') < shownTypes.indexOf('text_delta'), shownTypes.join(','));
  const firstText = storedWhenShown.find((x) => x.type === 'text_delta')!;
  // The context meter's counts are recorded once the turn's start is shown: after the first text when that came within
  // the in-flight window (nothing on the path to it counts tokens), or else before it.
  const withText = ['user_message', 'skill_loaded', 'assistant_start', 'text_delta', 'context'];
  const alone = ['user_message', 'skill_loaded', 'assistant_start', 'context', 'text_delta'];
  const order = shownTypes.slice(0, 5).join(',');
  assert.ok(order === withText.join(',') || order === alone.join(','), order);
  // When the first text is shown, everything before it is in the store, the text too.
  const before = order === withText.join(',') ? withText.slice(0, 4) : alone;
  assert.deepEqual(firstText.stored.slice(-before.length), before);
  const ctx = chat.events().find((e) => e.type === 'context');
  assert.ok(ctx?.type === 'context' && ctx.sections.total > 0 && ctx.sections.skills > 0, JSON.stringify(ctx));
  // The session's title comes from that message (read from the log).
  assert.equal(env.agent.listSessions().find((s) => s.id === chat.id)?.title, '/git-commit please');
});

test('while a slow model thinks, the start of the turn is committed and shown on its own, before the reply begins', async () => {
  const env = await agentEnv();
  // The model's first words come a second after the stream starts: the start of the turn does not wait for them.
  env.server.script({ text: 'after a long think', firstDelayMs: 1000 });
  const chat = env.agent.newSession();
  await chat.ready();
  const seen: { type: string; stored: string[] }[] = [];
  chat.on((e) => void seen.push({ type: e.type, stored: chat.events().map((s) => s.type) }));
  const r = await chat.send('hello');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  const user = seen.find((x) => x.type === 'user_message')!;
  assert.deepEqual(
    user.stored.slice(-2),
    ['user_message', 'assistant_start'],
    'no reply stored yet when the message was shown',
  );
  assert.deepEqual(seen.map((x) => x.type).slice(0, 4), ['user_message', 'assistant_start', 'context', 'text_delta']);
});

test(
  'when the tool box is slow to open, the user message is committed and shown without waiting for it',
  { timeout: 60_000 },
  async () => {
    const env = await agentEnv();
    let openTools: () => void = () => undefined;
    const toolsGate = new Promise<void>((resolve) => (openTools = resolve));
    const ws = env.ws;
    // The workspace as the agent sees it, with a tool box that opens only when the test says so.
    const host = hostOf(ws, {
      toolbox: async () => {
        await toolsGate;
        return ws.toolbox();
      },
      newSession: async (o) => {
        await toolsGate;
        return ws.newSession(o);
      },
    });

    const agent = Agent.create(host, { providerInstance: env.agent.provider! });
    env.server.script({ text: 'done' });
    const chat = agent.newSession();
    const shown: AgentEvent[] = [];
    const userShown = new Promise<void>((resolve) =>
      chat.on((e) => {
        shown.push(e);
        if (e.type === 'user_message') resolve();
      }),
    );
    const turn = chat.send('hello there');
    await userShown;
    assert.equal(env.server.requests.length, 0, 'the model is not called before the tool box is open');
    assert.deepEqual(
      chat
        .events()
        .map((e) => e.type)
        .slice(-1),
      ['user_message'],
    );
    openTools();
    const r = await turn;
    assert.equal(r.reason, 'end_turn', JSON.stringify(r));
    assert.deepEqual(shown.map((e) => e.type).slice(0, 3), ['user_message', 'context', 'assistant_start']);
  },
);

test('every event of a turn with tool calls and several model calls is in the store before it is shown, in the order shown', async () => {
  const env = await agentEnv({ files: { 'notes.txt': 'hello' } });
  env.server.script(
    {
      text: 'Looking.',
      toolCalls: [
        { id: 'r1', name: 'read_file', input: { path: 'notes.txt' } },
        { id: 'l1', name: 'list_dir', input: { path: '.' } },
      ],
    },
    { chunks: ['It says ', 'hello.'] },
  );
  const chat = env.agent.newSession();
  const shown: AgentEvent[] = [];
  chat.on((e) => {
    const stored = chat.events();
    assert.ok(
      stored.some((s) => s.seq === e.seq && s.type === e.type),
      `${e.type} shown before it was committed`,
    );
    shown.push(e);
  });
  const r = await chat.send('what is in notes.txt?');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  assert.equal(env.server.requests.length, 2);
  // Shown in the order committed, and nothing committed that was not shown.
  const seqs = shown.map((e) => e.seq);
  assert.deepEqual(
    seqs,
    [...seqs].sort((a, b) => a - b),
  );
  const stored = chat.events().filter((e) => e.seq >= seqs[0]!);
  assert.deepEqual(
    stored.map((e) => e.seq),
    seqs,
  );
  // Each model call's start came before its output.
  const types = shown.map((e) => e.type);
  const starts = types.flatMap((t, i) => (t === 'assistant_start' ? [i] : []));
  assert.equal(starts.length, 2);
  assert.ok(starts[0]! < types.indexOf('text_delta') && starts[0]! < types.indexOf('tool_call'));
  assert.ok(types.slice(starts[1]!).includes('text_delta'));
});

/**
 * A new chat's first turn ('hello') against `script`, with a disk that fails the commit of its start (fault injection on
 * the real store; later writes work again): the turn must end with that error.
 */
async function turnWithFailedStart(script: Parameters<Awaited<ReturnType<typeof agentEnv>>['server']['script']>[0]) {
  const env = await agentEnv();
  env.server.script(script);
  const chat = env.agent.newSession();
  await chat.ready();
  const disk = failFirstCommit(env);
  const shown: AgentEvent[] = [];
  chat.on((e) => shown.push(e));
  const r = await chat.send('hello');
  disk.restore();
  assert.equal(disk.failed(), 1);
  assert.equal(r.reason, 'error', JSON.stringify(r));
  assert.match(r.error?.message ?? '', /disk I\/O error/);
  // The message that could not be stored is given back (the turn's result and its error event) for the user to send again.
  assert.equal(r.error?.unsent, 'hello');
  const err = shown.find((e) => e.type === 'error');
  assert.equal(err && err.type === 'error' ? err.unsent : undefined, 'hello');
  return { env, chat, shown, r };
}

test('when the commit of the start of a turn fails while the request is in flight, the turn ends with that error and no model output is shown or stored', async () => {
  const { env, chat, shown, r } = await turnWithFailedStart({ text: 'this must never be shown' });
  // The request had gone out (the commit runs while it is in flight) and was aborted when the commit failed: whether
  // the server got to read it first is a race, so the model call is checked on the turn's side.
  assert.equal(r.steps, 1, 'the model call was made');
  assert.ok(env.server.requests.length <= 1);
  assert.ok(
    !shown.some((e) => e.type === 'text_delta' || e.type === 'user_message'),
    shown.map((e) => e.type).join(','),
  );
  assert.ok(!chat.events().some((e) => e.type === 'text_delta'));
  assert.deepEqual(
    shown.map((e) => e.type),
    ['error', 'turn_end'],
  );
  // The live conversation is what the store holds: the message that was never stored is not in it either.
  assert.deepEqual(chat.messages(), []);
});

test(
  'when the commit of the start of a turn fails while the request is in flight, the request is aborted at once: a provider that has not answered yet does not hold the turn',
  { timeout: 60_000 },
  async () => {
    // A provider that answers nothing, not even headers, until the client goes away: the turn can only end by aborting it.
    const { env, chat, shown, r } = await turnWithFailedStart({ stall: true });
    assert.deepEqual(
      shown.map((e) => e.type),
      ['error', 'turn_end'],
    );
    assert.equal(r.steps, 1, 'the model call was made');
    // If the server got to read the request before it was aborted, it saw the client go away.
    if (env.server.requests.length)
      while (!env.server.requests[0]!.clientClosed) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(chat.messages(), []);
    // The next message works: the session is not left holding anything of the failed turn. (With no turn scripted the
    // server echoes; the stalled one is dropped in case the aborted request never reached it.)
    env.server.clear();
    const next = await chat.send('hello again');
    assert.equal(next.reason, 'end_turn', JSON.stringify(next));
    assert.equal(next.text, 'ok: hello again');
  },
);

test(
  'when the tool box is slow and the early commit of the message fails, the turn ends with that error: no model call, no earlier reply passed off as the answer',
  { timeout: 60_000 },
  async () => {
    const env = await agentEnv();
    env.server.script({ text: 'the first answer' });
    const first = env.agent.newSession();
    await first.send('hello');
    // The same conversation reopened over a tool box that opens only when the test says so.
    let openTools: () => void = () => undefined;
    const toolsGate = new Promise<void>((resolve) => (openTools = resolve));
    const ws = env.ws;
    const host = hostOf(ws, {
      newSession: async (o) => {
        await toolsGate;
        return ws.newSession(o);
      },
    });
    const chat = Agent.create(host, { providerInstance: env.agent.provider! }).openSession(first.id);
    // A disk that fails the commit the hold timer makes while the tools open.
    const disk = failFirstCommit(env);
    const shown: AgentEvent[] = [];
    chat.on((e) => shown.push(e));
    const turn = chat.send('and now?');
    await new Promise((r) => setTimeout(r, 100)); // the hold timer (20 ms) has committed, and failed
    assert.equal(disk.failed(), 1);
    openTools();
    const r = await turn;
    disk.restore();
    assert.equal(r.reason, 'error', JSON.stringify(r));
    assert.match(r.error?.message ?? '', /disk I\/O error/);
    assert.notEqual(r.text, 'the first answer');
    assert.equal(r.error?.unsent, 'and now?', 'the message that was not stored is given back');
    assert.equal(env.server.requests.length, 1, 'no model call for a message that was not stored');
    assert.ok(!shown.some((e) => e.type === 'user_message'));
    assert.deepEqual(
      chat.messages().map((m) => m.role),
      ['user', 'assistant'],
      'the conversation is what the store holds',
    );
  },
);

test('when the store takes nothing at all, sending rejects with the error, and the message that was not stored comes with it', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'this must never be shown' });
  const chat = env.agent.newSession();
  await chat.ready();
  const sessions = env.ws.store!.sessions;
  const { append, appendMany } = sessions;
  sessions.append = () => {
    throw new Error('disk I/O error');
  };
  sessions.appendMany = () => {
    throw new Error('disk I/O error');
  };
  try {
    await assert.rejects(chat.send('please keep my words'), (e: Error & { unsent?: string }) => {
      assert.match(e.message, /disk I\/O error/);
      assert.equal(e.unsent, 'please keep my words');
      return true;
    });
  } finally {
    sessions.append = append;
    sessions.appendMany = appendMany;
  }
  // The store works again: so does the conversation, which holds nothing of the failed turn.
  assert.deepEqual(chat.messages(), []);
  env.server.clear();
  const next = await chat.send('hello again');
  assert.equal(next.reason, 'end_turn', JSON.stringify(next));
});

test("with no model configured, a failed commit of the turn's start ends the turn with that error and gives the message back, once", async () => {
  const env = await agentEnv();
  const chat = Agent.create(env.ws, {}).newSession(); // offline: the turn's start is still held when the turn body returns
  await chat.ready();
  const disk = failFirstCommit(env);
  const r = await chat.send('please keep my words');
  disk.restore();
  assert.equal(r.reason, 'error', JSON.stringify(r));
  assert.match(r.error?.message ?? '', /disk I\/O error/);
  assert.equal(r.error?.unsent, 'please keep my words');
  // The next turn works and hands back nothing of the failed one.
  const next = await chat.send('hello');
  assert.equal(next.reason, 'offline', JSON.stringify(next));
  assert.equal(next.error, undefined);
  assert.deepEqual(
    chat
      .messages()
      .filter((m) => m.role === 'user')
      .map((m) => m.role === 'user' && m.text),
    ['hello'],
  );
});

test("when the turn's end cannot be stored after its start failed, sending rejects with the message given back, and the next turn's end carries nothing of it", async () => {
  const env = await agentEnv();
  env.server.script({ text: 'one' }, { text: 'two' });
  const chat = env.agent.newSession();
  await chat.ready();
  const ends: { unsent?: string; reason: string }[] = [];
  const mapper = new EventMapper(
    (n, p) => {
      if (n === 'chat.turnEnd') ends.push(p as { unsent?: string; reason: string });
    },
    () => 't',
  );
  chat.on((e) => mapper.map(e));
  const sessions = env.ws.store!.sessions;
  const { append, appendMany } = sessions;
  let startFails = 1;
  let endFails = 1;
  sessions.appendMany = (id, rows) => {
    if (startFails-- > 0) throw new Error('disk I/O error');
    return appendMany.call(sessions, id, rows);
  };
  sessions.append = ((...a: Parameters<typeof append>) => {
    if (a[1] === 'turn_end' && endFails-- > 0) throw new Error('disk I/O error (turn end)');
    return append.apply(sessions, a);
  }) as typeof append;
  try {
    await assert.rejects(chat.send('my precious first message'), (e: Error & { unsent?: string }) => {
      assert.equal(e.unsent, 'my precious first message');
      return true;
    });
    const second = await chat.send('second message');
    assert.equal(second.reason, 'end_turn', JSON.stringify(second));
    assert.equal(ends.at(-1)?.unsent, undefined, 'the next turn carries nothing of the failed one');
  } finally {
    sessions.append = append;
    sessions.appendMany = appendMany;
  }
});
