// A user-tier skill whose instructions run a Python script by `{baseDir}`, as skills in the wild do: the model loads
// it, is told the folder, runs the script through bash, and the script runs inside the OS sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const SKILL = `---
name: pdf-fill
description: Fill in PDF forms. Use when asked to fill a form.
---
# Fill a form

Run \`python3 {baseDir}/scripts/fill.py\` and report what it prints.
`;

test("a user-tier skill's Python script runs through bash inside the sandbox, by the folder its instructions name", async () => {
  const env = await agentEnv({
    homeFiles: {
      '.workbuddy/skills/pdf-fill/SKILL.md': SKILL,
      '.workbuddy/skills/pdf-fill/scripts/fill.py': 'print("filled by the skill")\n',
    },
  });
  await env.ws.catalog.settled();
  const dir = realpathSync(join(env.home, '.workbuddy', 'skills', 'pdf-fill'));
  env.server.script(
    { toolCalls: [{ id: 's1', name: 'Skill', input: { name: 'pdf-fill' } }] },
    { toolCalls: [{ id: 'b1', name: 'bash', input: { command: `python3 ${dir}/scripts/fill.py` } }] },
    { text: 'done' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e: AgentEvent) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'once' }));
  });
  await chat.send('fill the form');
  const system = (env.server.requests[1]!.body.system as { text: string }[]).map((b) => b.text).join('\n');
  assert.ok(system.includes(`Base directory for this skill: ${dir}\n`), system);
  assert.ok(system.includes(`python3 ${dir}/scripts/fill.py`), 'the {baseDir} of its instructions is filled in');
  const ran = evs.find(
    (e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.callId === 'b1',
  );
  assert.ok(ran, JSON.stringify(evs.map((e) => e.type)));
  assert.equal(ran.ok, true, ran.content);
  assert.match(ran.content, /filled by the skill/);
  assert.match(ran.content, /"sandboxed":\s*true/);
});
