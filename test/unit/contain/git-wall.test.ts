// git for skill sources inside the wall: a fetch from a file:// bare repository still works (git reads the source and
// writes only its temporary clone), and a contained git cannot write anywhere else.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { fetchRepo } from '../../../main/core/skills/sources/fetch.js';
import { gitHost, runGit } from '../../../main/core/skills/sources/git.js';

const root = tempDir('knack-git-wall-');
const home = join(root, 'home');
const ws = join(root, 'ws');
mkdirSync(home, { recursive: true });
mkdirSync(ws, { recursive: true });
let wall: Wall;

before(async () => {
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack') }, 'required');
});
after(() => wall.close());

test('a skill source fetched by git inside the wall checks out its files', async () => {
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
  const repo = makeRepo(join(root, 'repos'), 'skills', { 'demo/SKILL.md': '---\nname: demo\n---\nhi\n' });
  const got = await fetchRepo({ url: repo.url, display: 'skills' }, { wall });
  try {
    assert.match(got.commit, /^[0-9a-f]{40}$/);
    assert.equal(readFileSync(join(got.dir, 'demo', 'SKILL.md'), 'utf8'), '---\nname: demo\n---\nhi\n');
  } finally {
    got.dispose();
  }
});

test('a contained git cannot write outside its write roots', async () => {
  const outside = join(root, 'outside-repo');
  const r = await runGit(['init', '-q', outside], { cwd: ws, timeoutMs: 20_000, wall, writeRoots: [] });
  assert.notEqual(r.code, 0, r.stderr);
  assert.equal(existsSync(join(outside, '.git')), false);
});

test('the host a git URL may reach', () => {
  assert.equal(gitHost('https://GitHub.com/a/b.git'), 'github.com');
  assert.equal(gitHost('git@gitlab.example.org:team/skills.git'), 'gitlab.example.org');
  assert.equal(gitHost('ssh://git@host.example:2222/x.git'), 'host.example');
  assert.equal(gitHost('file:///tmp/x.git'), undefined);
  assert.equal(gitHost('/tmp/x.git'), undefined);
});
