// Trigger matching: Chinese inside sentences, /name and $name, synonyms, disabled skills, description words,
// word boundaries, normalisation, and the automaton agreeing with a trigger-by-trigger loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SkillMatcher, matchWords } from '../../../main/core/skills/use/matcher.js';
import { english } from '../../../main/core/base/index.js';

/** Why a skill was auto-loaded, in English (the CLI's line, the Context panel's reason). */
const describeMatch = (m: Parameters<typeof matchWords>[0]): string => english(matchWords(m));
import { entry, manifest } from './entries.js';

const commit = entry(
  manifest('git-commit', { readWhen: ['提交', 'git commit'], description: 'Write commit messages and deploy nothing' }),
);
const review = entry(manifest('code-review', { readWhen: ['代码审查', 'review my code'] }));
const deploy = entry(manifest('deploy-check', { readWhen: ['before deploying'] }));
const names = (ms: { name: string }[]): string[] => ms.map((m) => m.name);

test('matcher matches Chinese triggers inside a sentence', () => {
  const m = new SkillMatcher([commit, review, deploy]);
  const r = m.match('帮我提交代码');
  assert.deepEqual(names(r), ['git-commit']);
  assert.deepEqual(r[0]!.reasons, [{ kind: 'trigger', trigger: '提交', matched: '提交', via: 'exact' }]);
  assert.deepEqual(names(m.match('能不能帮我做一下代码审查？')), ['code-review']);
  assert.deepEqual(names(m.match('提交代码之前跑一遍测试')), ['git-commit']);
});

test('a Chinese trigger must sit on word boundaries, not across two words', () => {
  const hand = entry(manifest('handover', { readWhen: ['交代'] }));
  const m = new SkillMatcher([hand]);
  assert.deepEqual(names(m.match('把事情交代清楚')), ['handover']);
  assert.deepEqual(m.match('帮我提交代码'), [], '交代 spans 提交|代码 and must not match');
});

test('Latin triggers match whole words only, case-insensitively and after Unicode normalisation', () => {
  const t = entry(manifest('tester', { readWhen: ['run tests'] }));
  const m = new SkillMatcher([t, commit]);
  assert.deepEqual(names(m.match('Please RUN the TESTS now')), ['tester'], 'case and filler words');
  assert.deepEqual(
    names(m.match('ＧＩＴ ＣＯＭＭＩＴ please')),
    ['git-commit'],
    'full-width letters are NFKC-normalised',
  );
  assert.deepEqual(names(m.match('running tests')), ['tester'], 'stemmed');
  assert.deepEqual(m.match('rerun testsuite'), [], 'no partial-word matches');
});

test('naming a skill as /name or $name loads it and ranks first', () => {
  const m = new SkillMatcher([commit, review, deploy]);
  const r = m.match('/deploy-check 然后帮我提交代码');
  assert.deepEqual(names(r), ['deploy-check', 'git-commit']);
  assert.deepEqual(r[0]!.reasons, [{ kind: 'named', text: '/deploy-check' }]);
  assert.deepEqual(names(m.match('use $Code-Review on this')), ['code-review']);
  assert.deepEqual(
    names(m.match('（$code-review帮我看看）')),
    ['code-review'],
    'name followed directly by Chinese text',
  );
  assert.deepEqual(m.match('see /usr/bin and $HOME'), [], 'paths and variables that are no skill names');
  // A slash inside a word is not an invocation (the name's words still match as its name trigger does anywhere).
  assert.deepEqual(
    m.match('path/deploy-check').flatMap((x) => x.reasons.map((r) => r.kind)),
    ['trigger'],
    'a slash inside a word is not an invocation',
  );
  assert.deepEqual(names(m.match('／deploy-check now')), ['deploy-check'], 'a full-width slash is a slash after NFKC');
  assert.deepEqual(names(m.match('run ＄code-review')), ['code-review'], 'a full-width dollar sign too');
});

test('the built-in synonym table matches across languages, and reports it', () => {
  const m = new SkillMatcher([commit, review, deploy]);
  const r = m.match('please commit these changes');
  assert.deepEqual(names(r), ['git-commit']);
  assert.deepEqual(r[0]!.reasons, [{ kind: 'trigger', trigger: '提交', matched: 'commit', via: 'synonym' }]);
  assert.deepEqual(names(m.match('上线之前要检查什么')), [], '上线 is deploy, but the trigger is "before deploying"');
  assert.deepEqual(names(m.match('before we ship')), ['deploy-check'], 'ship = deploy');
  assert.deepEqual(names(m.match('需要审查我的代码')), ['code-review'], '审查 and 代码审查 are one group');
  assert.deepEqual(names(m.match('code review please')), ['code-review'], 'code review = 代码审查');
});

test('skills extend the synonym table for their own triggers', () => {
  const notes = entry(
    manifest('release-notes', {
      readWhen: ['release notes'],
      metadata: { synonyms: 'release notes=发布说明=changelog' },
    }),
  );
  const other = entry(
    manifest('other', { readWhen: ['更新说明'], extra: { synonyms: [['更新说明', 'update notes']] } }),
  );
  const m = new SkillMatcher([notes, other]);
  const r = m.match('写一份发布说明');
  assert.deepEqual(names(r), ['release-notes']);
  assert.equal(r[0]!.reasons[0]!.kind === 'trigger' && r[0]!.reasons[0]!.via, 'skill-synonym');
  assert.deepEqual(names(m.match('draft the changelog')), ['release-notes']);
  assert.deepEqual(names(m.match('write update notes')), ['other']);
  // A skill's synonyms widen only its own triggers.
  assert.deepEqual(names(m.match('changelog 更新')), ['release-notes']);
});

test('disabled and shadowed skills are never matched, not even by /name', () => {
  const off = entry(manifest('git-commit', { readWhen: ['提交'] }), { enabled: false });
  const shadowed = entry(manifest('code-review', { readWhen: ['代码审查'] }), {
    shadowedBy: { tier: 'project', file: '/p/SKILL.md' },
  });
  const m = new SkillMatcher([off, shadowed]);
  assert.equal(m.skillCount, 0);
  assert.deepEqual(m.match('帮我提交代码'), []);
  assert.deepEqual(m.match('/git-commit $code-review 代码审查'), []);
});

test("a skill's name read as words is a trigger; words of its description never auto-load it", () => {
  const quiet = entry(
    manifest('database-migration', {
      description: 'Plan and run database migrations safely with rollback',
      readWhen: [],
    }),
  );
  const m = new SkillMatcher([quiet, commit]);
  const r = m.match('run the database migration with rollback');
  assert.deepEqual(names(r), ['database-migration']);
  assert.deepEqual(r[0]!.reasons, [
    { kind: 'trigger', trigger: 'database-migration', matched: 'database migration', via: 'exact', fromName: true },
  ]);
  assert.deepEqual(m.match('plan it safely with rollback'), [], 'description words');
  assert.deepEqual(m.match('migration of the database'), [], "the name's words in another order are not its name");
  assert.deepEqual(m.match('deploy nothing and write commit messages'.replace('commit', 'c0mmit')), []);
  // A name its own read_when already says is one trigger, not two.
  assert.equal(new SkillMatcher([commit]).triggerCount, 2);
});

test('matches are ranked: explicit name, then longer and exact triggers, each with reasons', () => {
  const a = entry(manifest('short', { readWhen: ['deploy'] }));
  const b = entry(manifest('long', { readWhen: ['deploy to production'] }));
  const m = new SkillMatcher([a, b]);
  assert.deepEqual(names(m.match('deploy to production today')), ['long', 'short']);
  assert.deepEqual(names(m.match('$short: deploy to production')), ['short', 'long']);
});

test('the automaton finds exactly what a loop over every trigger finds', () => {
  const vocab = [
    '提交',
    '代码',
    '审查',
    'deploy',
    'review',
    'code',
    'commit',
    'test',
    '测试',
    '部署',
    '交代',
    'run',
    'the',
    'ship',
    '上线',
    '清楚',
    'fix',
    'bug',
  ];
  // Three tiers, so the tier rule runs on both sides too; some skills are named after a word of the vocabulary.
  const tiers = ['builtin', 'user', 'project'] as const;
  const skills = Array.from({ length: 40 }, (_, i) =>
    entry(
      manifest(i % 5 === 0 ? `${vocab[(i * 13) % vocab.length]!}-s${i}` : `s${i}`, {
        readWhen: [
          vocab[i % vocab.length]!,
          `${vocab[(i * 7) % vocab.length]!} ${vocab[(i * 3 + 1) % vocab.length]!}`,
          `${vocab[(i * 5 + 2) % vocab.length]!}${vocab[(i * 11 + 3) % vocab.length]!}`,
        ],
      }),
      { tier: tiers[i % 3]! },
    ),
  );
  const m = new SkillMatcher(skills);
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...vocab, ' ', '，', '帮我', '/s3', '$s17 '), { maxLength: 14 }), (parts) => {
      const msg = parts.join('');
      assert.deepEqual(m.match(msg), m.matchNaive(msg));
    }),
    { numRuns: 300 },
  );
});

test('empty, punctuation-only and very long messages are handled', () => {
  const m = new SkillMatcher([commit, review]);
  assert.deepEqual(m.match(''), []);
  assert.deepEqual(m.match('？！。… --- ///'), []);
  const long = '这是一段很长的文字。'.repeat(2000) + '最后帮我提交代码';
  assert.deepEqual(names(m.match(long)), ['git-commit']);
});

test('a project or user skill matched by the same words as a lower-tier one wins the auto-load; the other is listed as passed over', () => {
  const builtin = entry(manifest('git-commit', { readWhen: ['commit', 'commit my changes', '提交', '提交代码'] }), {
    tier: 'builtin',
  });
  const project = entry(manifest('commit', { readWhen: [] }), { tier: 'project' });
  const deployB = entry(manifest('deploy-check', { readWhen: ['before deploying'] }), { tier: 'builtin' });
  const m = new SkillMatcher([builtin, project, deployB]);
  for (const msg of ['commit my changes', '帮我提交代码', 'please COMMIT these']) {
    const r = m.match(msg);
    assert.deepEqual(names(r), ['commit'], msg);
    assert.deepEqual(r[0]!.over, [{ name: 'git-commit', tier: 'builtin' }], msg);
    assert.deepEqual(m.matchNaive(msg), r);
  }
  // Words of its own keep a lower-tier skill: here "before deploying" is deploy-check's alone.
  assert.deepEqual(names(m.match('commit my changes before deploying')).sort(), ['commit', 'deploy-check']);
  // A lower-tier skill matched on other words as well as the shared ones keeps its load.
  const both = entry(manifest('git-commit', { readWhen: ['commit', 'squash'] }), { tier: 'builtin' });
  assert.deepEqual(names(new SkillMatcher([both, project]).match('commit and squash')).sort(), [
    'commit',
    'git-commit',
  ]);
  // Naming the built-in is the user's choice: it loads.
  assert.deepEqual(names(m.match('/git-commit my changes')), ['git-commit', 'commit']);
  // Without the higher-tier skill nothing is passed over.
  const alone = new SkillMatcher([builtin]).match('commit my changes');
  assert.deepEqual([names(alone), alone[0]!.over], [['git-commit'], undefined]);
});

test('the tier rule orders project over user over built-in, and same-tier skills share words as before', () => {
  const b = entry(manifest('b-review', { readWhen: ['review'] }), { tier: 'builtin' });
  const u = entry(manifest('u-review', { readWhen: ['review'] }), { tier: 'user' });
  const p = entry(manifest('p-review', { readWhen: ['review'] }), { tier: 'project' });
  const r = new SkillMatcher([b, u, p]).match('review this');
  assert.deepEqual(names(r), ['p-review']);
  assert.deepEqual(r[0]!.over, [
    { name: 'u-review', tier: 'user' },
    { name: 'b-review', tier: 'builtin' },
  ]);
  assert.deepEqual(names(new SkillMatcher([b, u]).match('review this')), ['u-review']);
  const u2 = entry(manifest('u2-review', { readWhen: ['review'] }), { tier: 'user' });
  assert.deepEqual(names(new SkillMatcher([u, u2]).match('review this')), ['u-review', 'u2-review']);
});

test('the loaded-skill reason says which read_when phrase matched, and through which synonyms, as knack skills match does', () => {
  const notes = entry(
    manifest('release-notes', { readWhen: ['release notes'], metadata: { synonyms: 'release notes=发布说明' } }),
  );
  const m = new SkillMatcher([commit, notes]);
  assert.equal(
    describeMatch(m.match('please commit these changes')[0]!),
    'the trigger "提交" matched "commit" (synonym)',
  );
  assert.equal(
    describeMatch(m.match('写一份发布说明')[0]!),
    'the trigger "release notes" matched "发布说明" (skill synonym)',
  );
  assert.equal(describeMatch(m.match('/git-commit now')[0]!), 'named as /git-commit');
  const project = entry(manifest('commit', { readWhen: [] }), { tier: 'project' });
  const builtin = entry(manifest('git-commit', { readWhen: ['commit'] }), { tier: 'builtin' });
  assert.equal(
    describeMatch(new SkillMatcher([builtin, project]).match('commit my changes')[0]!),
    'its name "commit" matched "commit"; chosen over the built-in skill "git-commit", matched by the same words (a project skill wins them)',
  );
});
