// A hard link from a file outside what a command may write, under the real wall: the runtime names the link's source
// as a write refused there, though a link never writes its source. `git clone` of a repository outside the workspace
// (which tries to link the objects, then copies them) succeeds with nothing reported blocked; `ln` of a file outside
// fails and is said as the link it was, the source unchanged; a link made outside is still a write refused there.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinds, runInWall, wallFolders } from '../../helpers/wall-run.js';
import { git } from '../../helpers/git-repos.js';
import { english } from '../../../main/core/base/index.js';
import { Wall } from '../../../main/core/contain/wall.js';

const { root, home, ws } = wallFolders('knack-link-outside-');
const upstream = join(root, 'upstream');
const outside = join(root, 'outside.txt');
let wall: Wall;

before(async () => {
  mkdirSync(upstream);
  git(upstream, 'init', '-q');
  writeFileSync(join(upstream, 'a.txt'), 'a\n');
  git(upstream, 'add', 'a.txt');
  git(upstream, '-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-q', '-m', 'up');
  writeFileSync(outside, 'outside\n');
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, 'data') }, 'required');
  assert.equal(wall.available, true, wall.status().reason);
});
after(async () => {
  await wall.close();
});

test('git clone of a repository outside the workspace succeeds with nothing reported blocked', async () => {
  const r = await runInWall(wall, ws, `git clone -q ${upstream} cloned`);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(kinds(r.blocked), []);
  assert.equal(readFileSync(join(ws, 'cloned', 'a.txt'), 'utf8'), 'a\n');
});

test('ln of a file outside fails and is said as a hard link refused, the file unchanged', async () => {
  const r = await runInWall(wall, ws, `ln ${outside} here`);
  assert.notEqual(r.code, 0);
  assert.equal(existsSync(join(ws, 'here')), false);
  assert.equal(r.blocked.length, 1, JSON.stringify(r.blocked));
  assert.equal(r.blocked[0]!.target, outside);
  assert.equal(r.blocked[0]!.words?.code, 'wall.linkOutside');
  assert.match(english(r.blocked[0]!.words!), /hard link: .* cannot be linked in .* It is unchanged/);
  assert.equal(readFileSync(outside, 'utf8'), 'outside\n');
});

test('a hard link made outside the workspace is a write refused there', async () => {
  writeFileSync(join(ws, 'mine.txt'), 'mine\n');
  const r = await runInWall(wall, ws, `ln mine.txt ${join(root, 'made-outside')}`);
  assert.notEqual(r.code, 0);
  assert.equal(existsSync(join(root, 'made-outside')), false);
  assert.ok(kinds(r.blocked).includes(`write ${join(root, 'made-outside')}`), JSON.stringify(r.blocked));
});
