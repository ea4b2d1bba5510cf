import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

test('near the context window, older turns are replaced by a model-written summary; loaded skills stay in the system prompt', async () => {
  // A small window: the fixed sections alone take most of it, so the second long turn triggers compaction.
  const env = await agentEnv({ contextWindow: 6_000, agent: { maxTokens: 500, compactAt: 0.8 } });
  const long = 'word '.repeat(2500);
  env.server.script({ text: `First answer. ${long}` });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('帮我提交代码 please');
  assert.ok(chat.loadedSkills().some((s) => s.name === 'git-commit'));
  env.server.script({ text: 'The user asked to commit; I answered at length.' }, { text: 'Second answer.' });
  const r = await chat.send('and now the second question');
  assert.equal(r.text, 'Second answer.');
  const c = get(evs, 'compaction')[0];
  assert.ok(c, 'compacted');
  assert.equal(c.summary, 'The user asked to commit; I answered at length.');
  assert.ok(c.tokensAfter < c.tokensBefore);
  // The summary request had no tools; the next request starts with the summary and keeps the loaded skill.
  const summaryReq = env.server.requests.at(-2)!.body;
  assert.equal(summaryReq.tools, undefined);
  const next = env.server.requests.at(-1)!.body;
  const msgs = next.messages as { role: string; content: { text?: string }[] }[];
  assert.match(msgs[0]!.content[0]!.text ?? '', /Summary of the earlier conversation[\s\S]*asked to commit/);
  assert.match(msgs[0]!.content.at(-1)!.text ?? '', /second question/);
  const system = (next.system as { text: string }[]).map((b) => b.text).join('\n');
  assert.match(system, /name="git-commit"/, 'the skill instructions are not compacted away');
  // Reopening the session replays the compaction.
  const again = env.agent.openSession(chat.id);
  assert.match(
    again.messages()[0]!.role === 'user' ? (again.messages()[0] as { text: string }).text : '',
    /Summary of the earlier conversation/,
  );
});

test('a finished task with three or more tool calls is offered as a skill', async () => {
  const env = await agentEnv({ files: { 'a.txt': 'a', 'b.txt': 'b' } });
  env.server.script(
    {
      toolCalls: [
        { name: 'read_file', input: { path: 'a.txt' } },
        { name: 'read_file', input: { path: 'b.txt' } },
      ],
    },
    { toolCalls: [{ name: 'list_dir', input: { path: '.' } }] },
    { text: 'All read.' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('read both files and list the folder');
  const offer = get(evs, 'skill_offer')[0];
  assert.ok(offer);
  assert.equal(offer.toolCalls, 3);
  assert.deepEqual(offer.tools.sort(), ['list_dir', 'read_file']);
  env.server.script({ text: 'short' });
  const evs2 = recorder(chat);
  await chat.send('thanks');
  assert.equal(get(evs2, 'skill_offer').length, 0, 'no offer for a turn without tool calls');
});

test('max steps ends a turn that keeps calling tools', async () => {
  const env = await agentEnv({ files: { 'a.txt': 'a' }, agent: { maxSteps: 2 } });
  const call = { toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] };
  env.server.script(call, call, call);
  const chat = env.agent.newSession();
  const r = await chat.send('loop');
  assert.equal(r.reason, 'max_steps');
  assert.equal(r.steps, 2);
  assert.equal(env.server.requests.length, 2);
});
