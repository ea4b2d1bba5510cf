// `knack skills eval --queries FILE`: SkillSearch's recall@1/5/10 and MRR over a file of requests, beside plain BM25,
// per language, over the user's own catalog (here the public skills copied into a temp workspace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, tempDir } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';

const home = tempDir();
const data = tempDir();
const ws = tempDir();
// Real skills from the fixtures, installed as project skills.
const repo = join(FIXTURES, 'public-skills', 'obra__superpowers', 'skills');
for (const name of ['systematic-debugging', 'test-driven-development', 'writing-plans', 'brainstorming']) {
  if (existsSync(join(repo, name, 'SKILL.md')))
    cpSync(join(repo, name), join(ws, '.workbuddy', 'skills', name), { recursive: true });
}
const common = cliArgs({ ws, home, data });

test('skills eval reports SkillSearch beside BM25 for each language group of a queries file', async () => {
  assert.equal(readdirSync(join(ws, '.workbuddy', 'skills')).length, 4);
  const file = join(tempDir(), 'q.json');
  writeFileSync(
    file,
    JSON.stringify({
      about: 'ignored',
      en: [
        { q: 'the app crashes on startup, find out why', gold: ['systematic-debugging'] },
        { q: 'write the failing test before the code', gold: 'test-driven-development' },
        { query: 'break this spec into steps before coding', gold: ['writing-plans'] },
      ],
      zh: [{ q: '程序启动时崩溃，帮我查出原因', gold: ['systematic-debugging'] }],
    }),
  );
  const r = await run(['skills', 'eval', '--queries', file, ...common, '--json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as {
    skills: number;
    groups: {
      group: string;
      skillSearch: { queries: number; recallAt5: number; mrr: number };
      bm25: { recallAt5: number };
    }[];
  };
  assert.ok(j.skills >= 4);
  assert.deepEqual(
    j.groups.map((g) => [g.group, g.skillSearch.queries]),
    [
      ['en', 3],
      ['zh', 1],
    ],
  );
  for (const g of j.groups) {
    assert.ok(g.skillSearch.recallAt5 >= 0 && g.skillSearch.recallAt5 <= 1);
    assert.ok(g.skillSearch.mrr <= g.skillSearch.recallAt5 + 1e-9 || g.skillSearch.recallAt5 === 1);
  }
  // A Chinese request against English-only skills: BM25 cannot match a word, SkillSearch translates.
  const zh = j.groups.find((g) => g.group === 'zh')!;
  assert.equal(zh.bm25.recallAt5, 0);
  assert.equal(zh.skillSearch.recallAt5, 1);
  const txt = await run(['skills', 'eval', '--queries', file, ...common]);
  assert.match(txt.out, /^en \(3 requests\) +recall@1 +recall@5 +recall@10 +MRR$/m);
  assert.match(txt.out, /^ {2}BM25 +\d\.\d{3}/m);
  assert.match(txt.out, /^ {2}SkillSearch +\d\.\d{3}/m);
});

test('a plain list mixing languages is also reported per language; unknown gold names are flagged', async () => {
  const file = join(tempDir(), 'q.json');
  writeFileSync(
    file,
    JSON.stringify([
      { query: 'find the root cause of this flaky failure', gold: 'systematic-debugging' },
      { query: '先写测试再写代码', gold: 'test-driven-development' },
      { query: 'deploy to production', gold: 'no-such-skill' },
    ]),
  );
  const r = await run(['skills', 'eval', '--queries', file, ...common]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^all \(3 requests\)/m);
  assert.match(r.out, /^en \(2 requests\)/m);
  assert.match(r.out, /^zh \(1 requests\)/m);
  assert.match(r.out, /warning: 1 requests name gold skills that are not enabled/);
});

test('a bad queries file is one clear line naming the file and the entry', async () => {
  const file = join(tempDir(), 'bad.json');
  writeFileSync(file, JSON.stringify({ en: [{ q: 'fine', gold: ['x'] }, { gold: ['y'] }] }));
  const r = await run(['skills', 'eval', '--queries', file, ...common]);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /bad\.json\.en\[1\]\.query: missing or not a string/);
  const missing = await run(['skills', 'eval', ...common]);
  assert.notEqual(missing.code, 0);
  assert.match(missing.err, /--queries/);
});
