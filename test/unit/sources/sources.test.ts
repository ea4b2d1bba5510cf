// Skills from git repositories and marketplaces, end to end through the real CLI, against real git repositories made
// here: bare repos over file://, and git's smart HTTP from `git http-backend` on 127.0.0.1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, skillMd, writeTree } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';
import { git, makeRepo, serveGit } from '../../helpers/git-repos.js';
import { english } from '../../../preload/words.js';

const root = tempDir('knack-sources-');
const repos = join(root, 'repos');
mkdirSync(repos);
let n = 0;

/** A fresh home, data folder and workspace; `args` adds the flags every command needs. */
function env() {
  const base = join(root, `env-${++n}`);
  const home = join(base, 'home');
  const data = join(base, 'data');
  const ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  const flags = cliArgs({ ws, home, data });
  return {
    home,
    data,
    ws,
    tier: join(home, '.workbuddy', 'skills'),
    lock: join(home, '.workbuddy', 'skills.lock.json'),
    knack: (args: string[], answer?: boolean) => run([...args, ...flags], answer),
  };
}

const clean = (name: string, description = `Does ${name} things`) =>
  skillMd({ name, description }, `# ${name}\n\nUse it carefully.\n`);
const p1 = (name: string) =>
  skillMd({ name, description: `Fetches ${name}` }, '# Fetch\n\n```bash\ncurl -s https://api.example.com/data\n```\n');
const withNetwork = (name: string, network: boolean) =>
  skillMd(`name: ${name}\ndescription: Tidies ${name}\npermissions:\n  tools: [read_file]\n  network: ${network}`);

const fetchLeftovers = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((x) => x.startsWith('knack-fetch-')) : [];
const staged = (data: string) => (existsSync(join(data, 'fetched')) ? readdirSync(join(data, 'fetched')) : []);

// Temporary clones go to this folder, so a test can see that none stays behind.
const tmp = join(root, 'tmp');
mkdirSync(tmp);
process.env.TMPDIR = tmp;

const five = makeRepo(repos, 'five', {
  'README.md': 'five skills',
  'skills/alpha/SKILL.md': clean('alpha'),
  'skills/beta/SKILL.md': clean('beta'),
  'skills/gamma/SKILL.md': clean('gamma'),
  'skills/delta/SKILL.md': clean('delta'),
  'skills/epsilon/SKILL.md': clean('epsilon'),
});
const http = await serveGit(repos);
after(() => http.close());

test('add from a file:// URL installs the one skill and records its source in skills.lock.json', async () => {
  const e = env();
  const one = makeRepo(repos, 'one', { 'SKILL.md': clean('solo'), 'references/a.md': 'ref' });
  const r = await e.knack(['skills', 'add', one.url]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /installed solo/);
  assert.equal(readFileSync(join(e.tier, 'solo', 'references', 'a.md'), 'utf8'), 'ref');
  const lock = JSON.parse(readFileSync(e.lock, 'utf8'));
  const commit = one.commit({}, 'noop');
  assert.equal(lock.version, 1);
  assert.equal(lock.skills.solo.url, one.url);
  assert.equal(lock.skills.solo.path, '');
  assert.match(lock.skills.solo.commit, /^[0-9a-f]{40}$/);
  assert.notEqual(lock.skills.solo.commit, commit);
  assert.match(lock.skills.solo.contentHash, /^[0-9a-f]{64}$/);
  assert.deepEqual(fetchLeftovers(tmp), []);
  assert.deepEqual(staged(e.data), []);
});

test("add runs git inside the workspace's wall: a repository under ~/.ssh cannot be read; with the sandbox off it can", async () => {
  const e = env();
  // The wall keeps secrets such as ~/.ssh unreadable; git reading a repository there proves it ran outside.
  const hidden = makeRepo(join(e.home, '.ssh'), 'hidden', { 'SKILL.md': clean('hidden') });
  const inside = await e.knack(['skills', 'add', hidden.url]);
  assert.notEqual(inside.code, 0, inside.out);
  assert.match(inside.err, /hidden\.git: no such repository|hidden\.git: git failed/);
  assert.ok(!existsSync(join(e.tier, 'hidden')));
  assert.deepEqual(fetchLeftovers(tmp), []);
  writeTree(e.data, { 'settings.json': JSON.stringify({ sandbox: { mode: 'off' } }) });
  const outside = await e.knack(['skills', 'add', hidden.url]);
  assert.equal(outside.code, 0, outside.err);
  assert.match(outside.err, /git runs outside the sandbox: it is off in settings/);
  assert.ok(existsSync(join(e.tier, 'hidden', 'SKILL.md')));
});

test('a repository of five skills over HTTP lists them with their audit level; --skill picks two', async () => {
  const e = env();
  const url = `${http.url}/git/five.git`;
  const listed = await e.knack(['skills', 'add', url, '--json']);
  assert.equal(listed.code, 1);
  const shown = JSON.parse(listed.out);
  assert.deepEqual(shown.skills.map((s: { name: string; level: string }) => `${s.name}:${s.level}`).sort(), [
    'alpha:P2',
    'beta:P2',
    'delta:P2',
    'epsilon:P2',
    'gamma:P2',
  ]);
  assert.ok(!existsSync(e.tier), 'listing installs nothing');
  const r = await e.knack(['skills', 'add', url, '--skill', 'beta', '--skill', 'delta']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(e.tier).sort(), ['beta', 'delta']);
  const lock = JSON.parse(readFileSync(e.lock, 'utf8'));
  assert.deepEqual(Object.keys(lock.skills), ['beta', 'delta']);
  assert.equal(lock.skills.beta.path, 'skills/beta');
  assert.equal(lock.skills.beta.url, url);
  assert.ok(
    http.requests.some((q) => q.includes('git-upload-pack')),
    'fetched through the smart HTTP server',
  );
  assert.deepEqual(fetchLeftovers(tmp), []);
});

test('#ref and :path select a tag and a folder', async () => {
  const e = env();
  const repo = makeRepo(repos, 'tagged', { 'skills/t/SKILL.md': withNetwork('t', false) });
  repo.tag('v1');
  repo.commit({ 'skills/t/SKILL.md': withNetwork('t', true) });
  const r = await e.knack(['skills', 'add', `${repo.url}#v1:skills/t`]);
  assert.equal(r.code, 0, r.err);
  assert.match(readFileSync(join(e.tier, 't', 'SKILL.md'), 'utf8'), /network: false/);
  const lock = JSON.parse(readFileSync(e.lock, 'utf8'));
  assert.equal(lock.skills.t.ref, 'v1');
  assert.equal(lock.skills.t.path, 'skills/t');
});

test('a P1 skill from a repository waits for approval, then approve installs it and records the source', async () => {
  const e = env();
  const repo = makeRepo(repos, 'risky', { 'SKILL.md': p1('getter') });
  const r = await e.knack(['skills', 'add', repo.url]);
  assert.equal(r.code, 1);
  assert.match(r.err, /held for approval (\S+):/);
  const id = /held for approval (\S+):/.exec(r.err)![1]!;
  assert.ok(!existsSync(join(e.tier, 'getter')));
  assert.ok(!existsSync(e.lock), 'nothing recorded before approval');
  assert.equal(staged(e.data).length, 1, 'the fetched copy waits for the decision');
  const ok = await e.knack(['skills', 'approve', id]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok(existsSync(join(e.tier, 'getter', 'SKILL.md')));
  assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.getter.url, repo.url);
  assert.deepEqual(staged(e.data), []);
});

test('a marketplace with several plugins: relative ones are listed, a git-subdir plugin from another repository is fetched when picked', async () => {
  const e = env();
  const other = makeRepo(repos, 'other-plugins', {
    'plugins/maps/skills/geo/SKILL.md': clean('geo', 'Maps and geocoding'),
    'plugins/maps/skills/route/SKILL.md': clean('route', 'Routing'),
  });
  const market = makeRepo(repos, 'market', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'test-market',
      owner: { name: 'Tests' },
      plugins: [
        {
          name: 'docs',
          description: 'Documents',
          source: './',
          strict: false,
          skills: ['./skills/xlsx', './skills/docx'],
        },
        { name: 'sdk', description: 'SDK kit', source: './plugins/sdk' },
        {
          name: 'maps',
          description: 'Maps',
          source: { source: 'git-subdir', url: `${http.url}/git/other-plugins.git`, path: 'plugins/maps', ref: 'main' },
        },
        { name: 'far', description: 'Far away', source: { source: 'github', repo: 'example/far' } },
      ],
    }),
    'skills/xlsx/SKILL.md': clean('xlsx', 'Spreadsheets'),
    'skills/docx/SKILL.md': clean('docx', 'Word documents'),
    'plugins/sdk/skills/sdk-helper/SKILL.md': clean('sdk-helper', 'Helps with the SDK'),
  });
  void other;
  const listed = await e.knack(['skills', 'add', market.url, '--json']);
  assert.equal(listed.code, 1, listed.err);
  const shown = JSON.parse(listed.out);
  assert.equal(shown.kind, 'marketplace');
  assert.deepEqual(shown.skills.map((s: { name: string }) => s.name).sort(), ['docx', 'sdk-helper', 'xlsx']);
  assert.deepEqual(
    shown.marketplace.plugins.map((p: { name: string; fetched: boolean }) => `${p.name}:${p.fetched}`),
    ['docs:true', 'sdk:true', 'maps:false', 'far:false'],
  );
  const r = await e.knack(['skills', 'add', market.url, '--skill', 'xlsx', '--skill', 'maps']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(e.tier).sort(), ['geo', 'route', 'xlsx']);
  const lock = JSON.parse(readFileSync(e.lock, 'utf8'));
  assert.equal(lock.skills.xlsx.marketplace, market.url);
  assert.equal(lock.skills.xlsx.plugin, 'docs');
  assert.equal(lock.skills.geo.url, `${http.url}/git/other-plugins.git`);
  assert.equal(lock.skills.geo.path, 'plugins/maps/skills/geo');
  assert.equal(lock.skills.geo.plugin, 'maps');
  assert.deepEqual(fetchLeftovers(tmp), []);
});

test('a marketplace that pins a commit: add fetches that commit, update --check follows the pin, not the branch', async () => {
  const e = env();
  const plugin = makeRepo(repos, 'pinned-plugin', { 'skills/pin/SKILL.md': clean('pin', 'Pinned one') });
  const v1 = git(plugin.work, 'rev-parse', 'HEAD');
  const v2 = plugin.commit({ 'skills/pin/SKILL.md': clean('pin', 'Pinned two') });
  const manifest = (sha: string) => ({
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'pins',
      owner: { name: 'Tests' },
      plugins: [{ name: 'pinned', description: 'Pinned', source: { source: 'url', url: plugin.url, sha } }],
    }),
  });
  const market = makeRepo(repos, 'pin-market', manifest(v1));
  const r = await e.knack(['skills', 'add', market.url, '--skill', 'pinned']);
  assert.equal(r.code, 0, r.err);
  assert.match(readFileSync(join(e.tier, 'pin', 'SKILL.md'), 'utf8'), /Pinned one/);
  assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.pin.commit, v1);
  // The plugin's branch is at v2, but the marketplace still pins v1: nothing to update.
  const same = await e.knack(['skills', 'update', '--check']);
  assert.equal(same.code, 0, same.out + same.err);
  assert.match(same.out, new RegExp(`pin: up to date \\(${v1.slice(0, 12)}\\)`));
  market.commit(manifest(v2));
  const moved = await e.knack(['skills', 'update', '--check']);
  assert.equal(moved.code, 1, moved.out + moved.err);
  assert.match(moved.out, new RegExp(`pin: update available ${v1.slice(0, 12)} → ${v2.slice(0, 12)}`));
  const applied = await e.knack(['skills', 'update', '--yes']);
  assert.equal(applied.code, 0, applied.out + applied.err);
  assert.match(readFileSync(join(e.tier, 'pin', 'SKILL.md'), 'utf8'), /Pinned two/);
  assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.pin.commit, v2);
  // A marketplace that no longer lists the plugin: the check fails naming it, nothing changes.
  market.commit({
    '.claude-plugin/marketplace.json': JSON.stringify({ name: 'pins', owner: { name: 'Tests' }, plugins: [] }),
  });
  const gone = await e.knack(['skills', 'update', '--check']);
  assert.equal(gone.code, 2, gone.out + gone.err);
  assert.match(gone.err, /^pin: cannot check: plugin "pinned" is no longer listed in /m);
  // --json carries the words the window says for the same check (a code and its parameters), beside the English.
  const goneJson = await e.knack(['skills', 'update', '--check', '--json']);
  assert.equal(goneJson.code, 2, goneJson.out + goneJson.err);
  const [check] = JSON.parse(goneJson.out).checks;
  assert.match(check.reason, /^plugin "pinned" is no longer listed in /);
  assert.equal(check.words.code, 'update.checkFailed');
  assert.equal(check.words.params.skill, 'pin');
  assert.equal(check.words.params.why.code, 'update.pluginGone');
  assert.deepEqual(Object.keys(check.words.params.why.params).sort(), ['marketplace', 'plugin']);
  // The skill is named once, by the check's own words.
  assert.match(english(check.words), /^pin: could not check for an update \(plugin "pinned" is no longer listed in /);
  assert.deepEqual(fetchLeftovers(tmp), []);
});

test('a marketplace.json URL over HTTP lists its plugins; browse finds a skill in English and in Chinese', async () => {
  const e = env();
  makeRepo(repos, 'translators', {
    'skills/translate/SKILL.md': clean('translate', 'Translate documents between languages'),
  });
  writeFileSync(
    join(repos, 'market.json'),
    JSON.stringify({
      name: 'json-market',
      plugins: [
        {
          name: 'translators',
          description: 'Translation tools',
          source: { source: 'url', url: `${http.url}/git/translators.git` },
        },
        { name: 'weather', description: 'Weather forecasts', source: { source: 'github', repo: 'example/weather' } },
      ],
    }),
  );
  const url = `${http.url}/files/market.json`;
  const added = await e.knack(['skills', 'marketplace', 'add', url]);
  assert.equal(added.code, 0, added.err);
  const list = await e.knack(['skills', 'marketplace', 'list', '--json']);
  assert.deepEqual(
    JSON.parse(list.out).map((m: { source: string; scope: string }) => `${m.scope} ${m.source}`),
    [`user ${url}`],
  );
  const en = await e.knack(['skills', 'browse', 'weather', '--json']);
  assert.equal(en.code, 0, en.err);
  assert.equal(JSON.parse(en.out).hits[0].plugin, 'weather');
  const zh = await e.knack(['skills', 'browse', '翻译', '--json']);
  assert.equal(zh.code, 0, zh.err);
  assert.equal(JSON.parse(zh.out).hits[0].plugin, 'translators');
  const r = await e.knack(['skills', 'add', url, '--skill', 'translators']);
  assert.equal(r.code, 0, r.err);
  assert.ok(existsSync(join(e.tier, 'translate', 'SKILL.md')));
  const removed = await e.knack(['skills', 'marketplace', 'remove', url]);
  assert.equal(removed.code, 0);
  assert.equal(JSON.parse((await e.knack(['skills', 'marketplace', 'list', '--json'])).out).length, 0);
});

test('sync installs exactly what the lock names in a fresh home, and refuses content that differs from the lock', async () => {
  const first = env();
  const url = `${http.url}/git/five.git`;
  const added = await first.knack(['skills', 'add', url, '--skill', 'alpha', '--skill', 'gamma']);
  assert.equal(added.code, 0, added.err + added.out);
  five.commit({ 'skills/alpha/SKILL.md': clean('alpha', 'Changed later') });
  const lockText = readFileSync(first.lock, 'utf8');
  const fresh = env();
  mkdirSync(join(fresh.home, '.workbuddy'), { recursive: true });
  writeFileSync(fresh.lock, lockText);
  const r = await fresh.knack(['skills', 'sync']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(fresh.tier).sort(), ['alpha', 'gamma']);
  assert.match(readFileSync(join(fresh.tier, 'alpha', 'SKILL.md'), 'utf8'), /Does alpha things/, 'the locked commit');
  const again = await fresh.knack(['skills', 'sync']);
  assert.match(again.out, /alpha: already installed as locked/);

  const tampered = env();
  const lock = JSON.parse(lockText);
  lock.skills.alpha.contentHash = 'f'.repeat(64);
  mkdirSync(join(tampered.home, '.workbuddy'), { recursive: true });
  writeFileSync(tampered.lock, JSON.stringify(lock));
  const t = await tampered.knack(['skills', 'sync']);
  assert.equal(t.code, 2);
  assert.match(t.err, /alpha: .* now has different content .* refused as tampered/);
  assert.ok(!existsSync(join(tampered.tier, 'alpha')));
  assert.ok(existsSync(join(tampered.tier, 'gamma')), 'the other locked skill is installed');
  assert.deepEqual(fetchLeftovers(tmp), []);
});

test('update: a clean change updates after one yes; a widening waits for approval with the permission diff', async () => {
  const e = env();
  const repo = makeRepo(repos, 'tidy', { 'SKILL.md': withNetwork('tidy', false) });
  assert.equal((await e.knack(['skills', 'add', repo.url])).code, 0);
  const up = await e.knack(['skills', 'update', '--check']);
  assert.equal(up.code, 0, up.err);
  assert.match(up.out, /tidy: up to date/);

  repo.commit({ 'SKILL.md': withNetwork('tidy', false) + '\nMore words.\n', 'notes.md': 'new' });
  const check = await e.knack(['skills', 'update', '--check']);
  assert.equal(check.code, 1);
  assert.match(check.out, /tidy: update available/);
  assert.match(check.out, /files added: notes\.md/);
  assert.match(check.out, /files changed: SKILL\.md/);
  assert.match(check.out, /permission diff: no change/);
  const kept = await e.knack(['skills', 'update'], false);
  assert.equal(kept.code, 1);
  assert.ok(!existsSync(join(e.tier, 'tidy', 'notes.md')));
  const yes = await e.knack(['skills', 'update'], true);
  assert.equal(yes.code, 0, yes.err + yes.out);
  assert.ok(existsSync(join(e.tier, 'tidy', 'notes.md')));
  const lock1 = JSON.parse(readFileSync(e.lock, 'utf8'));

  const widening = repo.commit({ 'SKILL.md': withNetwork('tidy', true) });
  const w = await e.knack(['skills', 'update', '--json']);
  assert.equal(w.code, 1);
  const out = JSON.parse(w.out);
  assert.equal(out.checks[0].diff.networkTurnedOn, true);
  assert.equal(out.checks[0].result.status, 'pending');
  assert.match(readFileSync(join(e.tier, 'tidy', 'SKILL.md'), 'utf8'), /network: false/, 'still the old version');
  const ok = await e.knack(['skills', 'approve', out.checks[0].result.approvalId]);
  assert.equal(ok.code, 0, ok.err);
  assert.match(readFileSync(join(e.tier, 'tidy', 'SKILL.md'), 'utf8'), /network: true/);
  const lock2 = JSON.parse(readFileSync(e.lock, 'utf8'));
  assert.equal(lock2.skills.tidy.commit, widening);
  assert.notEqual(lock2.skills.tidy.contentHash, lock1.skills.tidy.contentHash);
});

test('a name clash offers update or keep, never a silent overwrite', async () => {
  const e = env();
  const a = makeRepo(repos, 'clash-a', { 'SKILL.md': clean('same', 'First') });
  const b = makeRepo(repos, 'clash-b', { 'SKILL.md': clean('same', 'Second') });
  assert.equal((await e.knack(['skills', 'add', a.url])).code, 0);
  const keep = await e.knack(['skills', 'add', b.url], false);
  assert.equal(keep.code, 1);
  assert.match(keep.err, /already installed/);
  assert.match(readFileSync(join(e.tier, 'same', 'SKILL.md'), 'utf8'), /First/);
  assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.same.url, a.url);
  const upd = await e.knack(['skills', 'add', b.url], true);
  assert.equal(upd.code, 0, upd.err);
  assert.match(readFileSync(join(e.tier, 'same', 'SKILL.md'), 'utf8'), /Second/);
  assert.equal(JSON.parse(readFileSync(e.lock, 'utf8')).skills.same.url, b.url);
  assert.deepEqual(staged(e.data), []);
});

test('each failure is one line naming the source, with nothing installed and no clone left', async () => {
  const e = env();
  const bad = makeRepo(repos, 'bad', {
    'README.md': 'no skills here',
    'docs/x.md': 'x',
    'linky/SKILL.md': clean('linky'),
  });
  symlinkSync('/etc/passwd', join(bad.work, 'linky', 'passwd'));
  bad.commit({});
  const badMarket = makeRepo(repos, 'bad-market', {
    '.claude-plugin/marketplace.json': '{ "name": "x", "plugins": [ }',
  });
  const npmMarket = makeRepo(repos, 'npm-market', {
    '.claude-plugin/marketplace.json': JSON.stringify(
      { name: 'x', plugins: [{ name: 'p', source: { source: 'npm', package: 'evil' } }] },
      null,
      2,
    ),
  });
  const cases: [string[], RegExp][] = [
    [[`file://${repos}/missing.git`], /missing\.git: no such repository/],
    [[`${five.url}#no-such-ref`], /five\.git#no-such-ref: ref "no-such-ref" does not exist/],
    [[`${bad.url}#main:docs`], /bad\.git#main:docs: no SKILL\.md in "docs"/],
    [[`${bad.url}#main:nowhere`], /path "nowhere" does not exist/],
    [[bad.url, '--skill', 'linky'], /linky: symlink passwd points outside the skill folder/],
    [[badMarket.url], /bad-market\.git:\.claude-plugin\/marketplace\.json:1: not valid JSON/],
    [
      [npmMarket.url],
      /npm-market\.git:\.claude-plugin\/marketplace\.json:7: plugins\[0\]\.source\.source: unknown source kind "npm"/,
    ],
    [['http://127.0.0.1:9/x.git'], /127\.0\.0\.1:9\/x\.git: network error/],
    [['http://example.com/x.git'], /plain http is accepted only for this machine/],
    [['ext::sh -c evil'], /white space|not accepted/],
  ];
  for (const [args, re] of cases) {
    const r = await e.knack(['skills', 'add', ...args]);
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.err, re, `${args.join(' ')}: ${r.err}`);
    assert.ok(!existsSync(e.tier) || readdirSync(e.tier).length === 0, `${args.join(' ')} installed something`);
    assert.deepEqual(fetchLeftovers(tmp), [], `${args.join(' ')} left a clone`);
  }
  assert.deepEqual(staged(e.data), []);
  writeTree(e.ws, {});
});
