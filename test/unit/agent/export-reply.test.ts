// A reply exported to Markdown is one block, whatever bookkeeping the log has in its middle: a turn's context counts
// are recorded right after its first text piece is shown, so they can sit between two pieces of the same reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import { exportSession } from '../../../main/core/agent/export.js';
import type { AgentEvent, AgentEventBody } from '../../../main/core/agent/types.js';
import type { SessionRow } from '../../../main/core/store/session-repo.js';

const row: SessionRow = {
  id: 's1',
  workspace: '/w',
  title: 'pieces',
  provider: 'anthropic',
  model: 'm',
  createdAt: 0,
  updatedAt: 0,
  events: 0,
  messages: 2,
};
const sections = { system: 10, catalog: 5, skills: 0, tools: 20, history: 3, observations: 0, total: 38, window: 1000 };
const usage = { inputTokens: 38, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 };

function log(bodies: AgentEventBody[]): AgentEvent[] {
  return bodies.map((b, i) => ({ ...b, seq: i + 1, at: i, sessionId: 's1' }) as AgentEvent);
}

test('a reply whose context counts came after its first piece is exported as one block, its spacing kept', () => {
  const md = exportSession(
    row,
    log([
      { type: 'user_message', text: 'what is 1 + 1?' },
      { type: 'assistant_start', step: 1, provider: 'anthropic', model: 'm' },
      { type: 'text_delta', text: 'The answer ' },
      { type: 'context', sections },
      { type: 'text_delta', text: 'is 2.' },
      { type: 'usage', usage, total: usage },
      { type: 'assistant_end', stopReason: 'end_turn' },
      { type: 'turn_end', reason: 'end_turn', steps: 1, toolCalls: 0 },
    ] as AgentEventBody[]),
    'md',
  );
  assert.equal(md.match(/\*\*Assistant:\*\*/g)?.length, 1, md);
  assert.match(md, /The answer is 2\./);
  assert.match(md, /38 in/, 'the turn still reports its usage');
});

test('every reply of a real conversation is one block in the export, however its pieces and its counts interleave', async () => {
  const env = await agentEnv();
  const chat = env.agent.newSession();
  await chat.ready();
  const n = 6;
  for (let i = 0; i < n; i++) {
    env.server.script({ chunks: [`Reply ${i} `, 'comes in ', 'several pieces.'] });
    const r = await chat.send(`question ${i}`);
    assert.equal(r.reason, 'end_turn', JSON.stringify(r));
  }
  const md = env.agent.exportSession(chat.id, 'md');
  assert.equal(md.match(/\*\*Assistant:\*\*/g)?.length, n, md);
  for (let i = 0; i < n; i++) assert.match(md, new RegExp(`Reply ${i} comes in several pieces\\.`));
});
