// The https path against a real TLS server on 127.0.0.1 (a self-signed certificate made by openssl), inside the wall:
// git clones a repository over https and curl downloads a marketplace.json over https, each trusting the certificate
// only when the user's CA settings name it (GIT_SSL_CAINFO, CURL_CA_BUNDLE); an untrusted certificate is one line
// naming the source, with no clone left.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, skillMd } from '../../helpers/tmp.js';
import { makeRepo, selfSignedCert, serveGit, type GitHttp } from '../../helpers/git-repos.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { parseSource } from '../../../main/core/skills/sources/spec.js';
import { openSource } from '../../../main/core/skills/sources/open.js';

const root = tempDir('knack-https-sources-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const tmp = join(root, 'tmp');
const repos = join(root, 'repos');
for (const d of [home, ws, tmp, repos]) mkdirSync(d, { recursive: true });
process.env.TMPDIR = tmp;
const leftovers = () => readdirSync(tmp).filter((x) => x.startsWith('knack-fetch-'));

const cert = selfSignedCert(join(root, 'cert'));
makeRepo(repos, 'secure', { 'skills/safe/SKILL.md': skillMd({ name: 'safe', description: 'Served over https' }) });
writeFileSync(
  join(repos, 'market.json'),
  JSON.stringify({
    name: 'tls-market',
    plugins: [{ name: 'weather', description: 'Forecasts', source: { source: 'github', repo: 'example/weather' } }],
  }),
);
let https: GitHttp;
let wall: Wall;

before(async () => {
  https = await serveGit(repos, cert);
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack') }, 'required');
});
after(async () => {
  await wall.close();
  await https.close();
});

/** Run `f` with the certificate trusted (as a user's CA settings would), or with no CA setting at all. */
async function trusting<T>(trust: boolean, f: () => Promise<T>): Promise<T> {
  const keys = ['GIT_SSL_CAINFO', 'CURL_CA_BUNDLE'] as const;
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) {
    if (trust) process.env[k] = cert.file;
    else delete process.env[k];
  }
  try {
    return await f();
  } finally {
    keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  }
}

test('a repository over https is cloned inside the wall', async () => {
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
  const o = await trusting(true, () => openSource(parseSource(`${https.url}/git/secure.git`, ws), { wall }));
  try {
    assert.deepEqual(
      o.candidates.map((c) => c.name),
      ['safe'],
    );
    assert.match(readFileSync(join(o.candidates[0]!.dir, 'SKILL.md'), 'utf8'), /Served over https/);
  } finally {
    o.dispose();
  }
  assert.ok(https.requests.some((q) => q.includes('git-upload-pack')));
  assert.deepEqual(leftovers(), []);
});

test('a marketplace.json over https is downloaded inside the wall', async () => {
  const o = await trusting(true, () => openSource(parseSource(`${https.url}/files/market.json`, ws), { wall }));
  try {
    assert.equal(o.marketplace?.name, 'tls-market');
  } finally {
    o.dispose();
  }
});

test('an untrusted certificate is one line naming the source, with nothing left behind', async () => {
  const repo = `${https.url}/git/secure.git`;
  await assert.rejects(
    trusting(false, () => openSource(parseSource(repo, ws), { wall })),
    (e: Error) => {
      assert.match(
        e.message,
        new RegExp(`^${repo.replace(/[.]/g, '\\.')}: (network error|git failed) \\(.*certificate`, 'i'),
      );
      assert.doesNotMatch(e.message, /\n/);
      return true;
    },
  );
  const json = `${https.url}/files/market.json`;
  await assert.rejects(
    trusting(false, () => openSource(parseSource(json, ws), { wall })),
    (e: Error) => {
      assert.match(e.message, new RegExp(`^${json.replace(/[.]/g, '\\.')}: network error \\(.*certificate`, 'i'));
      return true;
    },
  );
  assert.deepEqual(leftovers(), []);
});
