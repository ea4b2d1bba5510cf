// SkillSearch across languages: Chinese requests find English-only skills and the reverse, through the
// CC-CEDICT map and the synonym table; disabled skills never come back; names, prefixes and typos rank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillSearch } from '../../../main/core/skills/use/skill-search.js';
import { entry, manifest } from './entries.js';
import { searchCacheDir } from '../../helpers/search-seed.js';

// The derived Chinese–English map of the test run (test/helpers/search-seed.ts), for every SkillSearch below.
const cacheDir = searchCacheDir();

const english = [
  entry(manifest('postgres-tuning', { description: 'Optimize slow Postgres database queries and indexes.' })),
  entry(manifest('browser-screenshots', { description: 'Capture a screenshot of a web page in a headless browser.' })),
  entry(manifest('git-commit', { description: 'Write a good commit message and commit staged changes.' })),
  entry(manifest('release-notes', { description: 'Draft release notes from merged pull requests.' })),
];
const chinese = [
  entry(manifest('shujuku-beifen', { description: '备份数据库并验证备份文件可以恢复。' })),
  entry(manifest('bushu-jiancha', { description: '部署到生产环境之前检查配置和回滚方案。' })),
  entry(manifest('wendang-fanyi', { description: '把技术文档翻译成通顺的中文。' })),
];
const search = new SkillSearch([...english, ...chinese], { cacheDir });
const top = (q: string, n = 1): string[] => search.search(q, { limit: n }).map((h) => h.name);
// Per direction: the skills in the other language, plus an unrelated one in the request's own language.
const forChinese = new SkillSearch([...english, chinese[2]!], { cacheDir });
const forEnglish = new SkillSearch(
  [...chinese, entry(manifest('weather', { description: 'Show the weather forecast.' }))],
  { cacheDir },
);
const topZh = (q: string): string | undefined => forChinese.search(q, { limit: 1 })[0]?.name;
const topEn = (q: string): string | undefined => forEnglish.search(q, { limit: 1 })[0]?.name;

test('a Chinese request finds a skill described only in English', () => {
  assert.equal(topZh('数据库查询太慢了'), 'postgres-tuning');
  assert.equal(topZh('给网页截图'), 'browser-screenshots');
  assert.equal(topZh('帮我写提交信息'), 'git-commit');
  assert.equal(topZh('浏览器'), 'browser-screenshots');
});

test('an English request finds a skill described only in Chinese', () => {
  assert.equal(topEn('back up my database'), 'shujuku-beifen');
  assert.equal(topEn('check the config before deploying to production'), 'bushu-jiancha');
  assert.equal(topEn('translate technical documentation'), 'wendang-fanyi');
});

test('results carry names and summaries; own-language words outrank translations', () => {
  const hits = search.search('database', { limit: 3 });
  assert.ok(hits.length >= 2);
  assert.equal(hits[0]!.name, 'postgres-tuning');
  assert.equal(hits[0]!.summary, 'Optimize slow Postgres database queries and indexes.');
  assert.ok(
    hits.some((h) => h.name === 'shujuku-beifen'),
    'the Chinese database skill is found through 数据库',
  );
});

test('prefix and typo-tolerant matching, and names weigh more than descriptions', () => {
  assert.deepEqual(top('screensh'), ['browser-screenshots']);
  assert.deepEqual(top('postgers tuning'), ['postgres-tuning']);
  const s = new SkillSearch(
    [
      entry(manifest('lint-fix', { description: 'Run the formatter.' })),
      entry(manifest('formatter', { description: 'Fix lint errors in code.' })),
    ],
    { cacheDir },
  );
  assert.equal(s.search('lint')[0]!.name, 'lint-fix');
});

test('triggers are searched, and disabled or shadowed skills never appear', () => {
  const s = new SkillSearch(
    [
      entry(manifest('quiet', { description: 'Something unrelated.', readWhen: ['golden path'] })),
      entry(manifest('off', { description: 'golden path helper' }), { enabled: false }),
      entry(manifest('hidden', { description: 'golden path helper' }), { shadowedBy: { tier: 'project', file: '/x' } }),
    ],
    { cacheDir },
  );
  assert.deepEqual(
    s.search('golden path').map((h) => h.name),
    ['quiet'],
  );
  assert.equal(s.size, 1);
});

test('empty and filler-only requests return nothing instead of everything', () => {
  assert.deepEqual(search.search(''), []);
  assert.deepEqual(search.search('please help me with the'), []);
  assert.deepEqual(search.search('帮我 一下'), []);
});
