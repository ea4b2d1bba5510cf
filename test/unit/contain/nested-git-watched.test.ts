// Nested git dirs are watched, not walked at each command (git-dirs.ts), under the real wall in one process, as the
// window and `knack serve` run commands: a repository one command makes and the next abuses, one the user makes
// between two commands (kept as the user made it, then protected), and one a command makes deep and plants at once
// (moved aside when it ends, its events however late). The user's git on the host then runs none of what was planted.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinds, runInWall, wallFolders } from '../../helpers/wall-run.js';
import { git } from '../../helpers/git-repos.js';
import { Wall } from '../../../main/core/contain/wall.js';

const { root, home, ws } = wallFolders('knack-nested-watched-');
const canary = join(root, 'planted');
const hook = `#!/bin/sh\\ntouch ${canary}-$(basename $0)\\n`;
let wall: Wall;

before(async () => {
  git(ws, 'init', '-q');
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, 'data') }, 'required');
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
});
after(async () => {
  await wall.close();
});

/** What the user does next on the host, outside the wall: a commit in the repository at `dir`. */
function hostCommit(dir: string): void {
  git(dir, '-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-q', '--allow-empty', '-m', 'host');
}
const planted = (): string[] => readdirSync(root).filter((f) => f.startsWith('planted'));

test('a repository one command makes is protected from the next', async () => {
  const made = await runInWall(wall, ws, 'mkdir -p a/b && git init -q a/b/made');
  assert.equal(made.code, 0, made.stderr);
  assert.deepEqual(kinds(made.blocked), [], 'git init writes nothing that can take effect');
  const abuse = await runInWall(
    wall,
    ws,
    `printf '${hook}' > a/b/made/.git/hooks/pre-commit && chmod +x a/b/made/.git/hooks/pre-commit`,
  );
  assert.notEqual(abuse.code, 0, abuse.stderr);
  assert.equal(existsSync(join(ws, 'a/b/made/.git/hooks/pre-commit')), false);
  assert.ok(kinds(abuse.blocked).includes(`write ${join(ws, 'a/b/made/.git/hooks/pre-commit')}`), abuse.stderr);
  const config = await runInWall(wall, ws, `git -C a/b/made config core.fsmonitor 'touch ${canary}-fsmonitor; false'`);
  assert.notEqual(config.code, 0, config.stderr);
  assert.doesNotMatch(readFileSync(join(ws, 'a/b/made/.git/config'), 'utf8'), /fsmonitor/);
  hostCommit(join(ws, 'a/b/made'));
  assert.deepEqual(planted(), []);
});

test("a repository the user makes between two commands keeps the user's hook and is protected from the next", async () => {
  assert.equal((await runInWall(wall, ws, 'true')).code, 0);
  mkdirSync(join(ws, 'mine/deep'), { recursive: true });
  git(join(ws, 'mine/deep'), 'init', '-q');
  const own = join(ws, 'mine/deep/.git/hooks/pre-commit');
  writeFileSync(own, '#!/bin/sh\nexit 0\n');
  chmodSync(own, 0o755);
  const next = await runInWall(wall, ws, `printf '${hook}' > mine/deep/.git/hooks/pre-commit`);
  assert.notEqual(next.code, 0, next.stderr);
  assert.ok(kinds(next.blocked).includes(`write ${own}`), next.stderr);
  // The user's hook is the user's: not taken for the command's and moved aside.
  assert.equal(readFileSync(own, 'utf8'), '#!/bin/sh\nexit 0\n');
  assert.deepEqual(
    readdirSync(join(ws, 'mine/deep/.git')).filter((f) => f.includes('.blocked-')),
    [],
  );
  hostCommit(join(ws, 'mine/deep'));
  assert.deepEqual(planted(), []);
});

test('a repository a command makes deep and plants at once is moved aside as it ends', async () => {
  const r = await runInWall(
    wall,
    ws,
    `mkdir -p x/y/z && git init -q x/y/z/r && printf '${hook}' > x/y/z/r/.git/hooks/post-commit && ` +
      `chmod +x x/y/z/r/.git/hooks/post-commit`,
  );
  const hooks = join(ws, 'x/y/z/r/.git/hooks');
  assert.equal(existsSync(hooks), false);
  assert.ok(
    r.blocked.some((b) => b.target === hooks && /moved aside to /.test(b.message)),
    JSON.stringify(r.blocked),
  );
  hostCommit(join(ws, 'x/y/z/r'));
  assert.deepEqual(planted(), []);
});
