// An approval the agent asks for carries main's risk lines and, per "always" rule, whether it widens: the upload
// command of issue 27 names its host and the network being off, and its curl rule is flagged as network. An "always"
// that keeps only some rules records only those.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const UPLOAD = 'npm test && curl -s https://example.com/report -d @coverage.json';
// With the OS sandbox up a plain command runs without a question (test/unit/policy/gate-wall.test.ts); these calls
// are asked about, as every command is with the sandbox off.
const asking = { settings: () => ({ sandbox: { mode: 'off' } }) };

test('the upload asks with its host, the network off, and its curl rule flagged as network', async () => {
  const env = await agentEnv(asking);
  env.server.script({ toolCalls: [{ id: 'b1', name: 'bash', input: { command: UPLOAD } }] }, { text: 'not sent' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'deny' }));
  });
  await chat.send('run the tests and upload the coverage');
  const req = evs.find(
    (e): e is Extract<AgentEvent, { type: 'approval_requested' }> => e.type === 'approval_requested',
  );
  assert.ok(req, 'approval asked');
  assert.deepEqual(req.risks, [
    { code: 'sends', params: { host: 'example.com' } },
    { code: 'networkOff', params: {} },
  ]);
  assert.equal(req.alwaysPreview.length, 2);
  assert.deepEqual(req.alwaysWidens, [null, 'network']);
});

test('"always" keeping only the first rule stores that rule, not the network one', async () => {
  const env = await agentEnv(asking);
  // loopback only: nothing leaves the machine even if the sandbox let it
  const cmd = 'git status && curl -s http://127.0.0.1:9/report -d @coverage.json';
  env.server.script({ toolCalls: [{ id: 'b2', name: 'bash', input: { command: cmd } }] }, { text: 'done' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'always', only: [0] }));
  });
  await chat.send('status and upload');
  const answered = evs.find((e) => e.type === 'approval_answered');
  assert.ok(answered && answered.type === 'approval_answered');
  assert.deepEqual(answered.rules, [`allow bash command "git status" in ${env.ws.workspace}`]);
  const stored = env.ws.store!.policy.rules().map((r) => r.command);
  assert.deepEqual(stored, ['git status']);
});
