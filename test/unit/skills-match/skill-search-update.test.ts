// SkillSearch.update follows a changed catalog (skills added, removed, edited, disabled, new synonyms) and ranks
// exactly as a SkillSearch built fresh over the same skills, on the real public skills and the dev set's requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillSearch } from '../../../main/core/skills/use/skill-search.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import type { CatalogEntry } from '../../../main/core/skills/format/types.js';
import { publicSkillFiles } from '../../helpers/tmp.js';
import { entry, manifest } from './entries.js';
import { searchCacheDir } from '../../helpers/search-seed.js';

// The derived Chinese–English map of the test run (test/helpers/search-seed.ts), for every SkillSearch below.
const cacheDir = searchCacheDir();

function publicSkills(): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  for (const file of publicSkillFiles()) {
    const p = parseSkillFile(file);
    if (p.manifest) out.push(entry(p.manifest, { file, dir: dirname(file), realDir: dirname(file) }));
  }
  return out;
}

/** Hits as comparable rows: ties in score may come in another order, so rows are sorted by score, then name. */
function ranked(s: SkillSearch, q: string): string[] {
  return s
    .search(q, { limit: 100 })
    .map((h) => ({ name: h.name, score: h.score }))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .map((h) => `${h.name} ${h.score.toFixed(9)}`);
}

const dev = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'skill-search-devset.json'), 'utf8'),
) as Record<'en' | 'zh', { q: string }[]>;
const requests = [...dev.en, ...dev.zh].map((x) => x.q);

test('after adds, removals, edits and a disabled skill, update ranks exactly like a fresh index', () => {
  const all = publicSkills();
  assert.ok(all.length > 30);
  const first = all.slice(0, 30);
  const s = new SkillSearch(first, { cacheDir });
  // The catalog changes: 10 skills gone, the rest added, one description rewritten, one skill turned off.
  const edited = {
    ...all[12]!,
    manifest: { ...all[12]!.manifest, description: 'Plan a database migration and roll it back safely.' },
  };
  const next = [...all.slice(10, 12), edited, ...all.slice(13)].map((e, i) => (i === 5 ? { ...e, enabled: false } : e));
  s.update(next);
  const fresh = new SkillSearch(next, { cacheDir });
  assert.equal(s.size, fresh.size);
  for (const q of requests) assert.deepEqual(ranked(s, q), ranked(fresh, q), q);
  assert.deepEqual(
    s.search('database migration roll back', { limit: 1 }).map((h) => h.name),
    [edited.manifest.name],
  );
  assert.ok(
    !s.search(next[5]!.manifest.name, { limit: 50 }).some((h) => h.name === next[5]!.manifest.name),
    'disabled skill is gone',
  );
});

test('removing most of the catalog (the postings are compacted) still ranks like a fresh index', () => {
  const all = publicSkills();
  const many = Array.from({ length: 6 }, (_, k) =>
    all.map((e) => ({ ...e, manifest: { ...e.manifest, name: `${e.manifest.name}-${k}` } })),
  ).flat();
  const s = new SkillSearch(many, { cacheDir });
  const keep = many.filter((_, i) => i % 5 === 0);
  s.update(keep);
  const fresh = new SkillSearch(keep, { cacheDir });
  for (const q of requests.slice(0, 60)) assert.deepEqual(ranked(s, q), ranked(fresh, q), q);
});

test('a skill added later brings its own synonyms to the request expansion', () => {
  const s = new SkillSearch([entry(manifest('weather', { description: 'Show the weather forecast.' }))], { cacheDir });
  assert.deepEqual(
    s.search('zorblat').map((h) => h.name),
    [],
  );
  s.update([
    entry(manifest('weather', { description: 'Show the weather forecast.' })),
    entry(
      manifest('ship-it', {
        description: 'Release the build to production.',
        extra: { synonyms: [['release', 'zorblat']] },
      }),
    ),
  ]);
  assert.deepEqual(
    s.search('zorblat').map((h) => h.name),
    ['ship-it'],
  );
});
