// The folders of main/ import one way: no two import each other, directly or through others, and every import
// follows the layer table in eslint/layering.js (the lint rule checks the same table file by file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
// @ts-expect-error — plain JavaScript module shared with eslint.config.js, no type declarations
import { importLoops, layerViolation, LAYERS, mainDir, unitGraph, unitOf } from '../../../eslint/layering.js';

type Graph = Map<string, Map<string, string[]>>;

function describeLoop(graph: Graph, loop: string[]): string {
  const lines: string[] = [];
  for (const a of loop)
    for (const b of loop) for (const why of graph.get(a)?.get(b) ?? []) lines.push(`  main/${a} → main/${b}: ${why}`);
  return `import loop between ${loop.map((u) => `main/${u}`).join(', ')}:\n${lines.join('\n')}`;
}

test('no two folders of main/ import each other, directly or through other folders', () => {
  const graph = unitGraph() as Graph;
  const loops = importLoops(graph) as string[][];
  assert.deepEqual(
    loops.map((l) => describeLoop(graph, l)),
    [],
  );
});

test('every folder of main/ is in the layer table and imports only the layers below it', () => {
  const graph = unitGraph() as Graph;
  const problems: string[] = [];
  for (const [from, edges] of graph) {
    if (from !== '' && !(from in LAYERS)) problems.push(`main/${from} is not in the layer table`);
    for (const [, whys] of edges) {
      for (const why of whys) {
        const [file = '', spec = ''] = why.split(' → ');
        const v = layerViolation(join(mainDir, file), spec) as string | undefined;
        if (v) problems.push(`${file}: ${v}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('the loop finder sees a loop through a third folder, and names the imports that make it', () => {
  const root = tempDir();
  writeTree(root, {
    'core/a/x.ts': "import { y } from '../b/y.js';\nexport const x = y;\n",
    'core/b/y.ts': "export { z as y } from '../c/z.js';\n",
    'core/c/z.ts': "export const z = 1;\nexport const later = () => import('../a/x.js');\n",
    'core/d/w.ts': "import { z } from '../c/z.js';\nexport const w = z;\n",
  });
  const graph = unitGraph(root) as Graph;
  const loops = importLoops(graph) as string[][];
  assert.deepEqual(loops, [['core/a', 'core/b', 'core/c']]);
  assert.match(describeLoop(graph, loops[0]!), /core\/c\/z\.ts → \.\.\/a\/x\.js/);
});

test('a folder that holds only parts is split into its parts; deeper folders belong to their unit', () => {
  assert.equal(unitOf(join(mainDir, 'core', 'skills', 'format', 'manifest.ts')), 'core/skills/format');
  assert.equal(unitOf(join(mainDir, 'core', 'tools', 'builtin', 'bash.ts')), 'core/tools');
  assert.equal(unitOf(join(mainDir, 'core', 'workspace.ts')), 'core');
  assert.equal(unitOf(join(mainDir, 'cli', 'index.ts')), 'cli');
});

test('the layer rule refuses an import upwards and allows one downwards', () => {
  const base = join(mainDir, 'core', 'base', 'names.ts');
  assert.match(String(layerViolation(base, '../policy/gate.js')), /core\/base may not import main\/core\/policy/);
  const gate = join(mainDir, 'core', 'policy', 'gate.ts');
  assert.equal(layerViolation(gate, '../base/index.js'), undefined);
  const tools = join(mainDir, 'core', 'tools', 'executor.ts');
  assert.match(String(layerViolation(tools, '../mcp/manager.js')), /may not import main\/core\/mcp/);
});
