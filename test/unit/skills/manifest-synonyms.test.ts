// A skill's own `synonyms:` key (used by the trigger matcher) is a known key: no unknown-key warning, kept as written
// in `extra.synonyms` where the matcher reads it, and groups the matcher would ignore are reported with file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSkillText } from '../../../main/core/skills/format/manifest.js';
import { SkillMatcher } from '../../../main/core/skills/use/matcher.js';

const file = 'skills/release-notes/SKILL.md';

test("a top-level synonyms list is accepted without an unknown-key warning and extends the skill's triggers", () => {
  const text = [
    '---',
    'name: release-notes',
    'description: Write release notes from merged pull requests.',
    'read_when:',
    '  - release notes',
    'synonyms:',
    '  - [release notes, 发布说明, changelog]',
    '---',
    'body',
  ].join('\n');
  const r = parseSkillText(text, file);
  assert.ok(r.manifest);
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.manifest.extra.synonyms, [['release notes', '发布说明', 'changelog']]);
  const m = new SkillMatcher([{ manifest: r.manifest, tier: 'user', enabled: true }]);
  const hit = m.match('帮我写一下发布说明');
  assert.deepEqual(
    hit.map((x) => x.name),
    ['release-notes'],
  );
  assert.equal(hit[0]!.reasons[0]!.kind === 'trigger' && hit[0]!.reasons[0]!.via, 'skill-synonym');
});

test('synonym groups the matcher would ignore are warnings naming the group and line; the skill still indexes', () => {
  const text = [
    '---',
    'name: release-notes',
    'description: Write release notes.',
    'synonyms:',
    '  - [ship, 发车]',
    '  - [lonely]',
    '  - {a: b}',
    '---',
  ].join('\n');
  const r = parseSkillText(text, file);
  assert.ok(r.manifest, 'warnings never drop the skill');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.code, d.field, d.line, d.message]),
    [
      ['warning', 'field.synonyms', 'synonyms[1]', 4, 'a group needs at least two phrases (ignored)'],
      ['warning', 'field.synonyms', 'synonyms[2]', 4, 'expected a list of phrases (ignored)'],
    ],
  );
  assert.ok(!r.diagnostics.some((d) => d.code === 'field.unknown'));
});

test('metadata.synonyms in the `a=b; c=d` form is checked the same way', () => {
  const text = [
    '---',
    'name: deployer',
    'description: Deploy.',
    'metadata:',
    '  synonyms: "ship=发车; lonely"',
    '---',
  ].join('\n');
  const r = parseSkillText(text, file.replace('release-notes', 'deployer'));
  assert.ok(r.manifest);
  assert.equal(r.manifest.metadata.synonyms, 'ship=发车; lonely');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.field, d.line, d.message]),
    [['metadata.synonyms[1]', 4, 'a group needs at least two phrases (ignored)']],
  );
});

test('synonyms that are not a list of groups are a warning, not an error', () => {
  const r = parseSkillText(['---', 'name: x', 'description: y', 'synonyms: 42', '---'].join('\n'), 'skills/x/SKILL.md');
  assert.ok(r.manifest);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.field, d.line]),
    [['warning', 'synonyms', 4]],
  );
});
