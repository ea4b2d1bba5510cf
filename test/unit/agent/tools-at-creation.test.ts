// A new chat opens its tool session when it is created, in the background, so the first turn does not wait for it; a
// reopened one only when it is used (never to be read); a failure to open is reported on first use and retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, hostOf, type AgentEnv } from '../../helpers/agent-env.js';
import { Agent, type AgentHost, type TurnResult } from '../../../main/core/agent/index.js';

/** The real workspace as the agent sees it, counting tool-session opens, with the first `failures` opens failing. */
function countingHost(
  env: AgentEnv,
  opts: { failures?: number; gate?: Promise<void> } = {},
): { host: AgentHost; opens: () => number } {
  const ws = env.ws;
  let opens = 0;
  let failures = opts.failures ?? 0;
  const host = hostOf(ws, {
    newSession: async (o) => {
      opens++;
      await opts.gate;
      if (failures > 0) {
        failures--;
        throw new Error('the MCP server "files" did not start');
      }
      return ws.newSession(o);
    },
  });
  return { host, opens: () => opens };
}

/** Unhandled rejections seen while `fn` runs (and a moment after). */
async function unhandledDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const on = (e: unknown): void => void seen.push(e);
  process.on('unhandledRejection', on);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    process.off('unhandledRejection', on);
  }
  return seen;
}

test('a new chat opens its tool session when it is created, before the first message, and the turn uses that one', async () => {
  const env = await agentEnv();
  const { host, opens } = countingHost(env);
  // The provider is told to get ready (its SDK, its shape of the tool list) as the chat's tools open.
  const real = env.agent.provider!;
  const prepared: string[][] = [];
  const provider = { ...real, prepare: (tools: { name: string }[]) => void prepared.push(tools.map((t) => t.name)) };
  const agent = Agent.create(host, { providerInstance: provider });
  const chat = agent.newSession();
  await new Promise((r) => setImmediate(r)); // no message sent: the open started with the chat
  assert.equal(opens(), 1);
  await chat.ready();
  assert.equal(env.server.requests.length, 0);
  assert.equal(prepared.length, 1);
  assert.ok(prepared[0]!.includes('Skill'), prepared[0]!.join(','));
  env.server.script({ text: 'hi' });
  const r = await chat.send('hello');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  assert.equal(opens(), 1, 'the first turn found it open');
  // Its tools are the ones the model was offered.
  const sent = (env.server.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
  assert.ok(sent.includes('Skill') && sent.includes('ToolSearch'), sent.join(','));
  assert.deepEqual(sent, prepared[0]);
});

test('a chat reopened to be read or exported starts no tools; its first message (or ready()) opens them, with its skills loaded into them', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'ok' });
  const first = env.agent.newSession();
  await first.send('/git-commit please');
  await first.close();
  const { host, opens } = countingHost(env);
  const agent = Agent.create(host, { providerInstance: env.agent.provider! });
  // Reading it: its transcript, its skills, an export — none of it opens the tool session (the user's MCP servers).
  const chat = agent.openSession(first.id);
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(chat.events().some((e) => e.type === 'user_message'));
  assert.deepEqual(
    chat.loadedSkills().map((s) => s.name),
    ['git-commit'],
  );
  assert.match(agent.exportSession(first.id, 'md'), /git-commit please/);
  assert.equal(opens(), 0);
  // Writing in it: the turn opens it, once, and the skill it had loaded is active in it.
  env.server.script({ text: 'again' });
  const r = await chat.send('and once more');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  assert.equal(opens(), 1);
  assert.deepEqual(
    (await chat.projection()).filter((p) => p.kind === 'skill').map((p) => p.name),
    ['git-commit'],
  );
  const system = JSON.stringify(env.server.requests.at(-1)!.body.system);
  assert.match(system, /<skill name=\\"git-commit\\"/);
  // A chat the user starts typing in is readied ahead of the message.
  const other = agent.openSession(first.id);
  await other.ready();
  assert.equal(opens(), 2);
});

test('a tool session that fails to open is reported by the first turn, never as an unhandled rejection, and the next turn opens it again', async () => {
  const env = await agentEnv();
  // The open at creation and the first turn's retry fail; the second turn's open works.
  const { host, opens } = countingHost(env, { failures: 2 });
  const agent = Agent.create(host, { providerInstance: env.agent.provider! });
  let first: TurnResult | undefined;
  const unhandled = await unhandledDuring(async () => {
    const chat = agent.newSession();
    await new Promise((r) => setTimeout(r, 10)); // the background open has failed by now
    first = await chat.send('hello');
    assert.equal(opens(), 2);
    env.server.script({ text: 'now it works' });
    const second = await chat.send('hello again');
    assert.equal(second.reason, 'end_turn', JSON.stringify(second));
    assert.equal(second.text, 'now it works');
    assert.equal(opens(), 3);
  });
  assert.deepEqual(unhandled, []);
  assert.equal(first?.reason, 'error');
  assert.match(first?.error?.message ?? '', /MCP server "files" did not start/);
  assert.equal(env.server.requests.length, 1, 'no model call without tools');
});

test('a chat closed while its tool session is still opening leaves no unhandled rejection behind, and refuses new messages', async () => {
  const env = await agentEnv();
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const { host } = countingHost(env, { failures: 1, gate });
  const agent = Agent.create(host, { providerInstance: env.agent.provider! });
  const unhandled = await unhandledDuring(async () => {
    const chat = agent.newSession();
    await chat.close(); // returns without waiting for the tools
    open(); // now the open fails, after the chat is closed
    await new Promise((r) => setTimeout(r, 10));
    await assert.rejects(chat.send('hello'), /the session is closed/);
  });
  assert.deepEqual(unhandled, []);
});
