// Knack's own tools declare their arguments once, in zod; the JSON Schema the providers receive is derived from it.
// Pinned here: every derived schema says what the hand-written one said (test/fixtures/tool-schemas/before-zod.json,
// recorded before the move), is an object schema Anthropic and OpenAI take as a tool's parameters, and agrees with the
// zod check of the same tool on what a call may send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { everyTool } from './every-tool.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';

const before = JSON.parse(
  readFileSync(new URL('../../fixtures/tool-schemas/before-zod.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>>;

/**
 * What zod adds that says nothing new: the safe-integer bound of an integer with no bound of its own, `propertyNames`
 * of string keys, and the `additionalProperties: {}` / `properties: {}` of an object that takes any field. And what
 * the move changed on purpose: Skill's name is checked by the loader, not by an enum of every skill.
 */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => normalize(x));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'maximum' && x === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'minimum' && x === Number.MIN_SAFE_INTEGER) continue;
    if (k === 'propertyNames' && JSON.stringify(x) === '{"type":"string"}') continue;
    if ((k === 'additionalProperties' || k === 'properties') && JSON.stringify(x) === '{}') continue;
    out[k] = normalize(x);
  }
  return out;
}

test('every tool Knack declares derives the JSON Schema it declared by hand before', () => {
  const tools = everyTool();
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(before).sort());
  for (const t of tools) {
    assert.ok(t.input, `${t.name} is declared with a zod schema`);
    const expected = structuredClone(before[t.name]!);
    if (t.name === 'Skill')
      (expected.properties as Record<string, unknown>).name = {
        type: 'string',
        minLength: 1,
        description: 'The skill name, exactly as listed in <available_skills> or returned by SkillSearch.',
      };
    assert.deepEqual(normalize(t.inputSchema), normalize(expected), t.name);
  }
});

test('every derived schema is a tool definition Anthropic and OpenAI take', () => {
  const ajv = new Ajv({ strict: true, strictRequired: true, allowUnionTypes: true });
  for (const t of everyTool()) {
    const s = t.inputSchema;
    // Anthropic's input_schema and OpenAI's parameters: an object schema at the top, no draft marker or references.
    assert.equal(s.type, 'object', t.name);
    assert.equal(s.additionalProperties, false, `${t.name} refuses unknown fields`);
    for (const k of ['$schema', '$id', '$ref', '$defs', 'definitions', 'anyOf', 'oneOf', 'allOf'])
      assert.ok(!(k in s), `${t.name} has no ${k}`);
    const props = s.properties as Record<string, unknown>;
    for (const r of (s.required as string[] | undefined) ?? []) assert.ok(r in props, `${t.name}: ${r} is a property`);
    assert.doesNotThrow(() => ajv.compile(s), t.name);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), s, `${t.name} is plain JSON`);
  }
});

test('the JSON Schema the model reads and the zod check agree on the calls they accept and refuse', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const registry = new ToolRegistry();
  const tools = everyTool();
  registry.registerAll(tools);
  const calls: Record<string, unknown[]> = {
    read_file: [{ path: 'a' }, { path: '' }, { path: 'a', offset: 0 }, { path: 'a', limit: 2.5 }, { path: 'a', x: 1 }],
    grep: [
      { pattern: 'x', max_results: 2000 },
      { pattern: 'x', max_results: 2001 },
      { pattern: 'x', path: 3 },
    ],
    bash: [
      { command: 'ls', timeout_ms: 100 },
      { command: 'ls', timeout_ms: 99 },
      { command: 'ls', sandbox: 'no' },
    ],
    DeferExecuteTool: [
      { name: 'x', arguments: {} },
      { name: 'x', arguments: [] },
      { name: 'x', arguments: 'y' },
    ],
    create_skill: [
      { name: 'my-skill', description: 'd', instructions: 'i', files: { 'references/a.md': 'a' } },
      { name: 'My Skill', description: 'd', instructions: 'i' },
      { name: 'my-skill', description: 'd', instructions: 'i', files: { 'references/a.md': 1 } },
      { name: 'my-skill', description: '', instructions: 'i' },
    ],
    list_skills: [{}, { tier: 'user' }, { tier: 'other' }],
    SkillSearch: [{ query: 'q' }, { query: 'q', limit: 51 }],
    Skill: [{ name: 'anything' }, { name: '' }, {}],
    run_skill_script: [
      { skill: 's', script: 'x.mjs', args: { a: 1 } },
      { skill: 's', script: 'x.mjs', args: [1] },
    ],
  };
  for (const t of tools) {
    const schemaSays = ajv.compile(t.inputSchema);
    for (const call of [null, 'text', [], ...(calls[t.name] ?? [])]) {
      const zodSays = registry.validate(t.name, call).length === 0;
      assert.equal(zodSays, schemaSays(call), `${t.name} ${JSON.stringify(call)}`);
    }
  }
});

test('a wrong call is answered field by field, in the words the model is told for any tool', () => {
  const registry = new ToolRegistry();
  registry.registerAll(everyTool());
  assert.deepEqual(registry.validate('read_file', { path: 3, offset: 0, limit: 1.5, extra: true }), [
    { field: 'path', message: 'must be string' },
    { field: 'offset', message: 'must be >= 1' },
    { field: 'limit', message: 'must be integer' },
    { field: 'extra', message: 'is not a known parameter' },
  ]);
  assert.deepEqual(registry.validate('edit_file', { path: 'a' }), [
    { field: 'old_string', message: 'is required' },
    { field: 'new_string', message: 'is required' },
  ]);
  assert.deepEqual(
    registry.validate('create_skill', { name: 'A', description: 'd', instructions: 'i', files: { a: 1 } }),
    [
      { field: 'name', message: 'must match pattern /^[a-z0-9]+(-[a-z0-9]+)*$/' },
      { field: 'files.a', message: 'must be string' },
    ],
  );
  assert.deepEqual(registry.validate('list_skills', { tier: 'x' }), [
    { field: 'tier', message: 'must be one of "builtin", "user", "project"' },
  ]);
  assert.deepEqual(registry.validate('grep', { pattern: '' }), [
    { field: 'pattern', message: 'must have at least 1 character' },
  ]);
  assert.deepEqual(registry.validate('bash', 'ls'), [{ field: '(arguments)', message: 'must be object' }]);
});
