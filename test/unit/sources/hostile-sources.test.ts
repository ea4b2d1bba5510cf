// Hostile skill sources against real git repositories made here (bare repos over file://, git's smart HTTP on
// 127.0.0.1): a marketplace may not aim git at this computer or its network unless it is read from there itself.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDir, skillMd } from '../../helpers/tmp.js';
import { git, makeRepo, serveGit } from '../../helpers/git-repos.js';
import { cliFolders, run } from '../../helpers/cli.js';
import { parseSource, SourceError } from '../../../main/core/skills/sources/spec.js';
import { openSource } from '../../../main/core/skills/sources/open.js';
import { pluginReachProblem } from '../../../main/core/skills/sources/marketplace.js';
import { checkUpdates } from '../../../main/core/skills/sources/update.js';
import { english } from '../../../preload/words.js';

const root = tempDir('knack-hostile-sources-');
const repos = join(root, 'repos');
const tmp = join(root, 'tmp');
mkdirSync(repos);
mkdirSync(tmp);
process.env.TMPDIR = tmp;
const leftovers = () => readdirSync(tmp).filter((x) => x.startsWith('knack-fetch-'));

const secret = makeRepo(repos, 'secret', {
  'skills/private/SKILL.md': skillMd({ name: 'private', description: 'Only on this computer' }),
});
const near = makeRepo(repos, 'near', {
  'skills/near/SKILL.md': skillMd({ name: 'near', description: 'Beside the market' }),
});
const http = await serveGit(repos);
after(() => http.close());
const port = new URL(http.url).port;

test('which plugin sources a marketplace may name: public hosts and its own; this computer only when read from it', () => {
  const cases: [string, string, boolean][] = [
    ['https://market.example.com/m.json', 'https://github.com/o/r.git', true],
    ['https://market.example.com/m.json', 'https://market.example.com/r.git', true],
    ['https://market.example.com/m.json', `file://${secret.bare}`, false],
    ['https://market.example.com/m.json', 'http://127.0.0.1:8080/admin.git', false],
    ['https://market.example.com/m.json', 'http://localhost/r.git', false],
    ['https://market.example.com/m.json', 'http://[::1]:9/r.git', false],
    ['https://market.example.com/m.json', 'https://10.0.0.7/r.git', false],
    ['https://market.example.com/m.json', 'https://169.254.169.254/latest.git', false],
    ['https://market.example.com/m.json', 'https://2130706433/r.git', false],
    ['https://market.example.com/m.json', 'git@192.168.1.2:o/r.git', false],
    ['https://market.example.com/m.json', 'ssh://git@172.16.0.1/o/r.git', false],
    ['git@github.com:o/market.git', 'git@127.0.0.1:o/r.git', false],
    [`http://127.0.0.1:${port}/files/m.json`, `http://127.0.0.1:${port}/git/near.git`, true],
    [`http://127.0.0.1:${port}/files/m.json`, `http://localhost:${port}/git/secret.git`, false],
    [`http://127.0.0.1:${port}/files/m.json`, `file://${secret.bare}`, false],
    [`file://${repos}/market.git`, `file://${secret.bare}`, true],
    [`file://${repos}/market.git`, `http://127.0.0.1:${port}/git/near.git`, true],
  ];
  for (const [market, plugin, allowed] of cases)
    assert.equal(pluginReachProblem(market, plugin) === undefined, allowed, `${market} → ${plugin}`);
});

test('a marketplace from elsewhere naming file://, another loopback name or a private address is refused in words; git is not run', async () => {
  const url = `${http.url}/files/market.json`;
  writeFileSync(
    join(repos, 'market.json'),
    JSON.stringify({
      name: 'hostile-market',
      plugins: [
        { name: 'files', source: { source: 'url', url: secret.url } },
        { name: 'other-name', source: { source: 'url', url: `http://localhost:${port}/git/secret.git` } },
        { name: 'lan', source: { source: 'git-subdir', url: 'https://10.0.0.7/x.git', path: 'skills' } },
        { name: 'near', source: { source: 'url', url: `${http.url}/git/near.git` } },
      ],
    }),
  );
  const before = http.requests.length;
  for (const [plugin, to] of [
    ['files', secret.url],
    ['other-name', `http://localhost:${port}/git/secret.git`],
    ['lan', 'https://10.0.0.7/x.git'],
  ]) {
    const e = await openSource(parseSource(url, root), { want: [plugin!], limits: { timeoutMs: 20_000 } }).then(
      (o) => (o.dispose(), assert.fail(`${plugin} was fetched`)),
      (e: unknown) => e,
    );
    assert.ok(e instanceof SourceError, String(e));
    assert.equal(
      english(e.words),
      `${url}: plugin ${plugin} is at ${to}, on this computer or its network; a marketplace read from elsewhere may not send Knack there`,
    );
  }
  assert.deepEqual(
    http.requests.slice(before).filter((r) => !r.endsWith('/files/market.json')),
    [],
    'no git request was made',
  );
  assert.deepEqual(leftovers(), []);
  // Its own host is fine.
  const near = await openSource(parseSource(url, root), { want: ['near'] });
  try {
    assert.deepEqual(
      near.candidates.map((c) => c.name),
      ['near'],
    );
  } finally {
    near.dispose();
  }
});

test('an update check does not follow a marketplace that has moved a plugin to this computer', async () => {
  const url = `${http.url}/files/moved.json`;
  const tier = join(root, 'scope', '.workbuddy', 'skills');
  mkdirSync(tier, { recursive: true });
  const locked = {
    url: `${http.url}/git/near.git`,
    commit: git(near.work, 'rev-parse', 'HEAD'),
    path: 'skills/near',
    marketplace: url,
    plugin: 'near',
    contentHash: '0'.repeat(64),
  };
  writeFileSync(join(tier, '..', 'skills.lock.json'), JSON.stringify({ version: 1, skills: { near: locked } }));
  // Since the install, the marketplace names a repository of the user's instead.
  writeFileSync(
    join(repos, 'moved.json'),
    JSON.stringify({ name: 'moved', plugins: [{ name: 'near', source: { source: 'url', url: secret.url } }] }),
  );
  const before = http.requests.length;
  const checked = await checkUpdates(tier, undefined, { cwd: root, limits: { timeoutMs: 20_000 } });
  try {
    const [c] = checked.checks;
    assert.equal(c?.status, 'error');
    assert.match(c.reason ?? '', /plugin near is at file:\/\/.*secret\.git, on this computer or its network/);
    assert.deepEqual(
      http.requests.slice(before).filter((r) => !r.endsWith('/files/moved.json')),
      [],
      'no git request was made',
    );
    assert.deepEqual(leftovers(), []);
  } finally {
    await checked.dispose();
  }
});

test('submodules are never fetched: an ext:: or file:// submodule runs nothing and brings nothing in', async () => {
  const marker = join(root, 'PWNED');
  const repo = makeRepo(repos, 'with-submodules', {
    'skills/outer/SKILL.md': skillMd({ name: 'outer', description: 'Has submodules' }),
    '.gitmodules': [
      '[submodule "run"]',
      '\tpath = skills/outer/run',
      `\turl = ext::sh -c touch% ${marker}`,
      '[submodule "secret"]',
      '\tpath = skills/outer/secret',
      `\turl = ${secret.url}`,
    ].join('\n'),
  });
  // Gitlinks at both paths, as `git submodule add` would leave them.
  const head = git(secret.work, 'rev-parse', 'HEAD');
  git(repo.work, 'update-index', '--add', '--cacheinfo', `160000,${head},skills/outer/run`);
  git(repo.work, 'update-index', '--add', '--cacheinfo', `160000,${head},skills/outer/secret`);
  git(repo.work, 'commit', '-q', '-m', 'submodules');
  git(repo.work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
  const o = await openSource(parseSource(repo.url, root));
  try {
    assert.deepEqual(
      o.candidates.map((c) => c.name),
      ['outer'],
    );
    const dir = o.candidates[0]!.dir;
    assert.deepEqual(readdirSync(join(dir, 'run')), []);
    assert.deepEqual(readdirSync(join(dir, 'secret')), []);
  } finally {
    o.dispose();
  }
  assert.equal(existsSync(marker), false, 'the ext:: command ran');
});

test('knack skills add lists a hostile marketplace’s plugin name escaped, and says why a skill cannot be installed', async () => {
  const f = cliFolders(tempDir());
  mkdirSync(f.ws, { recursive: true });
  const name = 'docs\u001b]52;c;cHduZWQ=\u0007\u202egnp.exe';
  const market = makeRepo(repos, 'escapes-market', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'escapes',
      plugins: [{ name, source: './', skills: ['./skills/plain', './skills/linky'] }],
    }),
    'skills/plain/SKILL.md': skillMd({ name: 'plain', description: 'Plain' }),
    'skills/linky/SKILL.md': skillMd({ name: 'linky', description: 'Links out' }),
  });
  symlinkSync(join(secret.work, 'skills', 'private', 'SKILL.md'), join(market.work, 'skills', 'linky', 'key.md'));
  market.commit({}, 'a link out');
  const r = await run(['skills', 'add', market.url, ...f.args]);
  assert.equal(r.code, 1, r.err);
  assert.doesNotMatch(r.out + r.err, /[\u001b\u0007\u202e]/);
  assert.match(r.out, /plain \[plugin docs\\x1b\]52;c;cHduZWQ=\\x07\\u\{202e\}gnp\.exe\]/);
  assert.match(
    r.out,
    /linky \[plugin docs.*\]:\s+— cannot be installed: symlink key\.md points outside the skill folder/,
  );
  assert.doesNotMatch(r.out, /\[object Object\]/);
});

test('an update that swaps a file for a link out of the skill is refused and changes nothing', async () => {
  const f = cliFolders(tempDir());
  mkdirSync(f.ws, { recursive: true });
  const knack = (args: string[], answer?: boolean) => run([...args, ...f.args], answer);
  const repo = makeRepo(repos, 'swapper', {
    'SKILL.md': skillMd({ name: 'swapper', description: 'Tidies notes' }),
    'references/notes.md': 'notes\n',
  });
  const added = await knack(['skills', 'add', repo.url]);
  assert.equal(added.code, 0, added.err + added.out);
  const installed = join(f.home, '.workbuddy', 'skills', 'swapper', 'references', 'notes.md');
  rmSync(join(repo.work, 'references', 'notes.md'));
  symlinkSync(join(secret.work, 'skills', 'private', 'SKILL.md'), join(repo.work, 'references', 'notes.md'));
  repo.commit({}, 'swap a file for a link');
  const check = await knack(['skills', 'update', '--check']);
  assert.match(check.out + check.err, /swapper: .*symlink references\/notes\.md points outside the skill folder/);
  const yes = await knack(['skills', 'update', '--yes']);
  assert.notEqual(yes.code, 0, yes.out);
  assert.equal(lstatSync(installed).isFile(), true);
  assert.equal(readFileSync(installed, 'utf8'), 'notes\n');
});

test('an update that adds an executable script is audited again, said, and installs only after a yes', async () => {
  const f = cliFolders(tempDir());
  mkdirSync(f.ws, { recursive: true });
  const knack = (args: string[], answer?: boolean) => run([...args, ...f.args], answer);
  const repo = makeRepo(repos, 'scripted', { 'SKILL.md': skillMd({ name: 'scripted', description: 'Tidies notes' }) });
  assert.equal((await knack(['skills', 'add', repo.url])).code, 0);
  writeFileSync(join(repo.work, 'run.sh'), '#!/bin/sh\necho tidy\n', { mode: 0o755 });
  repo.commit({}, 'add a script');
  const check = await knack(['skills', 'update', '--check']);
  assert.equal(check.code, 1, check.err);
  assert.match(check.out, /scripted: update available .*\n {2}files added: run\.sh\n {2}permission diff: no change/);
  const script = join(f.home, '.workbuddy', 'skills', 'scripted', 'run.sh');
  const no = await knack(['skills', 'update'], false);
  assert.equal(no.code, 1);
  assert.match(no.out + no.err, /scripted: kept the installed version/);
  assert.equal(existsSync(script), false);
  const yes = await knack(['skills', 'update'], true);
  assert.equal(yes.code, 0, yes.err + yes.out);
  assert.equal(readFileSync(script, 'utf8'), '#!/bin/sh\necho tidy\n');
});
