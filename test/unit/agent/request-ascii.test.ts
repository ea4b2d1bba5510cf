// Knack's own prompt text (instructions, every tool's description and schema) is ASCII, so a request over ASCII
// skills is a one-byte string: V8 serialises, checks and encodes it about twice as fast as a two-byte one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentEnv } from '../../helpers/agent-env.js';
import { BASE_SYSTEM, PLAN_MODE_NOTE } from '../../../main/core/agent/prompt.js';

const nonAscii = (s: string): string[] =>
  [...s.matchAll(/[^\x00-\x7f]/g)].map(
    (m) => `${JSON.stringify(m[0])} in …${s.slice(Math.max(0, m.index - 40), m.index + 10)}…`,
  );

test('the request for a workspace of ASCII skills is pure ASCII: no typographic quote or dash from Knack itself', async () => {
  const env = await agentEnv();
  env.server.script({ text: 'ok' });
  const chat = env.agent.newSession();
  await chat.send('hello');
  const body = JSON.stringify(env.server.requests[0]!.body);
  assert.deepEqual(nonAscii(body), []);
  // Every tool's text too, deferred ones included (they enter the request once discovered).
  const box = await env.ws.toolbox();
  for (const t of box.registry.list()) {
    assert.deepEqual(
      nonAscii(JSON.stringify({ description: t.def.description, summary: t.def.summary, schema: t.def.inputSchema })),
      [],
      t.def.name,
    );
  }
  assert.deepEqual(nonAscii(BASE_SYSTEM + PLAN_MODE_NOTE), []);
});
