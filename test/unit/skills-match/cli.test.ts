// `knack skills match|search|load` over a real catalog (built-in skills + a project skill in a temp workspace):
// ranked matches with reasons, cross-language search, load order with tokens, JSON output and clear errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';

const home = tempDir();
const data = tempDir();
const ws = tempDir();
writeTree(ws, {
  '.workbuddy/skills/db-backup/SKILL.md': skillMd(
    {
      name: 'db-backup',
      description: 'Back up the Postgres database and verify the dump restores.',
      read_when: ['back up the database', '备份数据库'],
      depends_on: ['deploy-check'],
    },
    '# Backup\n\nRun pg_dump.\n',
  ),
});
const common = cliArgs({ ws, home, data });

test('skills match: the built-in skills trigger on English and Chinese messages, with reasons', async () => {
  const zh = await run(['skills', 'match', '帮我提交代码', ...common]);
  assert.equal(zh.code, 0, zh.err);
  assert.match(zh.out, /^git-commit {2}\[builtin\]/);
  assert.match(zh.out, /the trigger "提交代码" matched "提交代码"/);
  const cases: [string, string][] = [
    ['please review my changes', 'code-review'],
    ['帮我做一下代码审查', 'code-review'],
    ['is it safe to deploy now?', 'deploy-check'],
    ['今天能不能上线', 'deploy-check'],
    ['I want to create a skill for release notes', 'skill-creator'],
    ['帮我新建技能', 'skill-creator'],
    ['请备份数据库', 'db-backup'],
  ];
  for (const [msg, want] of cases) {
    const r = await run(['skills', 'match', msg, ...common, '--json']);
    const j = JSON.parse(r.out) as { matches: { name: string; reasons: unknown[] }[] };
    assert.equal(j.matches[0]?.name, want, msg);
    assert.ok(j.matches[0]!.reasons.length > 0);
  }
  const none = await run(['skills', 'match', 'what is the weather like', ...common]);
  assert.match(none.out, /^no skill triggered/);
});

test('skills match: a project skill that wins words from a built-in says what it was chosen over', async () => {
  const own = tempDir();
  cpSync(
    join(FIXTURES, 'public-skills', 'getsentry__skills', 'skills', 'commit'),
    join(own, '.workbuddy', 'skills', 'commit'),
    { recursive: true },
  );
  const r = await run(['skills', 'match', 'commit my changes', ...cliArgs({ ws: own, home, data })]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^commit {2}\[project\]/);
  assert.match(r.out, /its name "commit" matched "commit"/);
  // The same words as the loaded-skill reason in the Context panel (matchWords), and where the other one went.
  assert.match(
    r.out,
    /^ {4}chosen over builtin skill "git-commit", matched by the same words \(a project skill wins them\); knack skills search still finds it$/m,
  );
  assert.doesNotMatch(r.out, /^git-commit/m);
});

test('skills search: ranks across languages and honours --limit', async () => {
  const r = await run(['skills', 'search', '数据库备份', '--limit', '2', ...common, '--json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { results: { name: string; summary: string }[] };
  assert.equal(j.results.length <= 2, true);
  assert.equal(j.results[0]!.name, 'db-backup');
  const txt = await run(['skills', 'search', 'write a commit message', ...common]);
  assert.match(txt.out.split('\n')[0]!, /^git-commit\s+\[builtin\]/);
  const bad = await run(['skills', 'search', 'x', '--limit', 'lots', ...common]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--limit: expected a whole number/);
});

test('skills load: dependencies first, bodies and token counts; unknown names fail clearly', async () => {
  const r = await run(['skills', 'load', 'db-backup', ...common, '--json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as {
    skills: { name: string; tier: string; reason: string; tokens: number }[];
    totalTokens: number;
    projection: unknown[];
  };
  assert.deepEqual(
    j.skills.map((s) => [s.name, s.tier, s.reason]),
    [
      ['deploy-check', 'builtin', 'dependency'],
      ['db-backup', 'project', 'user'],
    ],
  );
  assert.equal(j.totalTokens, j.skills[0]!.tokens + j.skills[1]!.tokens);
  assert.equal(j.projection.length, 2);
  const txt = await run(['skills', 'load', 'db-backup', ...common]);
  assert.match(txt.out, /^load order: deploy-check → db-backup/);
  assert.match(txt.out, /Run pg_dump\./);
  const missing = await run(['skills', 'load', 'nope', ...common]);
  assert.equal(missing.code, 1);
  assert.equal(missing.err.trim(), 'knack skills load: no skill named "nope"');
});
