// The prompt's cheap upper bound (what lets a turn skip counting its new message before the request) is never
// below the counted total, for messages in any script, with tool calls and results, as a conversation grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MessageTokens } from '../../../main/core/agent/prompt.js';
import type { ChatMessage } from '../../../main/core/agent/providers/types.js';
import { agentEnv } from '../../helpers/agent-env.js';

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.constantFrom('hello', '帮我提交代码', 'naïve café ☕', '🙂🙂🙂', '', 'x'.repeat(300)),
);
const message: fc.Arbitrary<ChatMessage> = fc.oneof(
  text.map((t) => ({ role: 'user' as const, text: t })),
  fc
    .record({
      text,
      calls: fc.array(fc.record({ id: fc.string(), name: fc.constantFrom('read_file', 'bash'), arguments: text }), {
        maxLength: 2,
      }),
    })
    .map(({ text: t, calls }) => ({ role: 'assistant' as const, text: t, toolCalls: calls })),
  fc
    .array(fc.record({ callId: fc.string(), name: fc.constant('read_file'), content: text, isError: fc.boolean() }), {
      minLength: 1,
      maxLength: 2,
    })
    .map((results) => ({ role: 'tool' as const, results })),
);

test('the bound of a conversation is never below its counted tokens, however much of it was counted before', () => {
  fc.assert(
    fc.property(fc.array(message, { maxLength: 12 }), fc.nat(12), (ms, countedUpTo) => {
      const t = new MessageTokens();
      // Some prefix was counted earlier (an earlier turn's context); the rest is new.
      t.conversation(ms, Math.min(countedUpTo, ms.length));
      const bound = t.conversationAtMost(ms);
      const exact = new MessageTokens().conversation(ms);
      assert.ok(bound >= exact.history + exact.observations, `${bound} < ${exact.history + exact.observations}`);
      // And once counted, the bound is exact.
      const counted = t.conversation(ms);
      assert.equal(t.conversationAtMost(ms), counted.history + counted.observations);
    }),
    { numRuns: 300 },
  );
});

test('a turn records the same context counts as before, counted once the start of the turn is shown, and a prompt near the window still compacts', async () => {
  const env = await agentEnv({ contextWindow: 6_000, agent: { maxTokens: 500, compactAt: 0.8 } });
  const chat = env.agent.newSession();
  env.server.script({ text: 'first answer' });
  await chat.send('帮我看看这个文件夹里有什么');
  const ctx = chat
    .events()
    .filter((e) => e.type === 'context')
    .at(-1)!;
  assert.ok(ctx.type === 'context');
  // The recorded history is the user's message exactly as counted (not the reply that started after it).
  const alone = new MessageTokens().conversation([{ role: 'user', text: '帮我看看这个文件夹里有什么' }]);
  assert.equal(ctx.sections.history, alone.history);
  assert.equal(ctx.sections.observations, 0);
  const { system, catalog, skills, tools, history, observations } = ctx.sections;
  assert.equal(ctx.sections.total, system + catalog + skills + tools + history + observations);
  // A long new message (not counted before its turn) pushes the prompt past the window's share: the turn still
  // compacts before its request, since the bound is above the limit and the exact count is taken then.
  env.server.script({ text: 'The user asked what is in the folder.' }, { text: 'second answer' });
  const r = await chat.send('word '.repeat(3000));
  assert.equal(r.text, 'second answer');
  assert.ok(
    chat.events().some((e) => e.type === 'compaction'),
    'compacted',
  );
  assert.equal(env.server.requests.length, 3);
});
