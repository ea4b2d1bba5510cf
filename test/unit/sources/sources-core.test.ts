// The source reader's parts on their own: SOURCE strings, the marketplace.json shape of the public marketplaces, the
// lock's errors, and the fetch limits (time, size) against real servers and repositories on this machine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir, skillMd } from '../../helpers/tmp.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { parseSource, SourceError } from '../../../main/core/skills/sources/spec.js';
import { english } from '../../../main/core/base/index.js';
import { parseMarketplace } from '../../../main/core/skills/sources/marketplace.js';
import { openSource } from '../../../main/core/skills/sources/open.js';
import { readLock } from '../../../main/core/skills/sources/lock.js';
import { runGit } from '../../../main/core/skills/sources/git.js';
import { fetchRepo, pruneStaleFetches } from '../../../main/core/skills/sources/fetch.js';

const root = tempDir('knack-sources-core-');
const tmp = join(root, 'tmp');
mkdirSync(tmp);
process.env.TMPDIR = tmp;
const leftovers = () => readdirSync(tmp).filter((x) => x.startsWith('knack-fetch-'));

test('SOURCE strings: git URLs with #ref and :path, scp-style ssh, owner/repo, marketplace URLs, local folders', () => {
  const cwd = root;
  mkdirSync(join(root, 'local-skill'));
  assert.deepEqual(parseSource('https://example.com/o/r.git#v1:skills/x', cwd), {
    kind: 'git',
    url: 'https://example.com/o/r.git',
    host: 'example.com',
    display: 'https://example.com/o/r.git#v1:skills/x',
    ref: 'v1',
    path: 'skills/x',
  });
  const colon = parseSource('https://example.com/o/r.git:skills/x', cwd);
  assert.equal(colon.kind === 'git' && colon.path, 'skills/x');
  const gh = parseSource('anthropics/skills/skills/pdf#main', cwd);
  assert.equal(gh.kind === 'git' && gh.url, 'https://github.com/anthropics/skills.git');
  assert.equal(gh.kind === 'git' && gh.path, 'skills/pdf');
  assert.equal(gh.kind === 'git' && gh.ref, 'main');
  const ssh = parseSource('git@github.com:o/r.git:skills/a', cwd);
  assert.equal(ssh.kind === 'git' && ssh.url, 'git@github.com:o/r.git');
  assert.equal(ssh.kind === 'git' && ssh.host, 'github.com');
  assert.equal(ssh.kind === 'git' && ssh.path, 'skills/a');
  assert.equal(parseSource('https://example.com/market/marketplace.json', cwd).kind, 'json');
  assert.equal(parseSource('local-skill', cwd).kind, 'local');
  assert.equal(parseSource('./anything', cwd).kind, 'local');
  for (const bad of [
    '--upload-pack=evil',
    'ext::sh -c x',
    'http://example.com/r.git',
    'https://example.com/r.git#--evil',
    'https://example.com/r.git#main:../../etc',
    'o/r#a..b',
    'gopher://x/y',
  ])
    assert.throws(() => parseSource(bad, cwd), SourceError, bad);
});

test('the fixture marketplace.json in the public shape parses: relative, git-subdir, url and github sources', () => {
  const file = join(import.meta.dirname, '..', '..', 'fixtures', 'sources', 'marketplace.json');
  const m = parseMarketplace(readFileSync(file, 'utf8'), file);
  assert.equal(m.name, 'fixture-plugins');
  assert.deepEqual(
    m.plugins.map((p) => [p.name, p.source.kind === 'relative' ? `./${p.source.path}` : p.source.sourceKind]),
    [
      ['document-skills', './'],
      ['agent-sdk-dev', './plugins/agent-sdk-dev'],
      ['amazon-location-service', 'git-subdir'],
      ['atomic-agents', 'url'],
      ['night-parade', 'github'],
    ],
  );
  assert.deepEqual(m.plugins[0]!.skills, ['skills/xlsx', 'skills/docx']);
  const sub = m.plugins[2]!.source;
  assert.deepEqual(sub, {
    kind: 'git',
    sourceKind: 'git-subdir',
    url: 'https://github.com/awslabs/agent-plugins.git',
    ref: 'main',
    sha: '46fd59cd1a0751ac15e34754f86f9a06b0900d2c',
    path: 'plugins/amazon-location-service',
  });
  assert.equal(
    m.plugins[4]!.source.kind === 'git' && m.plugins[4]!.source.url,
    'https://github.com/Telos-evals/night-parade.git',
  );
});

test('a hostile marketplace.json is refused with file:line and field', () => {
  const bad = (plugins: unknown) => JSON.stringify({ name: 'm', plugins }, null, 2);
  assert.throws(
    () => parseMarketplace(bad([{ name: 'p', source: '../outside' }]), 'm.json'),
    /m\.json:\d+: plugins\[0\]\.source: .*relative/,
  );
  assert.throws(
    () =>
      parseMarketplace(
        bad([{ name: 'p', source: { source: 'git-subdir', url: 'https://x/r.git', path: '../../etc' } }]),
        'm.json',
      ),
    /plugins\[0\]\.source: path "\.\.\/\.\.\/etc" must stay inside/,
  );
  assert.throws(
    () => parseMarketplace(bad([{ name: 'p', source: { source: 'url', url: 'ext::sh -c x' } }]), 'm.json'),
    /plugins\[0\]\.source/,
  );
  assert.throws(
    () =>
      parseMarketplace(
        bad([
          { name: 'p', source: './a' },
          { name: 'p', source: './b' },
        ]),
        'm.json',
      ),
    /"p" appears twice/,
  );
  assert.throws(() => parseMarketplace('{"plugins": []}', 'm.json'), /m\.json:1: name: /);
});

test('a broken lock names its file, line and field', () => {
  const file = join(root, 'skills.lock.json');
  writeFileSync(
    file,
    JSON.stringify(
      { version: 1, skills: { a: { url: 'https://x/r.git', commit: 'abc', path: '', contentHash: 'f'.repeat(64) } } },
      null,
      2,
    ),
  );
  assert.throws(() => readLock(file), /skills\.lock\.json:6: skills\.a\.commit: must be a full commit id/);
  writeFileSync(file, '{ "version": 1, ');
  assert.throws(() => readLock(file), /skills\.lock\.json:1: not valid JSON/);
});

test('a marketplace.json or lock nested without end is refused with its file and line, never a stack overflow', () => {
  // A hostile repository's marketplace.json: jsonc-parser's tree builder recurses, so depth is checked first.
  const deep = `{"name": "m",\n"plugins": [${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
  assert.throws(
    () => parseMarketplace(deep, 'm.json'),
    (e: Error) => e instanceof SourceError && /^m\.json:2: nested more than 64 levels deep/.test(e.message),
  );
  const file = join(root, 'deep.lock.json');
  writeFileSync(file, `{"version": 1, "skills": ${'{"a": '.repeat(100_000)}1${'}'.repeat(100_000)}}`);
  assert.throws(
    () => readLock(file),
    (e: Error) => e instanceof SourceError && /deep\.lock\.json:1: nested more than 64 levels deep/.test(e.message),
  );
});

test('a server that never answers times out with one line; nothing stays behind', async () => {
  const sockets = new Set<Socket>();
  const silent = createServer(() => undefined);
  silent.on('connection', (s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  after(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const port = (silent.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}/git/x.git`;
  await assert.rejects(openSource(parseSource(url), { limits: { timeoutMs: 1_500 } }), (e: Error) => {
    assert.equal(e.message, `${url}: timed out after 2 s`);
    return true;
  });
  assert.deepEqual(leftovers(), []);
});

test('a clone larger than the limit is stopped; nothing stays behind', async () => {
  const big = makeRepo(join(root, 'repos'), 'big', {
    'SKILL.md': skillMd({ name: 'big', description: 'big' }),
    'blob.bin': randomBytes(400_000).toString('base64'),
  });
  await assert.rejects(
    openSource(parseSource(big.url), { limits: { maxBytes: 100_000 } }),
    /big\.git: the repository is larger than 98 KB/,
  );
  assert.deepEqual(leftovers(), []);
  const ok = await openSource(parseSource(big.url));
  try {
    assert.equal(ok.candidates[0]!.name, 'big');
    assert.ok(!existsSync(join(ok.candidates[0]!.dir, '.git')), 'the tree holds no .git');
  } finally {
    ok.dispose();
  }
  assert.deepEqual(leftovers(), []);
});

test('git runs without the API keys and tokens of the process environment', async () => {
  process.env.KNACK_TEST_API_KEY = 'sk-should-not-leak';
  process.env.GITHUB_TOKEN = 'ghp-should-not-leak';
  try {
    // An alias starting with "!" runs a shell command: here, print the environment git was given.
    const r = await runGit(['-c', 'alias.envdump=!env', 'envdump'], { cwd: root, timeoutMs: 10_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /GIT_TERMINAL_PROMPT=0/);
    assert.doesNotMatch(r.stdout, /should-not-leak/);
  } finally {
    delete process.env.KNACK_TEST_API_KEY;
    delete process.env.GITHUB_TOKEN;
  }
});

test("a fetch first removes the clones left by dead processes and others' older than a day, never its own", async () => {
  // A pid that surely exited: a child that ran and was waited for.
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const made = (name: string, ageMs = 0) => {
    const p = join(tmp, name);
    mkdirSync(join(p, 'tree'), { recursive: true });
    writeFileSync(join(p, 'tree', 'f'), 'x');
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(p, t, t);
    return name;
  };
  const gone = [made(`knack-fetch-${dead}-aaaaaa`), made('knack-fetch-bbbbbb', 2 * 86_400_000)];
  const kept = [
    made(`knack-fetch-${process.pid}-cccccc`, 2 * 86_400_000),
    made('knack-fetch-dddddd'),
    made(`knack-fetch-1-eeeeee`),
  ];
  const other = made('not-ours-ffffff', 3 * 86_400_000);
  const repo = makeRepo(join(root, 'repos'), 'prune', { 'SKILL.md': skillMd({ name: 'prune', description: 'p' }) });
  const got = await fetchRepo({ url: repo.url, display: 'prune' });
  try {
    for (const g of gone) assert.equal(existsSync(join(tmp, g)), false, `${g} was removed`);
    for (const k of [...kept, other]) assert.equal(existsSync(join(tmp, k)), true, `${k} was kept`);
  } finally {
    got.dispose();
  }
  assert.deepEqual(pruneStaleFetches(tmp), []);
  assert.deepEqual(leftovers().sort(), kept.sort());
  for (const k of kept) spawnSync('rm', ['-rf', join(tmp, k)]);
});

test('a link out of the tree is never followed: a marketplace.json or SKILL.md leading outside is not read', async () => {
  // Files outside the repository a hostile one points at: were main to follow the links, their words would show.
  const secretJson = join(root, 'outside-market.json');
  writeFileSync(secretJson, JSON.stringify({ name: 'OUTSIDE', plugins: [{ name: 'outside-plugin', source: './x' }] }));
  const secretMd = join(root, 'outside-skill.md');
  writeFileSync(secretMd, skillMd({ name: 'outside', description: 'OUTSIDE WORDS' }));
  const linked = (name: string, at: string, target: string) => {
    const repo = makeRepo(join(root, 'repos'), name, { 'README.md': 'links' });
    mkdirSync(join(repo.work, at.split('/')[0]!), { recursive: true });
    symlinkSync(target, join(repo.work, at));
    repo.commit({});
    return repo;
  };
  const market = linked('linked-market', '.claude-plugin/marketplace.json', secretJson);
  await assert.rejects(openSource(parseSource(market.url)), (e: Error) => {
    assert.equal(
      e.message,
      `${market.url}:.claude-plugin/marketplace.json: a symlink that leads out of the repository (not read)`,
    );
    return true;
  });
  const skill = linked('linked-skill', 'sk/SKILL.md', secretMd);
  const opened = await openSource(parseSource(skill.url));
  try {
    const [c] = opened.candidates;
    assert.deepEqual(c!.problem, { code: 'source.linkOutside', params: { link: 'SKILL.md' } });
    assert.equal(english(c!.problem!), 'symlink SKILL.md points outside the skill folder');
    assert.equal(c!.name, 'sk');
    assert.equal(c!.description, '');
    assert.doesNotMatch(JSON.stringify(opened.candidates), /OUTSIDE/);
  } finally {
    opened.dispose();
  }
  // A link to another file of the same repository is read as that file.
  const inTree = makeRepo(join(root, 'repos'), 'in-tree-market', {
    'market.json': JSON.stringify({ name: 'in-tree', plugins: [] }),
  });
  mkdirSync(join(inTree.work, '.claude-plugin'));
  symlinkSync('../market.json', join(inTree.work, '.claude-plugin', 'marketplace.json'));
  inTree.commit({});
  const ok = await openSource(parseSource(inTree.url));
  try {
    assert.equal(ok.marketplace?.name, 'in-tree');
  } finally {
    ok.dispose();
  }
  assert.deepEqual(leftovers(), []);
});
