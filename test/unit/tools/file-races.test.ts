// Attacks on the built-in file tools (issue 8, findings 5 and 10): a folder swapped for a symlink between the gate's
// check and the tool's write or read, and hard links to files outside the workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { writeFileTool } from '../../../main/core/tools/builtin/write-file.js';
import { readFileTool } from '../../../main/core/tools/builtin/read-file.js';
import { editFileTool } from '../../../main/core/tools/builtin/edit-file.js';
import { writeReal, openReal, PathChangedError } from '../../../main/core/tools/safe-fs.js';
import type { Decision } from '../../../main/core/policy/types.js';
import type { ToolContext } from '../../../main/core/tools/types.js';

function world() {
  const root = tempDir();
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(join(ws, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ws, 'dir', 'f.txt'), 'inside');
  writeFileSync(join(outside, 'f.txt'), 'outside secret');
  return { root, ws, outside };
}

/** The gate approved ws/dir/f.txt; then, before the tool runs, ws/dir is swapped for a symlink to the outside. */
function swap(ws: string, outside: string): void {
  renameSync(join(ws, 'dir'), join(ws, 'dir.old'));
  symlinkSync(outside, join(ws, 'dir'));
}

const approved = (write: string[], read: string[] = []): Decision => ({
  verdict: 'allow',
  reason: 'test',
  paths: { read, write },
});

test('finding 5: a folder swapped for a symlink after the check does not carry write_file or edit_file outside', async () => {
  const { ws, outside } = world();
  const target = join(ws, 'dir', 'f.txt');
  const ctx: ToolContext = {
    workspace: ws,
    actor: { kind: 'agent', activeSkills: [] },
    decision: approved([target], [target]),
  };
  swap(ws, outside);
  const w = await writeFileTool.handler({ path: 'dir/f.txt', content: 'pwned' }, ctx);
  assert.equal(w.ok, false, JSON.stringify(w));
  const e = await editFileTool.handler({ path: 'dir/f.txt', old_string: 'outside', new_string: 'pwned' }, ctx);
  assert.equal(e.ok, false, JSON.stringify(e));
  assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside secret');
  const n = await writeFileTool.handler(
    { path: 'dir/new.txt', content: 'pwned' },
    { ...ctx, decision: approved([join(ws, 'dir', 'new.txt')]) },
  );
  assert.equal(n.ok, false);
  assert.equal(existsSync(join(outside, 'new.txt')), false);
});

test('finding 5: a read approved for a workspace file does not read the outside file swapped in', async () => {
  const { ws, outside } = world();
  const target = join(ws, 'dir', 'f.txt');
  swap(ws, outside);
  const r = await readFileTool.handler(
    { path: 'dir/f.txt' },
    { workspace: ws, actor: { kind: 'agent', activeSkills: [] }, decision: approved([], [target]) },
  );
  assert.equal(r.ok, false);
  assert.doesNotMatch(JSON.stringify(r), /outside secret/);
});

test('finding 5: the shared opener refuses a path whose folder became a symlink, and writes atomically otherwise', () => {
  const { ws, outside } = world();
  const target = join(ws, 'dir', 'f.txt');
  assert.deepEqual(writeReal(target, 'new'), { created: false });
  assert.equal(readFileSync(target, 'utf8'), 'new');
  swap(ws, outside);
  assert.throws(() => writeReal(target, 'pwned'), PathChangedError);
  assert.throws(() => openReal(target), PathChangedError);
  assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside secret');
});

test('finding 10: writes refuse a hard link to a file outside the workspace; reads flag it', async () => {
  const { ws, outside } = world();
  linkSync(join(outside, 'f.txt'), join(ws, 'linked.txt'));
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: false }));
  const { gate } = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] });
  const ex = new ToolExecutor({ registry, gate, approver: async () => 'once' });
  const agent: ToolContext = { workspace: ws, actor: { kind: 'agent', activeSkills: [] } };
  const w = await ex.execute('write_file', { path: 'linked.txt', content: 'pwned' }, agent);
  assert.equal(w.ok, false);
  assert.match(!w.ok ? w.error.message : '', /hard link/);
  const e = await ex.execute('edit_file', { path: 'linked.txt', old_string: 'secret', new_string: 'pwned' }, agent);
  assert.equal(e.ok, false);
  assert.equal(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside secret');
  const r = await ex.execute('read_file', { path: 'linked.txt' }, agent);
  assert.ok(r.ok);
  assert.match(JSON.stringify(r.content), /hard links/);
  // An ordinary file is unaffected.
  assert.equal((await ex.execute('write_file', { path: 'plain.txt', content: 'ok' }, agent)).ok, true);
});
