import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import type { Gate } from '../../../main/core/policy/types.js';
import type { ToolDefinition } from '../../../main/core/tools/types.js';

const allowAll: Gate = { authorize: () => ({ verdict: 'allow', reason: 'test allows' }) };
const ctx = { workspace: '/tmp', actor: { kind: 'agent' as const, activeSkills: [] } };

function tool(name: string, runs: string[], deferLoading = false): ToolDefinition<{ title: string; count?: number }> {
  return {
    name,
    summary: 'A test tool.',
    description: 'A test tool.',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        count: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['title'],
      additionalProperties: false,
    },
    deferLoading,
    risk: 'meta',
    access: () => ({}),
    handler: async (a) => {
      runs.push(a.title);
      return { ok: true, content: a.title };
    },
  };
}

test('invalid arguments come back as a structured error naming each field, and the tool does not run', async () => {
  const runs: string[] = [];
  const reg = new ToolRegistry();
  reg.register(tool('make_thing', runs));
  const ex = new ToolExecutor({ registry: reg, gate: allowAll });
  const r = await ex.execute('make_thing', { count: 0, tags: ['a', 3], extra: true }, ctx);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, 'tool.invalid_args');
  const fields = (r.error.details as { problems: { field: string }[] }).problems.map((p) => p.field).sort();
  assert.deepEqual(fields, ['count', 'extra', 'tags[1]', 'title']);
  assert.match(r.error.message, /title: is required/);
  assert.deepEqual(runs, []);
  const good = await ex.execute('make_thing', { title: 'x' }, ctx);
  assert.deepEqual(good, { ok: true, content: 'x' });
});

test('names are unique and must be callable', () => {
  const reg = new ToolRegistry();
  reg.register(tool('a_tool', []));
  assert.throws(() => reg.register(tool('a_tool', [])), /already registered/);
  assert.throws(() => reg.register(tool('has space', [])), /invalid/);
  assert.throws(
    () => reg.register({ ...tool('bad_schema', []), inputSchema: { type: 'nonsense' } }),
    /invalid input schema/,
  );
});

test('settings decide deferral: patterns defer extra tools, alwaysLoaded wins over a default', () => {
  const reg = new ToolRegistry({ deferred: ['rare_*'], alwaysLoaded: ['mcp__gh__create_issue'] });
  reg.register(tool('rare_thing', []));
  reg.register(tool('common', []));
  reg.register(tool('mcp__gh__create_issue', [], true));
  reg.register(tool('mcp__gh__list', [], true));
  assert.deepEqual(
    reg.list({ deferred: true }).map((t) => t.def.name),
    ['mcp__gh__list', 'rare_thing'],
  );
});

test('an unknown tool and a non-object argument are structured errors', async () => {
  const ex = new ToolExecutor({ registry: new ToolRegistry(), gate: allowAll });
  const r = await ex.execute('nope', {}, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.unknown');
  const reg = new ToolRegistry();
  reg.register(tool('t', []));
  const r2 = await new ToolExecutor({ registry: reg, gate: allowAll }).execute('t', [1, 2], ctx);
  assert.equal(!r2.ok && r2.error.code, 'tool.invalid_args');
});

test('a lazily compiled catalog schema that is broken fails on call, not at registration', async () => {
  const reg = new ToolRegistry();
  reg.register(
    { ...tool('lazy', []), inputSchema: { type: 'object', properties: { a: { type: 'wrong' } } } },
    'catalog',
    { lazy: true },
  );
  const r = await new ToolExecutor({ registry: reg, gate: allowAll }).execute('lazy', {}, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.schema');
});

test('tools the ceiling does not offer are never registered, so they cannot be found or called', () => {
  const reg = new ToolRegistry({ offered: ['read_file', 'mcp__gh__*'] });
  assert.ok(reg.register(tool('read_file', [])));
  assert.equal(reg.register(tool('bash', [])), undefined);
  assert.ok(reg.register(tool('mcp__gh__list', [], true)));
  assert.ok(reg.register(tool('ToolSearch', [])));
  assert.deepEqual(
    reg.list().map((t) => t.def.name),
    ['mcp__gh__list', 'read_file', 'ToolSearch'],
  );
  assert.deepEqual([...reg.notOffered], ['bash']);
});

test('many values against a pattern that backtracks cannot multiply the freeze: once it runs out of time in a call, it is not run again in that call', async () => {
  const runs: string[] = [];
  const reg = new ToolRegistry();
  reg.register({
    ...tool('slow_items', runs),
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } },
      required: ['title'],
    },
  });
  const ex = new ToolExecutor({ registry: reg, gate: allowAll });
  const started = Date.now();
  // A hostile model's arguments: 100 values, each of which would take the pattern's whole time limit (twice).
  const r = await ex.execute(
    'slow_items',
    { title: 't', tags: Array.from({ length: 100 }, () => `${'a'.repeat(40)}!`) },
    ctx,
  );
  assert.equal(!r.ok && r.error.code, 'tool.invalid_args');
  assert.match(!r.ok ? r.error.message : '', /tags\[0\]: .*too long/);
  assert.deepEqual(runs, []);
  assert.ok(Date.now() - started < 10_000, 'one pattern time-out per call, not one per value');
});

test('a schema pattern that backtracks without end (from a connector or catalog) cannot freeze validation', async () => {
  const runs: string[] = [];
  const reg = new ToolRegistry();
  reg.register({
    ...tool('slow_pattern', runs),
    inputSchema: { type: 'object', properties: { title: { type: 'string', pattern: '^(a+)+$' } }, required: ['title'] },
  });
  const ex = new ToolExecutor({ registry: reg, gate: allowAll });
  const started = Date.now();
  const r = await ex.execute('slow_pattern', { title: `${'a'.repeat(40)}!` }, ctx);
  assert.equal(!r.ok && r.error.code, 'tool.invalid_args');
  assert.match(!r.ok ? r.error.message : '', /title: .*too long/);
  assert.deepEqual(runs, []);
  assert.ok(Date.now() - started < 10_000);
  const fine = await ex.execute('slow_pattern', { title: 'aaa' }, ctx);
  assert.equal(fine.ok, true);
  const bad = await ex.execute('slow_pattern', { title: 'b' }, ctx);
  assert.match(!bad.ok ? bad.error.message : '', /title: must match pattern/);
});
