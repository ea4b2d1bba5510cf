// A closed workspace starts no sandbox and runs nothing: its `wall()` is refused (a runtime started then would have
// nothing to close it, its proxy bridges left running), and a wall held past its close refuses every command, inside
// the sandbox or outside it, whatever its mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { socatBridges } from '../../helpers/wall-run.js';
import { openWorkspace } from '../../../main/core/workspace.js';
import { resolvePaths } from '../../../main/core/config/paths.js';
import { describeWall, Wall, WallError } from '../../../main/core/contain/index.js';
import { createBashTool } from '../../../main/core/tools/builtin/bash.js';

function place() {
  const home = tempDir('knack-closed-');
  const ws = join(home, 'ws');
  mkdirSync(ws, { recursive: true });
  return { home, ws, paths: resolvePaths({ home, dataDir: join(home, '.knack') }) };
}

test(
  'wall() of a closed workspace is refused and starts no sandbox',
  { skip: process.platform !== 'linux' },
  async () => {
    const { ws, paths } = place();
    const opened = await openWorkspace({ paths, workspace: ws, watch: false, audit: false });
    // Opened and used, then closed: its bridges end with it.
    assert.equal((await opened.wall()).available, true, (await opened.wall()).status().reason);
    assert.notDeepEqual(socatBridges(), [], 'an open wall runs its proxy bridges');
    await opened.close();
    assert.deepEqual(socatBridges(), []);
    await assert.rejects(opened.wall(), (e: Error) => e instanceof WallError && e.message.includes(`${ws} is closed`));
    // Never asked for its wall before the close: asking after it starts nothing either.
    const idle = await openWorkspace({ paths, workspace: ws, watch: false, audit: false });
    await idle.close();
    await assert.rejects(idle.wall(), /is closed/);
    assert.deepEqual(socatBridges(), []);
  },
);

test('a wall held past its close runs nothing, in any mode', { skip: process.platform !== 'linux' }, async () => {
  const { home, ws } = place();
  for (const mode of ['auto', 'required'] as const) {
    const wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.knack') }, mode);
    assert.equal(wall.available, true, wall.status().reason);
    await wall.close();
    assert.equal(wall.closed, true);
    assert.equal(wall.status().available, false);
    assert.match(wall.status().reason, /closed/);
    // Its status says what happens (refused) and offers no install line: nothing is missing.
    assert.equal(wall.status().closed, true);
    assert.equal(wall.status().hintWords, undefined);
    assert.equal(
      describeWall(wall.status()),
      'sandbox: closed with its workspace; commands are refused, whatever the mode',
    );
    await assert.rejects(wall.spawn('touch spawned', { cwd: ws }), /closed/);
    await assert.rejects(wall.wrapProgram(['touch', 'wrapped'], { cwd: ws }), /closed/);
    // The bash tool does not fall back to the host (mode auto's way for a sandbox that never started).
    const bash = createBashTool(Promise.resolve(wall));
    const r = await bash.handler({ command: 'touch on-host' }, { workspace: ws, actor: { kind: 'user' as const } });
    assert.equal(r.ok, false);
    assert.match(JSON.stringify(r), /sandbox\.unavailable/);
    for (const f of ['spawned', 'wrapped', 'on-host']) assert.equal(existsSync(join(ws, f)), false, `${mode}: ${f}`);
  }
  assert.deepEqual(socatBridges(), []);
});
