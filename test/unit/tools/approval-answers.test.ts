// The approver answers once | always | deny. "Always" from a prompt is stored as a reusable rule and honoured at the
// next call (no second question); "once" and "deny" store nothing. Real store, real gate, real tools.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../../main/core/tools/approval.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { Store } from '../../../main/core/store/index.js';
import type { Decision } from '../../../main/core/policy/types.js';

function setup(answer: ApprovalAnswer, withStore = true) {
  const ws = tempDir();
  const store = withStore ? Store.openIn(tempDir()) : undefined;
  if (store) after(() => store.close());
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const { gate } = buildGate({
    settings: structuredClone(DEFAULT_SETTINGS),
    workspace: ws,
    ...(store ? { store } : {}),
    skills: [],
  });
  const asked: ApprovalRequest[] = [];
  const decisions: [string, Decision['verdict'], boolean | undefined, ApprovalAnswer | undefined][] = [];
  const ex = new ToolExecutor({
    registry,
    gate,
    approver: async (r) => (asked.push(r), answer),
    ...(store ? { rules: store.policy } : {}),
    onDecision: (call, d, approved, a) => decisions.push([call.tool, d.verdict, approved, a]),
  });
  return {
    ws,
    store,
    ex,
    asked,
    decisions,
    ctx: { workspace: ws, actor: { kind: 'agent' as const, activeSkills: [] } },
  };
}

test('"always allow" from a prompt stores a rule, and the next identical call is allowed without asking', async () => {
  const { ws, store, ex, asked, decisions, ctx } = setup('always');
  const write = { path: 'notes/today.md', content: 'first' };
  assert.equal((await ex.execute('write_file', write, ctx)).ok, true);
  assert.equal(asked.length, 1, 'the first write is asked about');
  assert.equal(store!.policy.rules().length, 1);
  assert.equal(store!.policy.rules()[0]!.effect, 'allow');

  assert.equal((await ex.execute('write_file', { ...write, content: 'second' }, ctx)).ok, true);
  assert.equal(asked.length, 1, 'the identical call is not asked again');
  assert.equal(readFileSync(join(ws, 'notes/today.md'), 'utf8'), 'second');
  assert.deepEqual(decisions, [
    ['write_file', 'ask', true, 'always'],
    ['write_file', 'allow', undefined, undefined],
  ]);
});

test('"always" for a command is kept as a command-prefix rule that covers the next run of it', async () => {
  const { store, ex, asked, ctx } = setup('always');
  assert.equal((await ex.execute('bash', { command: 'git --version' }, ctx)).ok, true);
  assert.equal((await ex.execute('bash', { command: 'git --version' }, ctx)).ok, true);
  assert.equal(asked.length, 1);
  assert.equal(store!.policy.rules()[0]!.command !== undefined, true);
});

test('"once" runs the call and stores nothing: the next identical call is asked again', async () => {
  const { store, ex, asked, ctx } = setup('once');
  await ex.execute('write_file', { path: 'a.txt', content: 'x' }, ctx);
  await ex.execute('write_file', { path: 'a.txt', content: 'y' }, ctx);
  assert.equal(asked.length, 2);
  assert.deepEqual(store!.policy.rules(), []);
});

test('"deny" does not run the call and stores nothing', async () => {
  const { ws, store, ex, decisions, ctx } = setup('deny');
  const r = await ex.execute('write_file', { path: 'a.txt', content: 'x' }, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.declined');
  assert.equal(existsSync(join(ws, 'a.txt')), false);
  assert.deepEqual(store!.policy.rules(), []);
  assert.deepEqual(decisions, [['write_file', 'ask', false, 'deny']]);
});

test('without a rule store "always" allows this call only', async () => {
  const { ex, asked, ctx } = setup('always', false);
  await ex.execute('write_file', { path: 'a.txt', content: 'x' }, ctx);
  await ex.execute('write_file', { path: 'a.txt', content: 'y' }, ctx);
  assert.equal(asked.length, 2);
});

test('an approver answering anything but once/always counts as deny', async () => {
  const { ex, ctx } = setup('yes' as ApprovalAnswer);
  const r = await ex.execute('write_file', { path: 'a.txt', content: 'x' }, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.declined');
});
