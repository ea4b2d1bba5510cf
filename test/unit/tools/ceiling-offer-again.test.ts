// A tool the ceiling stops offering and offers again comes back as it was registered: an imported catalog tool stays
// lazy (its schema compiled at its first call, a bad one reported then), so a save in Settings never drops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry, type AnyTool } from '../../../main/core/tools/registry.js';

const tool = (name: string, inputSchema: Record<string, unknown>): AnyTool =>
  ({
    name,
    summary: name,
    description: name,
    inputSchema,
    deferLoading: true,
    risk: 'meta',
    access: () => ({}),
    handler: async () => ({ ok: true, content: 1 }),
  }) as unknown as AnyTool;

test('an imported tool taken out by the ceiling and offered again is back, still lazy', () => {
  const reg = new ToolRegistry();
  const bad = tool('cat_bad', { type: 'object', properties: { a: { type: 'nosuchtype' } } });
  const good = tool('cat_good', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
  assert.deepEqual(reg.registerAll([bad, good], 'catalog', { lazy: true }), []);
  const before = reg.get('cat_good');
  assert.deepEqual(reg.setOffered(['read_file']), []);
  assert.equal(reg.has('cat_bad'), false);
  assert.ok(reg.notOffered.has('cat_bad'));
  assert.deepEqual(reg.setOffered(['*']), [], 'offering it again reports nothing: its schema is still not compiled');
  assert.equal(reg.has('cat_bad'), true);
  assert.equal(reg.notOffered.has('cat_bad'), false);
  // Its bad schema surfaces at its call, as it did before the ceiling changed.
  assert.equal(reg.get('cat_bad')!.validate({ a: 1 })[0]?.field, '(schema)');
  // The good one is the same registration, and validates as before.
  assert.equal(reg.get('cat_good'), before);
  assert.equal(reg.get('cat_good')!.validate({})[0]?.field, 'a');
});
