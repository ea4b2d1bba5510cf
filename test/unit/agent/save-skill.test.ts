import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';

// The default ceiling only writes inside the workspace: saving to the user tier needs that folder as a write root.
// Without it the gate denies the write (reported in the result, nothing written).
test('saving a finished task as a skill: the model drafts it with create_skill (agent_created), after the user approves the write', async () => {
  const env = await agentEnv({ settings: (home) => ({ policy: { ceiling: { writeRoots: [join(home, '.workbuddy', 'skills')] } } }) });
  env.server.script(
    {
      toolCalls: [{
        name: 'DeferExecuteTool',
        input: { name: 'create_skill', arguments: { name: 'weekly-report', description: 'Write the weekly report from the git log. Use when asked for the weekly report.', instructions: '1. Read the git log.\n2. Summarise.', read_when: ['weekly report', '周报'] } },
      }],
    },
    { text: 'Saved as weekly-report.' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'once' }));
  });
  const r = await chat.saveAsSkill();
  assert.equal(r.reason, 'end_turn');
  assert.match(env.server.requests[0]!.body.messages ? JSON.stringify(env.server.requests[0]!.body.messages) : '', /create_skill/);
  const result = evs.find((e) => e.type === 'tool_result');
  assert.ok(result && result.type === 'tool_result', 'a result');
  assert.equal(result.ok, true, result.content);
  const file = join(env.home, '.workbuddy', 'skills', 'weekly-report', 'SKILL.md');
  assert.ok(existsSync(file));
  assert.match(readFileSync(file, 'utf8'), /agent_created: true/);
});
