// End to end through the agent and the fake Anthropic server: an "always" answered while a skill is loaded stores
// exactly the rule its preview showed (scoped `loaded:` to that skill's identity), and the next call is decided by
// that stored rule without asking — while the skill is loaded, and only then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { agentEnv, recorder } from '../../helpers/agent-env.js';
import { skillMd } from '../../helpers/tmp.js';
import { describeRule, LOADED_PREFIX } from '../../../main/core/policy/rules.js';
import type { AgentEvent } from '../../../main/core/agent/types.js';

const get = <T extends AgentEvent['type']>(evs: AgentEvent[], type: T) =>
  evs.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

// A project skill that may write notes: while a chat has it loaded, a write inside its manifest still asks.
const files = {
  '.workbuddy/skills/note-taker/SKILL.md': skillMd(
    {
      name: 'note-taker',
      description: 'Writes my notes. Use when asked to take a note.',
      read_when: ['take a note'],
      permissions: { tools: ['write_file'], paths: { write: ['notes/**'] } },
    },
    '# Notes\n\nWrite each note under notes/.\n',
  ),
};
const write = (id: string, path: string, content: string) => ({
  toolCalls: [{ id, name: 'write_file', input: { path, content } }],
});

test('"always" with a skill loaded stores the rule its preview showed (loaded: scope); the next call is allowed by it', async () => {
  const env = await agentEnv({ files });
  await env.ws.catalog.settled();
  const policy = env.ws.store!.policy;
  const before = new Set(policy.rules().map((r) => r.id));
  env.server.script(write('w1', 'notes/a.md', 'first'), { text: 'noted' });
  const chat = env.agent.newSession();
  const evs = recorder(chat);
  chat.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => chat.answer(e.approvalId, { kind: 'always' }));
  });
  assert.equal((await chat.send('please take a note')).reason, 'end_turn');
  assert.deepEqual(
    get(evs, 'skill_loaded').map((e) => e.name),
    ['note-taker'],
  );

  // What the user was shown, what the session recorded as stored, and what the rule store holds are the same rules.
  const asked = get(evs, 'approval_requested');
  assert.equal(asked.length, 1);
  const preview = asked[0]!.alwaysPreview;
  assert.equal(preview.length, 1, preview.join('\n'));
  assert.deepEqual(get(evs, 'approval_answered')[0]!.rules, preview);
  const stored = policy.rules().filter((r) => !before.has(r.id));
  assert.deepEqual(stored.map(describeRule), preview);
  assert.equal(stored[0]!.effect, 'allow');
  assert.equal(stored[0]!.tool, 'write_file');
  const skillDir = realpathSync(join(env.workspace, '.workbuddy', 'skills', 'note-taker'));
  assert.ok(stored[0]!.skill?.startsWith(LOADED_PREFIX), stored[0]!.skill);
  assert.ok(stored[0]!.skill!.includes(`note-taker@project:${skillDir}`), stored[0]!.skill);
  assert.equal(readFileSync(join(env.workspace, 'notes', 'a.md'), 'utf8'), 'first');

  // A second write in the same chat (the skill still loaded): no question, decided by the stored rule.
  env.server.script(write('w2', 'notes/b.md', 'second'), { text: 'noted again' });
  await chat.send('and another one');
  assert.equal(get(evs, 'approval_requested').length, 1, 'not asked again');
  const second = get(evs, 'gate_decision').filter((d) => d.callId === 'w2');
  assert.deepEqual(
    second.map((d) => d.verdict),
    ['allow'],
  );
  assert.equal(second[0]!.ruleId, stored[0]!.id);
  assert.equal(get(evs, 'tool_result').find((r) => r.callId === 'w2')?.ok, true);
  assert.equal(readFileSync(join(env.workspace, 'notes', 'b.md'), 'utf8'), 'second');

  // The rule holds only while that skill is loaded: a chat without it is asked again.
  const other = env.agent.newSession();
  const evs2 = recorder(other);
  other.on((e) => {
    if (e.type === 'approval_requested') setImmediate(() => other.answer(e.approvalId, { kind: 'deny' }));
  });
  env.server.script(write('w3', 'notes/c.md', 'third'), { text: 'refused' });
  await other.send('write notes/c.md');
  assert.deepEqual(get(evs2, 'skill_loaded'), []);
  assert.equal(get(evs2, 'approval_requested').length, 1, 'asked: the loaded: rule does not apply without the skill');
  assert.deepEqual(get(evs2, 'approval_requested')[0]!.alwaysPreview, [
    describeRule({ effect: 'allow', tool: 'write_file', workspace: stored[0]!.workspace! }),
  ]);
});
