// The gate's decision fields travel with every decision that is shown (issue 8, remaining gap 2): the rule that
// spoke, its scope, the acting skill and the real paths checked are in the approval request and the gate decision
// the session records (its log in SQLite), not only in the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { english } from '../../../main/core/base/index.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

test('an approval request and its gate decision carry the rule, its scope and the real paths, in the session log too', async () => {
  const env = await agentEnv();
  const wsReal = realpathSync(env.workspace);
  env.ws.store!.policy.insertRule({ effect: 'ask', tool: 'write_file', workspace: wsReal, note: 'review every write' });
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'out.txt', content: 'hi' } }] },
    { text: 'done' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'once' }));
  });
  await chat.send('write out.txt');
  const req = get(evs, 'approval_requested')[0];
  assert.ok(req, 'approval asked');
  assert.match(req.decision?.rule ?? '', /^ask write_file/);
  assert.match(req.decision?.scope ?? '', new RegExp(`workspace ${wsReal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.ok(req.decision?.ruleId);
  assert.deepEqual(req.decision?.paths, { read: [], write: [join(wsReal, 'out.txt')] });
  const ask = get(evs, 'gate_decision').find((d) => d.verdict === 'ask')!;
  assert.equal(ask.rule, req.decision?.rule);
  assert.equal(ask.scope, req.decision?.scope);
  assert.deepEqual(ask.paths?.write, [join(wsReal, 'out.txt')]);
  // The same as words the window says in its language, whose English is what the fields say.
  assert.ok(req.decision?.ruleWords && req.decision.scopeWords, 'words for the rule and its scope');
  assert.equal(english(req.decision.ruleWords), req.decision.rule);
  assert.equal(english(req.decision.scopeWords), req.decision.scope);
  assert.equal(req.decision.scopeWords.code, 'rule.scopeWorkspace');
  assert.ok(req.alwaysPreview.length > 0);
  assert.deepEqual(req.alwaysWords?.map(english), req.alwaysPreview);
  // What was shown is what was stored: the session log holds the same fields.
  const stored = env.ws.store!.sessions.events(chat.id).find((e) => e.type === 'approval_requested')!;
  assert.deepEqual((stored.data as { decision?: unknown }).decision, req.decision);
});

test('a denial recorded in the session log names the rule and scope that denied it', async () => {
  const env = await agentEnv();
  const wsReal = realpathSync(env.workspace);
  env.ws.store!.policy.insertRule({ effect: 'deny', tool: 'write_file', workspace: wsReal, path: 'secret/**' });
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'secret/k.txt', content: 'x' } }] },
    { text: 'ok' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('write the key');
  const d = get(evs, 'gate_decision').find((e) => e.verdict === 'deny')!;
  assert.ok(d, 'denied');
  assert.match(d.rule ?? '', /deny write_file path secret\/\*\*/);
  assert.match(d.scope ?? '', /workspace /);
  const stored = env.ws
    .store!.sessions.events(chat.id)
    .find((e) => e.type === 'gate_decision' && (e.data as { verdict?: string }).verdict === 'deny')!;
  assert.equal((stored.data as { rule?: string }).rule, d.rule);
  // The result carries the refusal as words, whose English is what the model read (and only that).
  const r = get(evs, 'tool_result')[0]!;
  assert.equal(r.code, 'tool.denied');
  assert.equal(r.words?.code, 'tool.denied');
  assert.equal((r.words?.params?.reason as { code?: string } | undefined)?.code, 'gate.ruleDenies');
  const sent = JSON.parse(r.content) as { error: { message: string }; said?: unknown };
  assert.equal(sent.error.message, english(r.words!));
  assert.equal(sent.said, undefined, 'the model reads the error, not the words');
});

test("the app's approval event carries the decision fields, escaped with the shared helper", async () => {
  const { EventMapper } = await import('../../../main/core/service/chat-events.js');
  const sent: { name: string; payload: Record<string, unknown> }[] = [];
  const mapper = new EventMapper(
    (name, payload) => sent.push({ name, payload: payload as Record<string, unknown> }),
    () => 't1',
  );
  const evil = 'a\u202eb\u2066c\x1b[1A';
  mapper.map({
    type: 'approval_requested',
    approvalId: 'p1',
    callId: 'c1',
    tool: 'write_file',
    args: { path: evil },
    reason: 'asks',
    activeSkills: ['deploy'],
    alwaysPreview: [],
    decision: {
      rule: `ask write_file path ${evil}`,
      scope: 'every workspace',
      skill: { name: 'deploy', tier: 'user', dir: `/s/${evil}`, hash: 'abc123' },
      paths: { read: [], write: [`/w/${evil}`] },
    },
    seq: 1,
    at: 0,
    sessionId: 's',
  });
  const ev = sent.find((e) => e.name === 'chat.approval')!.payload as {
    decision?: { rule?: string; skill?: { dir: string }; paths?: { write: string[] } };
  };
  assert.equal(ev.decision?.rule, 'ask write_file path a\\u{202e}b\\u{2066}c\\x1b[1A');
  assert.equal(ev.decision?.skill?.dir, '/s/a\\u{202e}b\\u{2066}c\\x1b[1A');
  assert.deepEqual(ev.decision?.paths?.write, ['/w/a\\u{202e}b\\u{2066}c\\x1b[1A']);
  const { events } = await import('../../../preload/contract.js');
  assert.equal(events['chat.approval'].safeParse(ev).success, true);
});
