import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv, recorder, typesOf } from '../../helpers/agent-env.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

test('a Chinese request auto-loads the matching skill, the model reads a file through the gate and answers', async () => {
  const env = await agentEnv({ files: { 'notes.txt': 'release on Friday' } });
  env.server.script(
    { text: '我先看看文件。', toolCalls: [{ id: 'c1', name: 'read_file', input: { path: 'notes.txt' } }] },
    { text: '文件说周五发布。' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  const r = await chat.send('帮我提交代码');
  assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  assert.equal(r.text, '文件说周五发布。');
  const loaded = get(evs, 'skill_loaded');
  assert.deepEqual(
    loaded.map((e) => [e.name, e.reason]),
    [['git-commit', 'trigger']],
  );
  assert.match(loaded[0]!.why, /提交/);
  const result = get(evs, 'tool_result')[0]!;
  assert.equal(result.ok, true, result.content);
  assert.match(result.content, /release on Friday/);
  assert.deepEqual(
    get(evs, 'gate_decision').map((e) => e.verdict),
    ['allow'],
  );
  // The loaded skill is in the system prompt of both requests; the second carries the tool result.
  for (const req of env.server.requests) {
    const system = (req.body.system as { text: string }[]).map((b) => b.text).join('\n');
    assert.match(system, /<loaded_skills>[\s\S]*name="git-commit"/);
    assert.match(system, /<available_skills>/);
  }
  const second = env.server.requests[1]!.body.messages as {
    role: string;
    content: { type: string; content?: string }[];
  }[];
  assert.equal(second.at(-1)!.content[0]!.type, 'tool_result');
  // Order of what was shown: committed events with increasing seq.
  assert.ok(evs.every((e, i) => i === 0 || e.seq > evs[i - 1]!.seq));
  assert.deepEqual(typesOf(evs).slice(0, 3), ['user_message', 'skill_loaded', 'assistant_start']);
  assert.equal(typesOf(evs).at(-1), 'turn_end');
});

test('malformed tool arguments come back to the model as an error naming the problem, and the turn goes on', async () => {
  const env = await agentEnv({ kind: 'openai' });
  env.server.script({ toolCalls: [{ id: 'c1', name: 'read_file', rawArguments: '{"path": ' }] }, { text: 'sorry' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  const r = await chat.send('read something');
  assert.equal(r.reason, 'end_turn');
  const res = get(evs, 'tool_result')[0]!;
  assert.equal(res.ok, false);
  assert.equal(res.code, 'tool.invalid_json');
  const msgs = env.server.requests[1]!.body.messages as { role: string; content: string }[];
  assert.equal(msgs.at(-1)!.role, 'tool');
  assert.match(msgs.at(-1)!.content, /not valid JSON/);
});

test('an ask pauses the turn with an approval request; deny with a message goes back to the model', async () => {
  const env = await agentEnv();
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'out.txt', content: 'hi' } }] },
    { text: 'ok, not writing' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested')
      setImmediate(() => chat.answer(e.approvalId, { kind: 'deny', message: 'use a different name' }));
  });
  const r = await chat.send('write out.txt');
  assert.equal(r.reason, 'end_turn');
  const req = get(evs, 'approval_requested')[0];
  assert.ok(req, `approval asked: ${typesOf(evs).join(',')}`);
  assert.equal(req.tool, 'write_file');
  assert.ok(req.reason.length > 0);
  assert.ok(req.alwaysPreview.length >= 1);
  const res = get(evs, 'tool_result')[0]!;
  assert.equal(res.ok, false);
  assert.match(res.content, /use a different name/);
});

test('always allow stores a reusable rule: the next identical call is not asked again', async () => {
  const env = await agentEnv();
  const write = (id: string) => ({ toolCalls: [{ id, name: 'write_file', input: { path: 'a.txt', content: 'x' } }] });
  env.server.script(write('a1'), { text: 'done' }, write('a2'), { text: 'done again' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'always' }));
  });
  await chat.send('write a.txt');
  await chat.send('write it again');
  assert.equal(get(evs, 'approval_requested').length, 1, 'asked once');
  const answered = get(evs, 'approval_answered')[0]!;
  assert.equal(answered.answer, 'always');
  assert.ok(answered.rules?.length, 'the stored rule is reported');
  assert.ok(get(evs, 'tool_result').every((r) => r.ok));
  assert.ok(env.ws.store!.policy.rules().some((r) => r.effect === 'allow' && r.tool === 'write_file'));
});

test("a tool call's duration is its run, not the time the user took to answer its approval", async () => {
  const env = await agentEnv();
  env.server.script(
    { toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'a.txt', content: 'x' } }] },
    { text: 'written' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  const THINK_MS = 1500; // the user reads the card before answering
  chat.on((e) => {
    if (e.type === 'approval_requested') setTimeout(() => chat.answer(e.approvalId, { kind: 'once' }), THINK_MS);
  });
  await chat.send('write a.txt');
  const result = get(evs, 'tool_result')[0]!;
  assert.equal(result.ok, true, result.content);
  // Writing one small file takes milliseconds; the answer came THINK_MS after the question.
  assert.ok(result.durationMs < THINK_MS, `the card said ${result.durationMs} ms for writing a.txt`);
});

test('plan mode is a read-only ceiling: writes are denied, reads still work', async () => {
  const env = await agentEnv({ files: { 'a.txt': 'A' } });
  env.server.script(
    {
      toolCalls: [
        { id: 'r', name: 'read_file', input: { path: 'a.txt' } },
        { id: 'w', name: 'write_file', input: { path: 'b.txt', content: 'B' } },
      ],
    },
    { text: 'Plan: 1. write b.txt' },
  );
  const chat = env.agent.newSession({ planMode: true });
  const evs = recorder(chat);
  await chat.send('make b.txt');
  const results = get(evs, 'tool_result');
  assert.deepEqual(
    results.map((r) => r.ok),
    [true, false],
  );
  assert.match(results[1]!.content, /plan mode is read-only/);
  assert.equal(get(evs, 'approval_requested').length, 0);
  const system = (env.server.requests[0]!.body.system as { text: string }[]).map((b) => b.text).join('\n');
  assert.match(system, /<plan_mode>/);
});

test('stop cancels a slow stream: the partial answer is kept, marked interrupted, and the turn ends cleanly', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'a long and slow answer', hang: true });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'text_delta') chat.stop();
  });
  const r = await chat.send('talk');
  assert.equal(r.reason, 'cancelled');
  const end = get(evs, 'assistant_end')[0]!;
  assert.equal(end.interrupted, true);
  assert.ok(r.text.length > 0);
  assert.equal(get(evs, 'error').length, 0, 'cancelling is not an error');
  // The session goes on after a stop.
  env.server.script({ text: 'back' });
  assert.equal((await chat.send('again')).text, 'back');
});

test('a provider failure ends the turn with one error line and the session stays usable', async () => {
  const env = await agentEnv();
  env.server.script({ status: 401 });
  const chat = env.agent.newSession();
  const r = await chat.send('hi');
  assert.equal(r.reason, 'error');
  assert.equal(r.error?.kind, 'auth');
  assert.doesNotMatch(r.error!.message, /sk-test-key/);
  env.server.script({ text: 'fine now' });
  assert.equal((await chat.send('hi again')).text, 'fine now');
});

test('ToolSearch finds a deferred tool for this session; the model loads a skill itself with Skill', async () => {
  const env = await agentEnv();
  env.server.script(
    {
      toolCalls: [
        { id: 's1', name: 'Skill', input: { name: 'code-review' } },
        { id: 't1', name: 'ToolSearch', input: { query: 'create a new skill' } },
      ],
    },
    { text: 'ready' },
  );
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  await chat.send('look at my changes');
  const loaded = get(evs, 'skill_loaded').find((e) => e.name === 'code-review');
  assert.equal(loaded?.reason, 'model');
  const found = get(evs, 'tools_discovered')[0];
  assert.ok(found?.names.includes('create_skill'), JSON.stringify(get(evs, 'tool_result')));
  const tools = (env.server.requests[1]!.body.tools as { name: string }[]).map((t) => t.name);
  assert.ok(tools.includes('create_skill'), 'a found tool is in the next request');
  const projection = await chat.projection();
  assert.ok(projection.some((p) => p.kind === 'skill' && p.name === 'code-review' && /model/.test(p.reason)));
  assert.ok(projection.some((p) => p.kind === 'tool' && p.name === 'create_skill' && /ToolSearch/.test(p.reason)));
});

test('stop while an approval is pending ends the turn cleanly: the approval is answered deny and the call is not run', async () => {
  const env = await agentEnv();
  env.server.script({ toolCalls: [{ id: 'w1', name: 'write_file', input: { path: 'never.txt', content: 'x' } }] });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.stop());
  });
  const r = await chat.send('write never.txt');
  assert.equal(r.reason, 'cancelled');
  assert.equal(get(evs, 'approval_answered')[0]?.answer, 'deny');
  assert.equal(chat.pendingApprovals().length, 0);
  const res = get(evs, 'tool_result')[0]!;
  assert.equal(res.ok, false);
  assert.equal(env.server.requests.length, 1, 'no further model call after the stop');
  // The next message works and the conversation sent to the model is valid (every tool_use has its result).
  env.server.script({ text: 'ok' });
  assert.equal((await chat.send('never mind')).text, 'ok');
  const msgs = env.server.requests[1]!.body.messages as { role: string; content: { type: string }[] }[];
  assert.ok(msgs.some((m) => m.content.some((b) => b.type === 'tool_result')));
});

test('an error event in the middle of a reply keeps the text so far, records one error line and ends the turn', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'half of an answer', failAfterChunks: 1, errorType: 'overloaded_error' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  const r = await chat.send('hi');
  assert.equal(r.reason, 'error');
  assert.equal(r.error?.kind, 'overloaded');
  assert.equal(get(evs, 'error').length, 1);
  const end = get(evs, 'assistant_end')[0]!;
  assert.equal(end.interrupted, true);
  assert.equal(r.text, 'half o');
});
