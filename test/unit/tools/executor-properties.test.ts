import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { ToolSearchIndex } from '../../../main/core/tools/tool-search.js';

test('random arguments to every built-in never throw: always a structured result, and bash never runs unapproved', async () => {
  const ws = tempDir();
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const { gate } = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] });
  const ex = new ToolExecutor({ registry, gate });
  const names = registry.list().map((t) => t.def.name);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...names), fc.anything(), async (name, args) => {
      const r = await ex.execute(name, args, { workspace: ws, actor: { kind: 'agent', activeSkills: [] } });
      assert.equal(typeof r.ok, 'boolean');
      if (!r.ok) assert.equal(typeof r.error.message, 'string');
      if (name === 'bash') assert.equal(r.ok, false);
    }),
    { numRuns: 300 },
  );
});

test('ToolSearch answers any query string with a ranked list, never a throw', () => {
  const idx = new ToolSearchIndex();
  idx.addAll([{ name: 'a_tool', summary: 'Does a.', description: 'Does a thing.', inputSchema: { type: 'object' } }]);
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 30 }), (q, limit) => {
      const r = idx.search(q, limit);
      assert.ok(Array.isArray(r.tools));
      assert.ok(r.tools.length <= Math.max(limit, 1));
    }),
    { numRuns: 500 },
  );
});
