// Attacks on the folder-walking tools (issue 8, findings 9 and 12): grep, glob and list_dir must not return files
// the caller may not read (checked per file, not only at the starting folder), and grep's time limit is per call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { grepFiles, TimeBudget } from '../../../main/core/tools/builtin/grep.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import type { ToolContext } from '../../../main/core/tools/types.js';

function setup() {
  const root = tempDir();
  const ws = join(root, 'ws');
  const skillDir = join(root, 'skills', 'reader');
  writeTree(root, {
    'ws/notes.md': 'secret-free notes\n',
    'ws/private.md/data.txt': 'the secret token\n',
    'ws/private.md/also.md': 'a secret in markdown\n',
    'skills/reader/SKILL.md': skillMd(
      'name: reader\ndescription: reads markdown\npermissions:\n  tools: [grep, glob, list_dir, read_file]\n  paths:\n    read: ["**/*.md"]',
    ),
  });
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const permissions = parsePermissions({
    file: 'SKILL.md',
    permissions: { tools: ['grep', 'glob', 'list_dir', 'read_file'], paths: { read: ['**/*.md'] } },
  }).permissions!;
  const { gate } = buildGate({
    settings: structuredClone(DEFAULT_SETTINGS),
    workspace: ws,
    skills: [{ name: 'reader', dir: skillDir, permissions }],
  });
  const ex = new ToolExecutor({ registry, gate });
  const ctx: ToolContext = { workspace: ws, actor: { kind: 'skill', skill: 'reader' } };
  return { ws, ex, ctx };
}

test('finding 9: a skill limited to **/*.md cannot read private.md/data.txt through grep, glob or list_dir', async () => {
  const { ex, ctx } = setup();
  const direct = await ex.execute('read_file', { path: 'private.md/data.txt' }, ctx);
  assert.equal(!direct.ok && direct.error.code, 'tool.denied');

  const g = await ex.execute('grep', { pattern: 'secret', path: 'private.md' }, ctx);
  assert.ok(g.ok, JSON.stringify(g));
  const files = (g.content as { matches: { file: string }[] }).matches.map((m) => m.file);
  assert.deepEqual(files, ['private.md/also.md']);

  const gl = await ex.execute('glob', { pattern: '**', path: 'private.md' }, ctx);
  assert.ok(gl.ok, JSON.stringify(gl));
  assert.deepEqual((gl.content as { files: string[] }).files, ['private.md/also.md']);

  const ls = await ex.execute('list_dir', { path: 'private.md' }, ctx);
  assert.ok(ls.ok, JSON.stringify(ls));
  assert.deepEqual(
    (ls.content as { entries: { name: string }[] }).entries.map((e) => e.name),
    ['also.md'],
  );
});

test('finding 9: the agent with no skill loaded still sees every file (nothing filtered without a reason)', async () => {
  const { ex, ws } = setup();
  const ctx: ToolContext = { workspace: ws, actor: { kind: 'agent', activeSkills: [] } };
  const g = await ex.execute('grep', { pattern: 'secret' }, ctx);
  assert.ok(g.ok);
  assert.equal((g.content as { matches: unknown[] }).matches.length, 3);
});

test("finding 12: grep's JavaScript regex time limit is one budget for the whole call, not a fresh limit per file", async () => {
  const root = tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`f${i}.txt`] = `line ${i}\n`;
  writeTree(root, files);
  // A clock that advances 300 ms at every reading, so each file's matching takes 300 ms: with a 2 s budget for the
  // call, seven files are searched (2,100 ms) and the eighth is refused. A per-file limit would search all ten.
  let now = 0;
  const budget = new TimeBudget(2000, () => (now += 300));
  const r = await grepFiles({ pattern: 'line' }, { workspace: root, actor: { kind: 'user' } }, budget, {
    engine: 'javascript',
  });
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  const details = (!r.ok ? r.error.details : undefined) as { filesSearched: number };
  assert.equal(details.filesSearched, 7);
  assert.match(!r.ok ? r.error.message : '', /2000 ms/);
});
