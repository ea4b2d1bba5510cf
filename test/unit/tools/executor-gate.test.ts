import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../../main/core/tools/approval.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';

function setup(answer: ApprovalAnswer) {
  const ws = tempDir();
  const outside = tempDir();
  writeFileSync(join(outside, 'secret.txt'), 'top secret');
  writeFileSync(join(ws, 'notes.txt'), 'hello');
  mkdirSync(join(ws, 'sub'));
  symlinkSync(outside, join(ws, 'sub', 'escape'));
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const { gate } = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] });
  const asked: ApprovalRequest[] = [];
  const ex = new ToolExecutor({ registry, gate, approver: async (r) => (asked.push(r), answer) });
  return { ws, outside, ex, asked, ctx: { workspace: ws, actor: { kind: 'agent' as const, activeSkills: [] } } };
}

test('the real gate lets the agent read inside the workspace and denies a symlink that escapes it', async () => {
  const { ex, ctx } = setup('once');
  const ok = await ex.execute('read_file', { path: 'notes.txt' }, ctx);
  assert.equal(ok.ok, true);
  const esc = await ex.execute('read_file', { path: 'sub/escape/secret.txt' }, ctx);
  assert.equal(!esc.ok && esc.error.code, 'tool.denied');
  assert.match(!esc.ok ? esc.error.message : '', /symlink|outside/);
});

test('bash always goes to the approver; a declined command does not run', async () => {
  const { ws, ex, ctx, asked } = setup('deny');
  const r = await ex.execute('bash', { command: 'touch ran.txt' }, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.declined');
  assert.equal(asked.length, 1);
  assert.equal(asked[0]!.access.command, 'touch ran.txt');
  const { existsSync } = await import('node:fs');
  assert.equal(existsSync(join(ws, 'ran.txt')), false);
});

test('an approved bash command runs in the workspace', async () => {
  const { ex, ctx, ws } = setup('once');
  const r = await ex.execute('bash', { command: 'pwd' }, ctx);
  assert.equal(r.ok, true);
  assert.equal(r.ok && (r.content as { stdout: string }).stdout.trim(), ws);
});

test('a write outside the workspace is denied before the tool runs', async () => {
  const { ex, ctx, outside } = setup('once');
  const r = await ex.execute('write_file', { path: join(outside, 'x.txt'), content: 'x' }, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.denied');
  const { existsSync } = await import('node:fs');
  assert.equal(existsSync(join(outside, 'x.txt')), false);
});

test('a gate that throws never lets the call through', async () => {
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const ex = new ToolExecutor({
    registry,
    gate: {
      authorize: () => {
        throw new Error('boom');
      },
    },
  });
  const r = await ex.execute('list_dir', {}, { workspace: '/tmp', actor: { kind: 'user' } });
  assert.equal(!r.ok && r.error.code, 'tool.denied');
});
