// The prompt's parts that do not depend on the conversation are kept and shared by a workspace's chats: each chat's
// request still carries its own plan mode, loaded skills and found tools, however the chats' turns interleave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import { PLAN_MODE_NOTE } from '../../../main/core/agent/prompt.js';

type Sent = { system: { text: string }[]; tools?: { name: string }[] };

test('chats that share the kept prompt parts each send their own plan mode, loaded skills and tools', async () => {
  const env = await agentEnv();
  const a = env.agent.newSession();
  const b = env.agent.newSession();
  await Promise.all([a.ready(), b.ready()]);
  const sent = async (chat: typeof a, text: string): Promise<{ dynamic: string; tools: string[]; skills: number }> => {
    env.server.script({ text: 'ok' });
    await chat.send(text);
    const body = env.server.requests.at(-1)!.body as unknown as Sent;
    return {
      dynamic: body.system
        .slice(1)
        .map((s) => s.text)
        .join('\n'),
      tools: (body.tools ?? []).map((t) => t.name),
      skills: (await chat.contextSections()).skills,
    };
  };
  const plain = await sent(b, 'hello');
  a.setPlanMode(true);
  const planned = await sent(a, 'hello');
  assert.ok(planned.dynamic.includes(PLAN_MODE_NOTE) && !plain.dynamic.includes(PLAN_MODE_NOTE));
  assert.ok(!(await sent(b, 'hello again')).dynamic.includes(PLAN_MODE_NOTE), 'b is not in plan mode after a was');
  // A skill loaded by a's message is in a's next request only.
  const loaded = await sent(a, '/git-commit please');
  assert.ok(loaded.dynamic.includes('<skill name="git-commit"') && loaded.skills > 0, loaded.dynamic);
  const other = await sent(b, 'and now?');
  assert.ok(!other.dynamic.includes('<loaded_skills>') && other.skills === 0, other.dynamic);
  assert.ok((await sent(a, 'still there?')).dynamic.includes('<skill name="git-commit"'));
  // Plan mode off again: a's request has the skill and no plan note.
  a.setPlanMode(false);
  const after = await sent(a, 'go on');
  assert.ok(after.dynamic.includes('<skill name="git-commit"') && !after.dynamic.includes(PLAN_MODE_NOTE));
  assert.deepEqual(after.tools, plain.tools);
});
