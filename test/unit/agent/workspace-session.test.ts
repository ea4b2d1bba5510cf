import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { skillMd } from '../../helpers/tmp.js';
import { main } from '../../../main/cli/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';
import { cliArgs } from '../../helpers/cli.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

// A project skill that only reads Markdown: while a chat has it loaded, the model stays inside that manifest.
const reader = {
  '.workbuddy/skills/reader/SKILL.md': skillMd({
    name: 'reader',
    description: 'Reads my notes. Use when asked to read my notes.',
    read_when: ['read my notes'],
    permissions: { tools: ['read_file'], paths: { read: ['**/*.md'] } },
  }),
  'notes.md': 'hello from the notes\n',
};
const grep = { name: 'grep', input: { pattern: 'hello', path: '.' } };

test('the gate judges the model by what this chat loaded: a trigger-loaded skill binds it, unloading it frees it again', async () => {
  const env = await agentEnv({ files: reader });
  await env.ws.catalog.settled();
  env.server.script({ toolCalls: [{ id: 'g1', ...grep }] }, { text: 'grep was refused' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('please read my notes');
  assert.deepEqual(
    get(evs, 'skill_loaded').map((e) => [e.name, e.reason]),
    [['reader', 'trigger']],
  );
  const denied = get(evs, 'tool_result')[0]!;
  assert.equal(denied.ok, false);
  assert.equal(denied.code, 'tool.denied');
  assert.match(denied.content, /reader/);

  assert.equal(await chat.unloadSkill('reader'), true);
  env.server.script({ toolCalls: [{ id: 'g2', ...grep }] }, { text: 'found it' });
  await chat.send('now search for hello');
  const second = get(evs, 'tool_result').find((e) => e.callId === 'g2')!;
  assert.equal(second.ok, true, second.content);
  assert.match(second.content, /notes\.md/);
});

test('a skill the model loads with the Skill tool is recorded with its projection and binds the model from the next call on', async () => {
  const env = await agentEnv({ files: reader });
  await env.ws.catalog.settled();
  env.server.script(
    { toolCalls: [{ id: 's1', name: 'Skill', input: { name: 'READER' } }] },
    { toolCalls: [{ id: 'g1', ...grep }] },
    { text: 'done' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('look around');
  const loaded = get(evs, 'skill_loaded');
  assert.deepEqual(
    loaded.map((e) => [e.name, e.reason, e.tier]),
    [['reader', 'model', 'project']],
  );
  assert.ok(loaded[0]!.tokens > 0);
  const skillResult = get(evs, 'tool_result').find((e) => e.callId === 's1')!;
  assert.equal(skillResult.ok, true, skillResult.content);
  // The instructions go into the system prompt once, not into the tool result as well.
  assert.doesNotMatch(skillResult.content, /Do the thing/);
  const system = (env.server.requests[1]!.body.system as { text: string }[]).map((b) => b.text).join('\n');
  assert.match(system, /<skill name="reader"[\s\S]*Do the thing/);
  const g = get(evs, 'tool_result').find((e) => e.callId === 'g1')!;
  assert.equal(g.code, 'tool.denied', g.content);
  assert.deepEqual(
    chat.loadedSkills().map((s) => s.name),
    ['reader'],
  );
});

test('"always allow" is stored in the workspace rule store: `knack policy rules list` shows it and a new chat is not asked again', async () => {
  const env = await agentEnv();
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'out.txt', content: 'one' } }] },
    { text: 'written' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'always' }));
  });
  assert.equal((await chat.send('write out.txt')).reason, 'end_turn');
  const asked = get(evs, 'approval_requested')[0]!;
  const answered = get(evs, 'approval_answered')[0]!;
  assert.equal(answered.answer, 'always');
  assert.deepEqual(answered.rules, asked.alwaysPreview);
  assert.ok(answered.rules!.length > 0);
  assert.equal(readFileSync(join(env.workspace, 'out.txt'), 'utf8'), 'one');

  // The same store the policy commands read.
  const out: string[] = [];
  const code = await main(
    ['policy', 'rules', 'list', '--json', ...cliArgs({ ws: env.workspace, home: env.home, data: env.dataDir })],
    { out: (t) => void out.push(t), err: () => {} },
  );
  assert.equal(code, 0);
  const rules = JSON.parse(out.join('\n')) as { tool?: string; effect: string }[];
  assert.ok(
    rules.some((r) => r.tool === 'write_file' && r.effect === 'allow'),
    out.join('\n'),
  );

  const next = env.agent.newSession();
  const evs2 = recorder(next);
  env.server.script(
    { toolCalls: [{ id: 'w2', name: 'write_file', input: { path: 'out.txt', content: 'two' } }] },
    { text: 'again' },
  );
  await next.send('write out.txt again');
  assert.deepEqual(get(evs2, 'approval_requested'), []);
  const d = get(evs2, 'gate_decision')[0]!;
  assert.equal(d.verdict, 'allow');
  assert.ok(d.ruleId, 'decided by the stored rule');
  assert.equal(readFileSync(join(env.workspace, 'out.txt'), 'utf8'), 'two');
});
