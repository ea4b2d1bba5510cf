// A marketplace.json or skills.lock.json that cannot be read is refused in words naming file, line and field: their
// English is the CLI's line, their Chinese says the same with no English sentence of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Said } from '../../../preload/words.js';
import { SourceError } from '../../../main/core/skills/sources/spec.js';
import { parseMarketplace } from '../../../main/core/skills/sources/marketplace.js';
import { lockPathFor, readLock } from '../../../main/core/skills/sources/lock.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import {
  addMarketplace,
  marketplaceEntries,
  removeMarketplace,
} from '../../../main/core/skills/sources/marketplaces.js';
import { checkUpdates, syncLock } from '../../../main/core/skills/sources/update.js';
import { Store } from '../../../main/core/store/index.js';
import { makeRepo } from '../../helpers/git-repos.js';
import { assertSaid, chinese } from '../../helpers/words.js';

/** The refusal `run` throws: words whose English is its message, said in Chinese without an English sentence. */
function refusal(run: () => unknown): { words: Said; message: string; zh: string } {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof SourceError, String(e));
    return { words: e.words!, message: e.message, zh: assertSaid(e.words, e.message) };
  }
  return assert.fail('not refused');
}

const market = (plugins: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'm', ...extra, plugins }, null, 2);

test('every way a marketplace.json is refused names file:line and field, in words', () => {
  const cases: [string, RegExp][] = [
    ['{"name": "m", "plugins": [', /^m\.json:1: not valid JSON \(/],
    [`{"plugins": [${'['.repeat(100)}${']'.repeat(100)}]}`, /^m\.json:1: nested more than 64 levels deep$/],
    ['{"plugins": []}', /^m\.json:1: name: is missing$/],
    ['{"name": 3, "plugins": []}', /^m\.json:1: name: must be a string$/],
    ['{"name": "", "plugins": []}', /^m\.json:1: name: must not be empty$/],
    [market([{ name: 'p', source: '../outside' }]), /^m\.json:6: plugins\[0\]\.source: "\.\.\/outside" is neither/],
    [
      market([{ name: 'p', source: { source: 'git-subdir', url: 'https://x/r.git', path: '../../etc' } }]),
      /plugins\[0\]\.source: path "\.\.\/\.\.\/etc" must stay inside the repository/,
    ],
    [market([{ name: 'p', source: { source: 'github', repo: 'not a repo' } }]), /plugins\[0\]\.source\.repo: is not/],
    [
      market([{ name: 'p', source: { source: 'github', repo: 'o/r', sha: 'zz' } }]),
      /source\.sha: "zz" is not a commit/,
    ],
    [market([{ name: 'p', source: { source: 'github', repo: 'o/r', ref: '-x' } }]), /source\.ref: ref "-x" is not a/],
    [market([{ name: 'p', source: { source: 'ftp' } }]), /source\.source: unknown source kind "ftp"/],
    [market([{ name: 'p', source: { source: 'url', url: 'ext::sh -c x' } }]), /plugins\[0\]\.source/],
    [
      market([{ name: 'p', source: './a', skills: ['../up'] }]),
      /skills\[0\]: skill folder "\.\.\/up" must stay inside/,
    ],
    [
      market([
        { name: 'p', source: './a' },
        { name: 'p', source: './b' },
      ]),
      /^m\.json:\d+: plugins\[1\]\.name: "p" appears twice$/,
    ],
  ];
  for (const [text, expected] of cases) {
    const r = refusal(() => parseMarketplace(text, 'm.json'));
    assert.match(r.message, expected);
    assert.ok(r.zh.startsWith('m.json:'), r.zh);
  }
  const zh = refusal(() => parseMarketplace(market([{ name: 'p', source: { source: 'ftp' } }]), 'm.json')).zh;
  assert.match(zh, /未知的来源类型/);
});

test('every way a skills.lock.json is refused names file:line and field, in words', () => {
  const file = join(tempDir(), 'skills.lock.json');
  const entry = { url: 'https://x/r.git', commit: 'a'.repeat(40), path: '', contentHash: 'f'.repeat(64) };
  const cases: [unknown, RegExp][] = [
    [{ version: 1, skills: { a: { ...entry, commit: 'abc' } } }, /:6: skills\.a\.commit: must be a full commit id$/],
    [{ version: 1, skills: { a: { ...entry, contentHash: 'x' } } }, /skills\.a\.contentHash: must be a sha256 in hex$/],
    [{ version: 2, skills: {} }, /:2: version: must be 1$/],
    [{ version: 1, skills: { a: { ...entry, extra: 1 } } }, /skills\.a\.extra: unknown field "extra"$/],
    [
      { version: 1, skills: { a: { ...entry, url: '/local/folder' } } },
      /skills\.a\.url: "\/local\/folder" is not a git/,
    ],
    [{ version: 1, skills: { a: { ...entry, ref: 'a..b' } } }, /skills\.a\.ref: ref "a\.\.b" is not a valid ref$/],
    [{ version: 1, skills: { a: { ...entry, path: '../x' } } }, /skills\.a\.path: path "\.\.\/x" must stay inside/],
  ];
  for (const [json, expected] of cases) {
    writeFileSync(file, JSON.stringify(json, null, 2));
    const r = refusal(() => readLock(file));
    assert.ok(r.message.startsWith(`${file}:`), r.message);
    assert.match(r.message, expected);
  }
  writeFileSync(file, '{ "version": 1, ');
  assert.match(refusal(() => readLock(file)).zh, /skills\.lock\.json:1：不是有效的 JSON/);
  writeFileSync(file, '');
  assert.match(refusal(() => readLock(file)).message, /skills\.lock\.json:1: not valid JSON \(ValueExpected\)$/);
});

test('a folder offered as a marketplace that holds none is refused in words', async () => {
  const root = tempDir();
  const folder = join(root, 'plain');
  writeTree(folder, { 'SKILL.md': skillMd({ name: 'plain', description: 'Plain.' }) });
  await assert.rejects(marketplaceEntries(folder, { dataDir: join(root, 'data'), cwd: root }), (e: unknown) => {
    assert.ok(e instanceof SourceError);
    assert.deepEqual(e.words, {
      code: 'source.noMarketplace',
      params: { source: folder, file: '.claude-plugin/marketplace.json' },
    });
    assert.equal(e.message, `${folder}: holds no .claude-plugin/marketplace.json`);
    return true;
  });
});

test('a locked skill whose content changed is refused as tampered in words; a name not in the lock too', async () => {
  const root = tempDir();
  const repo = makeRepo(join(root, 'repos'), 'alpha', { 'SKILL.md': skillMd({ name: 'alpha', description: 'A.' }) });
  const commit = repo.commit({});
  const tierRoot = join(root, 'home/.workbuddy/skills');
  mkdirSync(tierRoot, { recursive: true });
  const entry = { url: repo.url, commit, path: '', contentHash: 'f'.repeat(64) };
  writeFileSync(lockPathFor(tierRoot), JSON.stringify({ version: 1, skills: { alpha: entry } }));
  const store = Store.openIn(join(root, 'data'));
  try {
    const [item] = await syncLock({ tierRoot, tier: 'user', store, dataDir: join(root, 'data') });
    assert.ok(item && item.status === 'refused' && 'reason' in item, JSON.stringify(item));
    assert.match(
      item.reason,
      /^alpha: .* at commit [0-9a-f]{12} now has different content \(.*\): refused as tampered$/,
    );
    assert.match(assertSaid(item.words, item.reason), /视为被篡改，已拒绝$/);
  } finally {
    store.close();
  }
  await assert.rejects(checkUpdates(tierRoot, ['beta', 'gamma']), (e: unknown) => {
    assert.ok(e instanceof SourceError);
    assert.equal(
      e.message,
      `beta, gamma: not in ${lockPathFor(tierRoot)} (only skills installed from a source can be updated)`,
    );
    assert.match(assertSaid(e.words, e.message), /^beta、gamma：不在 .* 中/);
    return true;
  });
});

test('skills locked from one repository that is gone are each refused naming that skill once, in words', async () => {
  const root = tempDir();
  const repo = makeRepo(join(root, 'repos'), 'pair', {
    'skills/alpha/SKILL.md': skillMd({ name: 'alpha', description: 'A.' }),
    'skills/beta/SKILL.md': skillMd({ name: 'beta', description: 'B.' }),
  });
  const commit = repo.commit({});
  rmSync(repo.bare, { recursive: true, force: true });
  const tierRoot = join(root, 'home/.workbuddy/skills');
  mkdirSync(tierRoot, { recursive: true });
  const entry = (path: string) => ({ url: repo.url, commit, path, contentHash: 'f'.repeat(64) });
  const skills = { alpha: entry('skills/alpha'), beta: entry('skills/beta') };
  writeFileSync(lockPathFor(tierRoot), JSON.stringify({ version: 1, skills }));
  const store = Store.openIn(join(root, 'data'));
  try {
    const items = await syncLock({ tierRoot, tier: 'user', store, dataDir: join(root, 'data') });
    assert.deepEqual(
      items.map((i) => `${i.name}:${i.status}`),
      ['alpha:refused', 'beta:refused'],
    );
    for (const item of items) {
      assert.ok('reason' in item && item.reason, JSON.stringify(item));
      // The two share one fetch: its failure names the source at the commit, and the item names its own skill.
      assert.ok(item.reason.startsWith(`${item.name}: ${repo.url}#${commit}: no such repository (`), item.reason);
      const other = item.name === 'alpha' ? 'beta' : 'alpha';
      assert.ok(!item.reason.includes(other), item.reason);
      assert.equal(item.words?.code, 'source.skillProblem');
      const zh = chinese(item.words!);
      assert.ok(zh.startsWith(`${item.name}：${repo.url}#${commit}：没有这个仓库`), zh);
    }
  } finally {
    store.close();
  }
});

test("a settings file's marketplaces that cannot be read are refused naming file, line and field, in words", () => {
  const file = join(tempDir(), 'settings.json');
  const cases: [string, string][] = [
    ['{"skills": {', `${file}:1: not valid JSON (CloseBraceExpected)`],
    ['[1]', `${file}:1: (top): must be an object`],
    ['{\n  "skills": {\n    "marketplaces": "x"\n  }\n}', `${file}:3: skills.marketplaces: must be a list of strings`],
    [
      '{\n  "skills": {\n    "marketplaces": [\n      "o/r",\n      3\n    ]\n  }\n}',
      `${file}:5: skills.marketplaces[1]: must be a string`,
    ],
  ];
  for (const [text, message] of cases) {
    writeFileSync(file, text);
    for (const run of [() => addMarketplace(file, 'o/r', '/'), () => removeMarketplace(file, 'o/r')]) {
      const r = refusal(run);
      assert.equal(r.message, message);
    }
  }
  writeFileSync(file, '{\n  "skills": {\n    "marketplaces": "x"\n  }\n}');
  assert.equal(refusal(() => removeMarketplace(file, 'o/r')).zh, `${file}:3：skills.marketplaces：必须是字符串列表`);
});
