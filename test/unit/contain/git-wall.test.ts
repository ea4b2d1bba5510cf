// git for skill sources inside the wall: a fetch from a file:// bare repository and from the loopback HTTP git server
// still works (git reads the source, reaches only its host through the sandbox's proxy and writes only its temporary
// clone), a contained git allowed another host reaches nothing, and it cannot write anywhere else, the workspace included.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { git, makeRepo, serveGit } from '../../helpers/git-repos.js';
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

test('a skill source served over loopback HTTP is fetched through the proxy, to that host only', async () => {
  const repo = makeRepo(join(root, 'served'), 'skills', { 'web/SKILL.md': '---\nname: web\n---\nover http\n' });
  const http = await serveGit(join(root, 'served'));
  try {
    const got = await fetchRepo({ url: `${http.url}/git/skills.git`, display: 'served' }, { wall });
    try {
      assert.equal(readFileSync(join(got.dir, 'web', 'SKILL.md'), 'utf8'), '---\nname: web\n---\nover http\n');
      assert.equal(got.commit, git(repo.work, 'rev-parse', 'HEAD'));
    } finally {
      got.dispose();
    }
    assert.ok(http.requests.length > 0, 'the server was asked');
    // The same server, but the call may reach only another host: the proxy refuses, the server hears nothing.
    const before = http.requests.length;
    const r = await runGit(['ls-remote', `${http.url}/git/skills.git`], {
      cwd: ws,
      timeoutMs: 20_000,
      wall,
      hosts: ['example.invalid'],
      writeRoots: [],
    });
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /blocked by network allowlist/);
    assert.equal(http.requests.length, before, `no request reached the server: ${r.stderr}`);
  } finally {
    await http.close();
  }
});

test('a contained git cannot write outside its write roots, the workspace included', async () => {
  const outside = join(root, 'outside-repo');
  const r = await runGit(['init', '-q', outside], { cwd: ws, timeoutMs: 20_000, wall, writeRoots: [] });
  assert.notEqual(r.code, 0, r.stderr);
  assert.equal(existsSync(join(outside, '.git')), false);
  const target = join(root, 'target');
  mkdirSync(target);
  const inWs = await runGit(['init', '-q', join(ws, 'planted')], {
    cwd: ws,
    timeoutMs: 20_000,
    wall,
    writeRoots: [target],
  });
  assert.notEqual(inWs.code, 0, inWs.stderr);
  assert.equal(existsSync(join(ws, 'planted')), false);
  const inTarget = await runGit(['init', '-q', join(target, 'ok')], {
    cwd: ws,
    timeoutMs: 20_000,
    wall,
    writeRoots: [target],
  });
  assert.equal(inTarget.code, 0, inTarget.stderr);
});

test('the host a git URL may reach', () => {
  assert.equal(gitHost('https://GitHub.com/a/b.git'), 'github.com');
  assert.equal(gitHost('git@gitlab.example.org:team/skills.git'), 'gitlab.example.org');
  assert.equal(gitHost('ssh://git@host.example:2222/x.git'), 'host.example');
  assert.equal(gitHost('file:///tmp/x.git'), undefined);
  assert.equal(gitHost('/tmp/x.git'), undefined);
});
