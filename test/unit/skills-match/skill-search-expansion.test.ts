// SkillSearch beyond the skill's own words: the SKILL.md body, related words (WordNet synonyms and Chinese round
// trips) on the document side, WordNet synonyms on the request side; each can be turned off and is measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillSearch, readSkillBody, relatedText } from '../../../main/core/skills/use/skill-search.js';
import { tempDir } from '../../helpers/tmp.js';
import { searchCacheDir } from '../../helpers/search-seed.js';
import { diskSkill, entry, manifest } from './entries.js';

const cacheDir = searchCacheDir();
const skills = [
  entry(manifest('build-doctor', { description: 'Repair broken builds.' })),
  entry(manifest('slide-maker', { description: 'Make presentation slides.' })),
  entry(manifest('meeting-notes', { description: 'Take meeting notes.' })),
];
const top = (s: SkillSearch, q: string) => s.search(q, { limit: 3 }).map((h) => h.name);

test("related words on the document side: a request in other words than the skill's finds it", () => {
  const on = new SkillSearch(skills, { cacheDir, body: false, wordnet: false });
  const off = new SkillSearch(skills, { cacheDir, body: false, wordnet: false, related: false });
  // "restore" is a WordNet synonym of the skill's "repair"; nothing in the request is in its description.
  assert.deepEqual(top(on, 'restore the pipeline'), ['build-doctor']);
  assert.deepEqual(top(off, 'restore the pipeline'), []);
  assert.match(relatedText('Repair broken builds.', { wordnet: 2, pivot: 0 }, cacheDir), /\bfix\b/);
});

test('WordNet synonyms on the request side (opt-in), at a lower weight than the words themselves', () => {
  const on = new SkillSearch(skills, { cacheDir, body: false, related: false, wordnet: { perTerm: 3, weight: 0.3 } });
  const off = new SkillSearch(skills, { cacheDir, body: false, related: false, wordnet: false });
  assert.deepEqual(top(on, 'mend the pipeline'), ['build-doctor']);
  assert.deepEqual(top(off, 'mend the pipeline'), []);
  const weights = on.explain('mend the pipeline');
  assert.equal(weights.mend, undefined, 'only words some skill has are listed');
  assert.equal(on.explain('repair')['repair'], 1);
  assert.ok(weights.repair! > 0 && weights.repair! < 1, JSON.stringify(weights));
});

test("the SKILL.md body is searched at a low weight: its examples say what the description doesn't", () => {
  const root = tempDir();
  const tuning = diskSkill(
    root,
    'pg-tuning',
    { description: 'Postgres best practices.' },
    '# When to use\n\nSlow reads? Add the right indexes to your tables.\n',
  );
  const other = diskSkill(root, 'pg-backup', { description: 'Postgres backups.' }, '# Steps\n\nRun pg_dump nightly.\n');
  const on = new SkillSearch([tuning, other], { cacheDir });
  const off = new SkillSearch([tuning, other], { cacheDir, body: false });
  assert.equal(top(on, 'which indexes should my tables have')[0], 'pg-tuning');
  assert.deepEqual(top(off, 'which indexes should my tables have'), []);
  // The description still outweighs the body.
  assert.equal(top(on, 'postgres backups')[0], 'pg-backup');
});

test('the body reader skips the frontmatter, stops at the cap, and never throws on a missing file', () => {
  const dir = tempDir();
  const file = join(dir, 'SKILL.md');
  writeFileSync(file, `---\nname: x\ndescription: "y"\n---\n# Title\n\n${'word '.repeat(5000)}`);
  const body = readSkillBody(file, 100)!;
  assert.ok(body.startsWith('# Title'));
  assert.equal(body.length, 100);
  assert.equal(readSkillBody(join(dir, 'missing.md'), 100), undefined);
  assert.equal(readSkillBody(undefined, 100), undefined);
});
