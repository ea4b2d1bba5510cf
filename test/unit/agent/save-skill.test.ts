import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

const draft = (name: string) => ({
  name: 'DeferExecuteTool',
  input: {
    name: 'create_skill',
    arguments: {
      name,
      description: 'Write the weekly report from the git log. Use when asked for the weekly report.',
      instructions: '1. Read the git log.\n2. Summarise.',
      read_when: ['weekly report', '周报'],
    },
  },
});

// No settings at all: the user tier (~/.workbuddy/skills) is among the gate's write roots, and protected — the
// write is asked every time, "always" included, and what the user refuses is never written.
test('saving a finished task as a skill: create_skill writes the user tier after the user approves, and asks again next time', async () => {
  const env = await agentEnv();
  env.server.script({ toolCalls: [draft('weekly-report')] }, { text: 'Saved as weekly-report.' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'always' }));
  });
  const r = await chat.send('Save the task we just finished as a reusable skill with create_skill.');
  assert.equal(r.reason, 'end_turn');
  assert.match(JSON.stringify(env.server.requests[0]!.body.messages), /create_skill/);
  const asked = get(evs, 'approval_requested');
  assert.equal(asked.length, 1);
  assert.equal(asked[0]!.tool, 'create_skill');
  assert.match(asked[0]!.reason, /skills/);
  const result = get(evs, 'tool_result')[0]!;
  assert.equal(result.ok, true, result.content);
  const file = join(env.home, '.workbuddy', 'skills', 'weekly-report', 'SKILL.md');
  assert.match(readFileSync(file, 'utf8'), /agent_created: true/);
  await env.ws.catalog.refresh();
  assert.equal(env.ws.catalog.get('weekly-report')?.tier, 'user');

  // A second save still asks (skill folders are protected: no rule makes writing them silent).
  env.server.script({ toolCalls: [draft('monthly-report')] }, { text: 'Saved.' });
  await chat.send('Save the task we just finished as a reusable skill with create_skill.');
  assert.equal(get(evs, 'approval_requested').length, 2);
});

test('a refused save writes nothing, and a skill script may never write the user tier', async () => {
  const env = await agentEnv();
  env.server.script({ toolCalls: [draft('weekly-report')] }, { text: 'Not saved.' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested')
      setImmediate(() => chat.answer(e.approvalId, { kind: 'deny', message: 'not now' }));
  });
  await chat.send('Save the task we just finished as a reusable skill with create_skill.');
  const result = get(evs, 'tool_result')[0]!;
  assert.equal(result.ok, false);
  assert.equal(result.code, 'tool.declined', result.content);
  assert.equal(existsSync(join(env.home, '.workbuddy', 'skills', 'weekly-report')), false);

  const target = join(env.home, '.workbuddy', 'skills', 'planted', 'SKILL.md');
  const d = env.ws.gate.authorize(
    { tool: 'write_file', args: { path: target }, access: { write: [target] } },
    { kind: 'skill', skill: 'git-commit' },
  );
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /read-only/);
});
