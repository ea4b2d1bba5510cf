// The ceiling changed while tools are in use (Settings, the workspace staying open): the registry offers what the new
// ceiling offers, and a call the user approved is judged again before it runs — an answer never outruns a narrower ceiling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import type { Decision, Gate } from '../../../main/core/policy/types.js';
import type { ToolDefinition } from '../../../main/core/tools/types.js';

const ctx = { workspace: '/tmp', actor: { kind: 'agent' as const, activeSkills: [] } };

function tool(name: string, runs: string[]): ToolDefinition<{ title: string }> {
  return {
    name,
    summary: 'A test tool.',
    description: 'A test tool.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' } },
      required: ['title'],
      additionalProperties: false,
    },
    deferLoading: false,
    risk: 'meta',
    access: () => ({}),
    handler: async (a) => {
      runs.push(a.title);
      return { ok: true, content: a.title };
    },
  };
}

test('a narrower tool list removes tools at once (a call is refused as not offered); widening it again brings them back', async () => {
  const runs: string[] = [];
  const reg = new ToolRegistry({ offered: ['keep', 'later'] });
  reg.registerAll([tool('keep', runs), tool('drop', runs), tool('later', runs)]);
  assert.deepEqual(
    reg.list().map((t) => t.def.name),
    ['keep', 'later'],
  );
  reg.setOffered(['*']);
  assert.deepEqual(
    reg.list().map((t) => t.def.name),
    ['drop', 'keep', 'later'],
    'a tool refused at open time is offered once the ceiling allows it',
  );
  reg.setOffered(['keep']);
  assert.deepEqual(
    reg.list().map((t) => t.def.name),
    ['keep'],
  );
  const ex = new ToolExecutor({
    registry: reg,
    gate: { authorize: () => ({ verdict: 'allow', reason: 'test allows' }) },
  });
  const r = await ex.execute('later', { title: 'x' }, ctx);
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'tool.denied');
    assert.match(r.error.message, /not offered in this workspace/);
  }
  assert.deepEqual(runs, []);
  assert.equal((await ex.execute('never_registered', {}, ctx)).ok ? 'ran' : 'refused', 'refused');
});

test('a held tool goes with its source: a connector that went away does not come back when the ceiling widens', () => {
  const reg = new ToolRegistry({ offered: ['keep'] });
  reg.registerAll([tool('mcp__gh__issue', [])], 'mcp:gh');
  reg.unregisterSource('mcp:gh');
  reg.setOffered(['*']);
  assert.equal(reg.has('mcp__gh__issue'), false);
});

test('a call approved after the ceiling narrowed is judged again and does not run', async () => {
  const runs: string[] = [];
  const reg = new ToolRegistry();
  reg.register(tool('write_thing', runs));
  let narrowed = false;
  const gate: Gate = {
    authorize: (): Decision =>
      narrowed
        ? { verdict: 'deny', reason: 'the ceiling no longer allows it' }
        : { verdict: 'ask', reason: 'writes ask' },
  };
  const decisions: string[] = [];
  const ex = new ToolExecutor({
    registry: reg,
    gate,
    // The user is slow: the ceiling is narrowed while the question waits, then the user says yes.
    approver: async () => {
      narrowed = true;
      return 'once';
    },
    onDecision: (_c, d) => decisions.push(d.verdict),
  });
  const r = await ex.execute('write_thing', { title: 'late' }, ctx);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.error.message, /no longer allows it/);
  assert.deepEqual(runs, []);
  assert.deepEqual(decisions, ['ask', 'deny']);
  // Unchanged policy: the approved call runs as before.
  narrowed = false;
  const ok = new ToolExecutor({ registry: reg, gate, approver: async () => 'once' });
  assert.deepEqual(await ok.execute('write_thing', { title: 'fine' }, ctx), { ok: true, content: 'fine' });
});
