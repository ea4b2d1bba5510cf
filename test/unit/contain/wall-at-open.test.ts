// The sandbox starts as a workspace opens where commands will run (the window's workspace, a chat's), so loading and
// starting it is not in the way of the first answer; the first command waits for it. Commands that run nothing (the
// CLI's `skills list`, …) do not start it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { resolvePaths } from '../../../main/core/config/index.js';
import { KnackService } from '../../../main/core/service/index.js';
import { openWorkspace } from '../../../main/core/workspace.js';
import { runContained } from '../../../main/core/tools/builtin/bash.js';

const root = tempDir('knack-wall-at-open-');
const home = join(root, 'home');
const ws = join(root, 'ws');
mkdirSync(home, { recursive: true });
mkdirSync(ws, { recursive: true });
const paths = resolvePaths({ home, dataDir: join(home, 'data') }, {});
const closing: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closing) await c();
});

test("the window's workspace starts its sandbox as it opens; the first command runs in it", async () => {
  const service = new KnackService({ paths, transport: 'serve', version: 't', log: () => {} });
  closing.push(() => service.close());
  await service.openWorkspace(ws);
  const open = service.workspace!;
  // No tool was called, no status asked: the sandbox is on its way.
  assert.equal(open.wallStarted, true);
  const wall = await open.wall();
  assert.equal(wall.available, true, wall.status().reason);
  const r = await runContained(wall, 'echo inside > a.txt && cat a.txt', ws, { timeoutMs: 60_000, hosts: [] });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'inside');
});

test('a workspace opened for a command that runs nothing does not start the sandbox', async () => {
  const open = await openWorkspace({ paths, workspace: ws, audit: false });
  closing.push(() => open.close());
  assert.equal(open.wallStarted, false);
});
