// The window's side of skill sources through the real service and contract: progress events while fetching, a pick
// that is not in the source refused, a P1 pick approved through skills.approveInstall (lock written, staged copy gone),
// the origin on skills.show, an update applied only at the content hash that was shown (from the copy the check held,
// fetching nothing more; a check keeping no clone), and the Updates check asking the network only when a lock changed
// (or on refresh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { makeRepo, serveGit } from '../../helpers/git-repos.js';
import { english, type Said } from '../../../preload/contract.js';

// Temporary clones go here, so the test can see none stays once the service closes.
const tmp = tempDir('knack-src-svc-tmp-');
process.env.TMPDIR = tmp;

const fm = (name: string, network: boolean) =>
  skillMd(`name: ${name}\ndescription: The ${name} skill\npermissions:\n  tools: [read_file]\n  network: ${network}`);

test('sources over the contract: open with progress, install picks, approve P1, origin, update at the shown hash', async (t) => {
  const env = await serviceEnv(t);
  const { call } = env;
  const repos = tempDir('knack-src-svc-');
  const repo = makeRepo(repos, 'mixed', {
    'skills/plain/SKILL.md': fm('plain', false),
    'skills/fetcher/SKILL.md': skillMd(
      { name: 'fetcher', description: 'Fetches data' },
      '# Fetch\n\n```bash\ncurl -s https://api.example.com/data\n```\n',
    ),
  });
  const opened = await call('sources.open', { source: repo.url });
  assert.deepEqual(
    opened.skills.map((s) => `${s.name}:${s.level}`),
    ['fetcher:P1', 'plain:P2'],
  );
  assert.ok(env.of('sources.progress').length > 0, 'progress was told');
  await assert.rejects(
    call('sources.install', { openId: opened.openId, skills: ['nope'], tier: 'project' }),
    /not_found: .* holds no skill named "nope"/,
  );
  const { results } = await call('sources.install', {
    openId: opened.openId,
    skills: ['plain', 'fetcher'],
    tier: 'project',
  });
  assert.deepEqual(
    results.map((r) => r.status),
    ['installed', 'pending'],
  );
  const pending = results[1]!;
  const done = await call('skills.approveInstall', {
    approvalId: pending.approvalId!,
    contentHash: pending.report!.contentHash,
  });
  assert.equal(done.status, 'installed');
  const dataDir = env.paths.dataDir;
  assert.deepEqual(existsSync(join(dataDir, 'fetched')) ? readdirSync(join(dataDir, 'fetched')) : [], []);
  const lockFile = join(env.ws, '.workbuddy', 'skills.lock.json');
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(lockFile, 'utf8')).skills), ['fetcher', 'plain']);
  const shown = await call('skills.show', { name: 'plain' });
  assert.equal(shown.origin?.url, repo.url);
  assert.equal(shown.origin?.path, 'skills/plain');
  await call('sources.close', { openId: opened.openId });

  repo.commit({ 'skills/plain/SKILL.md': fm('plain', true) });
  const { items } = await call('sources.updates', { asked: true });
  const u = items.find((i) => i.name === 'plain')!;
  assert.equal(u.status, 'available');
  assert.equal(u.diff?.widened, true);
  await assert.rejects(
    call('sources.applyUpdate', { name: 'plain', tier: 'project', contentHash: 'f'.repeat(64) }),
    /conflict: /,
  );
  const r = await call('sources.applyUpdate', { name: 'plain', tier: 'project', contentHash: u.contentHash! });
  assert.equal(r.status, 'pending', 'a widening waits for approval');
  assert.match(readFileSync(join(env.ws, '.workbuddy', 'skills', 'plain', 'SKILL.md'), 'utf8'), /network: false/);
  await call('sources.open', { source: repo.url }); // left open, as a window closed mid-way would
  assert.ok(readdirSync(tmp).some((n) => n.startsWith('knack-fetch-')));
  await env.service.close();
  assert.deepEqual(
    readdirSync(tmp).filter((n) => n.startsWith('knack-fetch-')),
    [],
    'closing the service removes every clone',
  );
});

test('a check keeps no clone, only a copy of each update; Update installs that copy without fetching again', async (t) => {
  const env = await serviceEnv(t);
  const { call } = env;
  const repos = tempDir('knack-src-svc-once-');
  const repo = makeRepo(repos, 'tidy', { 'skills/tidy/SKILL.md': fm('tidy', false) });
  // Over git's smart HTTP on 127.0.0.1, so every fetch is a request the server counts.
  const http = await serveGit(repos);
  t.after(() => http.close());
  const opened = await call('sources.open', { source: `${http.url}/git/tidy.git` });
  await call('sources.install', { openId: opened.openId, skills: ['tidy'], tier: 'project' });
  await call('sources.close', { openId: opened.openId });
  const fetches = () => http.requests.filter((r) => r.includes('/git/tidy.git/')).length;
  const clones = () => readdirSync(tmp).filter((n) => n.startsWith('knack-fetch-'));
  const fetched = join(env.paths.dataDir, 'fetched');
  const held = () => (existsSync(fetched) ? readdirSync(fetched) : []);
  const before = clones();
  const installed = join(env.ws, '.workbuddy', 'skills', 'tidy', 'SKILL.md');
  const first = readFileSync(installed, 'utf8');

  const second = fm('tidy', false) + '\nSecond words.\n';
  repo.commit({ 'skills/tidy/SKILL.md': second });
  const checking = fetches();
  const checked = (await call('sources.updates', { refresh: true, asked: true })).items.find((i) => i.name === 'tidy')!;
  assert.equal(checked.status, 'available');
  assert.ok(fetches() > checking, 'the check fetches');
  assert.deepEqual(clones(), before, 'the check removed its clone');
  assert.equal(held().length, 1, 'and holds a copy of the update it shows');

  // The source moves on between the check and the click: Update installs what the check showed, fetching nothing.
  repo.commit({ 'skills/tidy/SKILL.md': fm('tidy', false) + '\nThird words.\n' });
  const clicked = fetches();
  const r = await call('sources.applyUpdate', { name: 'tidy', tier: 'project', contentHash: checked.contentHash! });
  assert.equal(r.status, 'installed');
  assert.equal(fetches(), clicked, 'Update fetches nothing');
  assert.equal(readFileSync(installed, 'utf8'), second, 'what was shown is installed, not what the source holds now');
  assert.equal((await call('skills.show', { name: 'tidy' })).audit.contentHash, checked.contentHash);
  assert.deepEqual(held(), [], 'the update removed its copy');
  await assert.rejects(
    call('sources.applyUpdate', { name: 'tidy', tier: 'project', contentHash: checked.contentHash! }),
    (e: { code?: string; words?: Said }) => e.code === 'not_found' && e.words?.code === 'sources.noUpdate',
  );

  // The held copy changed between the check and the click: refused, nothing installed, the copy gone.
  const again = (await call('sources.updates', { refresh: true, asked: true })).items.find((i) => i.name === 'tidy')!;
  assert.notEqual(again.contentHash, checked.contentHash);
  const [holder] = held();
  writeFileSync(join(fetched, holder!, 'tidy', 'SKILL.md'), fm('tidy', true));
  const refused = await call('sources.applyUpdate', { name: 'tidy', tier: 'project', contentHash: again.contentHash! });
  assert.equal(refused.status, 'refused');
  assert.equal(refused.words?.code, 'source.changed');
  assert.equal(readFileSync(installed, 'utf8'), second);
  assert.deepEqual(held(), []);
  assert.notEqual(readFileSync(installed, 'utf8'), first);

  // A copy held when the service closes goes with it.
  assert.equal((await call('sources.updates', { refresh: true, asked: true })).items[0]?.status, 'available');
  assert.equal(held().length, 1);
  await env.service.close();
  assert.deepEqual(held(), [], 'closing the service removes the held copy');
  assert.deepEqual(clones(), before);
});

test("the window's fetch runs git inside the workspace's wall: a repository under ~/.ssh cannot be read", async (t) => {
  const env = await serviceEnv(t);
  // The wall keeps ~/.ssh unreadable to everything Knack starts; git reading a repository there would mean it ran outside.
  const hidden = makeRepo(join(env.paths.home, '.ssh'), 'hidden', { 'SKILL.md': fm('hidden', false) });
  await assert.rejects(env.call('sources.open', { source: hidden.url }), /refused: .*hidden\.git: /);
  const open = makeRepo(tempDir('knack-src-svc-open-'), 'plain', { 'SKILL.md': fm('plain', false) });
  const opened = await env.call('sources.open', { source: open.url });
  assert.deepEqual(
    opened.skills.map((s) => s.name),
    ['plain'],
  );
});

test('the Updates badge asks the sources again only when a lock changed, or when told to refresh', async (t) => {
  // In the user's own tier: the project tier's sources on this computer are asked only when the user asks (below).
  const env = await serviceEnv(t);
  const { call } = env;
  const repos = tempDir('knack-src-svc-count-');
  const repo = makeRepo(repos, 'counted', { 'skills/kept/SKILL.md': fm('kept', false) });
  // Over git's smart HTTP on 127.0.0.1, so every fetch is a request the server counts.
  const http = await serveGit(repos);
  t.after(() => http.close());
  const url = `${http.url}/git/counted.git`;
  const opened = await call('sources.open', { source: url });
  await call('sources.install', { openId: opened.openId, skills: ['kept'], tier: 'user' });
  await call('sources.close', { openId: opened.openId });
  const fetches = () => http.requests.filter((r) => r.includes('/git/counted.git/')).length;

  const before = fetches();
  const first = await call('sources.updates', {});
  assert.deepEqual(
    first.items.map((i) => `${i.name}:${i.status}`),
    ['kept:up-to-date'],
  );
  const checked = fetches();
  assert.ok(checked > before, 'the first check fetches');

  // A catalog change that touches no sourced skill: a local skill installed, another turned off.
  const local = join(tempDir('knack-src-svc-local-'), 'local-only');
  writeTree(local, { 'SKILL.md': fm('local-only', false) });
  assert.equal((await call('skills.install', { source: local, tier: 'user', replace: false })).status, 'installed');
  await call('skills.setEnabled', { name: 'local-only', enabled: false });
  const again = await call('sources.updates', {});
  assert.deepEqual(again.items, first.items);
  assert.equal(fetches(), checked, 'no fetch for a catalog change that leaves the locks alone');

  // Check for updates (refresh) asks the source even when no lock changed.
  const next = repo.commit({ 'skills/kept/SKILL.md': fm('kept', false) + '\nMore words.\n' });
  const refreshed = await call('sources.updates', { refresh: true });
  assert.ok(fetches() > checked, 'refresh fetches');
  const u = refreshed.items.find((i) => i.name === 'kept')!;
  assert.equal(u.status, 'available');
  assert.equal(u.to, next);

  // Applying it changes the lock entry: the next catalog-driven check fetches again and finds it current.
  assert.equal(
    (await call('sources.applyUpdate', { name: 'kept', tier: 'user', contentHash: u.contentHash! })).status,
    'installed',
  );
  const applied = fetches();
  const after = await call('sources.updates', {});
  assert.ok(fetches() > applied, 'a changed lock entry is checked again');
  assert.deepEqual(
    after.items.map((i) => `${i.name}:${i.status}`),
    ['kept:up-to-date'],
  );
});

test("a cloned folder's lock aims no unasked check at this computer: loopback and file:// wait for Check", async (t) => {
  const env = await serviceEnv(t);
  const { call } = env;
  const repos = tempDir('knack-src-svc-loop-');
  makeRepo(repos, 'served', { 'skills/near/SKILL.md': fm('near', false) });
  const http = await serveGit(repos);
  t.after(() => http.close());
  const opened = await call('sources.open', { source: `${http.url}/git/served.git` });
  await call('sources.install', { openId: opened.openId, skills: ['near'], tier: 'project' });
  await call('sources.close', { openId: opened.openId });
  // A hostile repository ships this lock: one entry at a service on 127.0.0.1, one at a folder of the user's.
  const lockFile = join(env.ws, '.workbuddy', 'skills.lock.json');
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { skills: Record<string, Record<string, unknown>> };
  const mine = makeRepo(tempDir('knack-src-svc-mine-'), 'mine', { 'skills/mine/SKILL.md': fm('mine', false) });
  lock.skills.mine = { ...lock.skills.near, url: mine.url };
  writeFileSync(lockFile, JSON.stringify(lock));
  const asks = () => http.requests.length;

  const before = asks();
  for (const params of [{}, { refresh: true }]) {
    assert.deepEqual((await call('sources.updates', params)).items, [], 'neither source is asked unasked');
  }
  assert.equal(asks(), before, 'the service on 127.0.0.1 got no request');

  const checked = await call('sources.updates', { asked: true });
  assert.deepEqual(checked.items.map((i) => `${i.name}:${i.status}`).sort(), ['mine:error', 'near:up-to-date']);
  assert.ok(asks() > before, 'Check for updates asks it');
});

test('a fetched skill whose files change between review and install is refused, not installed under the shown hash', async (t) => {
  const env = await serviceEnv(t);
  const repo = makeRepo(tempDir('knack-src-svc-swap-'), 'swap', { 'skills/swapped/SKILL.md': fm('swapped', false) });
  const opened = await env.call('sources.open', { source: repo.url });
  const shown = opened.skills[0]!.contentHash;
  // The checkout the listing was read from, changed after it was shown.
  const clone = readdirSync(tmp, { recursive: true, encoding: 'utf8' })
    .map((p) => join(tmp, p))
    .find((p) => p.endsWith(join('skills', 'swapped', 'SKILL.md')))!;
  writeFileSync(clone, fm('swapped', true));
  const { results } = await env.call('sources.install', {
    openId: opened.openId,
    skills: ['swapped'],
    tier: 'project',
  });
  assert.equal(results[0]!.status, 'refused');
  assert.match(
    results[0]!.reason!,
    new RegExp(`swapped: changed since it was reviewed \\(content ${shown.slice(0, 12)} → `),
  );
  assert.equal(results[0]!.words?.code, 'source.changed');
  assert.ok(!existsSync(join(env.ws, '.workbuddy', 'skills', 'swapped')));
  assert.ok(!existsSync(join(env.ws, '.workbuddy', 'skills.lock.json')));
  assert.deepEqual(
    existsSync(join(env.paths.dataDir, 'fetched')) ? readdirSync(join(env.paths.dataDir, 'fetched')) : [],
    [],
  );
});

test('a source that cannot be reached, a ref that does not exist and a folder with no skill are refused as words', async (t) => {
  const env = await serviceEnv(t);
  const repos = tempDir('knack-src-svc-words-');
  const repo = makeRepo(repos, 'plain', { 'skills/plain/SKILL.md': fm('plain', false) });
  const notSkill = join(repos, 'notes');
  writeTree(notSkill, { 'README.md': 'no skill here' });
  const refusal = async (source: string) => {
    const e = (await env.call('sources.open', { source }).then(
      () => assert.fail(`${source} opened`),
      (err: unknown) => err,
    )) as { code: string; message: string; words?: Said };
    assert.equal(e.code, 'refused');
    assert.ok(e.words, `${source}: no words`);
    return e.words;
  };
  // Port 9 on loopback: nothing answers. The terminal keeps git's own line; the window gets words.
  assert.deepEqual(await refusal('http://127.0.0.1:9/x.git'), {
    code: 'source.unreachable',
    params: { source: 'http://127.0.0.1:9/x.git' },
  });
  // Over https git asks the sandbox's proxy for a tunnel, and the proxy answers 502 for a host that does not answer.
  assert.deepEqual(await refusal('https://127.0.0.1:9/x.git'), {
    code: 'source.unreachable',
    params: { source: 'https://127.0.0.1:9/x.git' },
  });
  assert.deepEqual(await refusal(`${repo.url}#no-such-ref`), {
    code: 'source.noRef',
    params: { source: `${repo.url}#no-such-ref`, ref: 'no-such-ref' },
  });
  assert.equal((await refusal(notSkill)).code, 'source.noSkill');
  assert.equal((await refusal(`${repo.url}#main:nowhere`)).code, 'source.noPath');
  assert.equal((await refusal('http://example.com/x.git')).code, 'source.plainHttp');
});

test('a check whose source was removed after install is an error item for each skill, naming it once', async (t) => {
  const env = await serviceEnv(t);
  const repos = tempDir('knack-src-svc-gone-');
  const repo = makeRepo(repos, 'gone', {
    'skills/vanishing/SKILL.md': fm('vanishing', false),
    'skills/fading/SKILL.md': fm('fading', false),
  });
  const opened = await env.call('sources.open', { source: repo.url });
  await env.call('sources.install', { openId: opened.openId, skills: ['vanishing', 'fading'], tier: 'project' });
  await env.call('sources.close', { openId: opened.openId });
  // The repository is deleted: the source can no longer be reached.
  rmSync(repo.bare, { recursive: true, force: true });
  rmSync(repo.work, { recursive: true, force: true });

  const { items } = await env.call('sources.updates', { refresh: true, asked: true });
  assert.deepEqual(items.map((i) => `${i.name}:${i.status}`).sort(), ['fading:error', 'vanishing:error']);
  for (const item of items) {
    const words = item.words;
    assert.ok(words, 'the failed check carries words');
    assert.equal(words.code, 'update.checkFailed');
    assert.equal(words.params?.skill, item.name);
    // The reason is the source's own words (a code the window says in its language), naming the source, not a skill:
    // the two skills share one fetch, and the line names its skill once.
    const why = words.params?.why as Said;
    assert.equal(typeof why, 'object');
    assert.equal(why.code, 'source.noRepo');
    assert.equal(why.params?.source, repo.url);
    assert.equal(english(words), `${item.name}: could not check for an update (${repo.url}: no such repository)`);
    // The terminal's English keeps git's own line, and names no skill either.
    assert.ok(item.reason?.startsWith(`${repo.url}: no such repository (`), item.reason);
  }
});

test('a pick from a source closed or without that skill, an update not shown and a link out are said in words', async (t) => {
  const env = await serviceEnv(t);
  const repos = tempDir('knack-src-svc-notfound-');
  const repo = makeRepo(repos, 'linky', { 'skills/plain/SKILL.md': fm('plain', false), 'linky/SKILL.md': 'x' });
  rmSync(join(repo.work, 'linky', 'SKILL.md'));
  symlinkSync('/etc/passwd', join(repo.work, 'linky', 'SKILL.md'));
  repo.commit({});
  const failure = async (p: Promise<unknown>) =>
    (await p.then(
      () => assert.fail('not refused'),
      (err: unknown) => err,
    )) as { code: string; message: string; words?: Said };
  const opened = await env.call('sources.open', { source: repo.url });
  const linky = opened.skills.find((s) => s.name === 'linky');
  assert.deepEqual(linky?.problemWords, { code: 'source.linkOutside', params: { link: 'SKILL.md' } });
  assert.equal(linky?.problem, 'symlink SKILL.md points outside the skill folder');
  const refused = await env.call('sources.install', { openId: opened.openId, skills: ['linky'], tier: 'project' });
  assert.deepEqual(refused.results[0]?.words, {
    code: 'source.skillProblem',
    params: { name: 'linky', problem: { code: 'source.linkOutside', params: { link: 'SKILL.md' } } },
  });
  const noSkill = await failure(
    env.call('sources.install', { openId: opened.openId, skills: ['nope'], tier: 'project' }),
  );
  assert.equal(noSkill.code, 'not_found');
  assert.deepEqual(noSkill.words, { code: 'sources.noSkill', params: { source: repo.url, name: 'nope' } });
  assert.equal(noSkill.message, `not_found: ${english(noSkill.words!)}`);
  await env.call('sources.close', { openId: opened.openId });
  const closed = await failure(
    env.call('sources.install', { openId: opened.openId, skills: ['plain'], tier: 'project' }),
  );
  assert.deepEqual(closed.words, { code: 'sources.notOpen', params: { id: opened.openId } });
  const noUpdate = await failure(
    env.call('sources.applyUpdate', { name: 'plain', tier: 'project', contentHash: 'f'.repeat(64) }),
  );
  assert.equal(noUpdate.code, 'not_found');
  assert.deepEqual(noUpdate.words, { code: 'sources.noUpdate', params: { name: 'plain' } });
});

test('past four sources open at once, the oldest is closed and its temporary clone removed', async (t) => {
  const env = await serviceEnv(t);
  const repo = makeRepo(tempDir('knack-src-svc-'), 'held', { 'skills/plain/SKILL.md': fm('plain', false) });
  const clones = () => readdirSync(tmp).filter((n) => n.startsWith('knack-fetch-')).length;
  const before = clones();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await env.call('sources.open', { source: repo.url })).openId);
  assert.equal(clones(), before + 4);
  await assert.rejects(
    env.call('sources.install', { openId: ids[0]!, skills: ['plain'], tier: 'project' }),
    /not_found: /,
  );
  const { results } = await env.call('sources.install', { openId: ids[1]!, skills: ['plain'], tier: 'project' });
  assert.equal(results[0]!.status, 'installed');
  await env.service.close();
  assert.equal(clones(), before);
});
