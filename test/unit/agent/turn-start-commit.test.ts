// A turn's start (user message, auto-loaded skills, context, reply start) is committed in one transaction before
// the model call and before any of it is shown; a turn that waits on the tool box still shows the message at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import { Agent, type AgentHost } from '../../../main/core/agent/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

test('the start of a turn is committed together before the model is called, and each event is stored before it is shown', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'hi there' });
  const chat = env.agent.newSession();
  const storedWhenShown: { type: string; stored: string[] }[] = [];
  chat.on((e) => {
    const stored = chat.events();
    assert.ok(stored.some((s) => s.seq === e.seq && s.type === e.type), `${e.type} shown before it was committed`);
    storedWhenShown.push({ type: e.type, stored: stored.map((s) => s.type) });
  });
  const r = await chat.send('/git-commit please');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  const first = storedWhenShown.find((x) => x.type === 'user_message')!;
  // When the user's message is shown, the whole start of the turn is already in the store: one commit for all.
  assert.deepEqual(first.stored.slice(-4), ['user_message', 'skill_loaded', 'context', 'assistant_start']);
  // The model was called after that commit: its request carried the message the store holds.
  assert.equal(env.server.requests.length, 1);
  // The session's title (written with the message) and last-used time are in the same commit.
  assert.equal(env.agent.listSessions().find((s) => s.id === chat.id)?.title, '/git-commit please');
});

test('when the tool box is slow to open, the user message is committed and shown without waiting for it', { timeout: 60_000 }, async () => {
  const env = await agentEnv();
  let openTools: () => void = () => undefined;
  const toolsGate = new Promise<void>((resolve) => (openTools = resolve));
  const ws = env.ws;
  // The workspace as the agent sees it, with a tool box that opens only when the test says so.
  const host: AgentHost = {
    workspace: ws.workspace,
    settings: ws.settings,
    store: ws.store,
    catalog: ws.catalog,
    gate: ws.gate,
    paths: ws.paths,
    matcher: () => ws.matcher(),
    toolbox: async () => {
      await toolsGate;
      return ws.toolbox();
    },
    newSession: async (o) => {
      await toolsGate;
      return ws.newSession(o);
    },
  };
  const agent = Agent.create(host, { providerInstance: env.agent.provider! });
  env.server.script({ text: 'done' });
  const chat = agent.newSession();
  const shown: AgentEvent[] = [];
  const userShown = new Promise<void>((resolve) => chat.on((e) => {
    shown.push(e);
    if (e.type === 'user_message') resolve();
  }));
  const turn = chat.send('hello there');
  await userShown;
  assert.equal(env.server.requests.length, 0, 'the model is not called before the tool box is open');
  assert.deepEqual(chat.events().map((e) => e.type).slice(-1), ['user_message']);
  openTools();
  const r = await turn;
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  assert.deepEqual(shown.map((e) => e.type).slice(0, 3), ['user_message', 'context', 'assistant_start']);
});
