// The window's side of skill sources through the real service and contract: progress events while fetching, a pick
// that is not in the source refused, a P1 pick approved through skills.approveInstall (lock written, staged copy gone),
// the origin on skills.show, and an update applied only at the content hash that was shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEnv } from '../../helpers/service-env.js';
import { skillMd, tempDir } from '../../helpers/tmp.js';
import { makeRepo } from '../../helpers/git-repos.js';

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
  const { items } = await call('sources.updates', {});
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
