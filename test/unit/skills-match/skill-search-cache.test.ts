// SkillSearch's kept index (skill-search-cache.ts): loaded instead of built when the skills are the same, ranking
// exactly as a fresh build; stale when anything it was made from changed; moved aside and rebuilt when damaged, and
// never able to hold a skill that is not searchable now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillSearch } from '../../../main/core/skills/use/skill-search.js';
import { indexCacheKey, writeIndexCache } from '../../../main/core/skills/use/skill-search-cache.js';
import { parseSkillFile } from '../../../main/core/skills/format/manifest.js';
import type { CatalogEntry } from '../../../main/core/skills/format/types.js';
import { RankedIndex } from '../../../main/core/search/index.js';
import { publicSkillFiles, tempDir } from '../../helpers/tmp.js';
import { entry } from './entries.js';
import { searchCacheDir } from '../../helpers/search-seed.js';

// The derived Chinese–English map of the test run (test/helpers/search-seed.ts), for every SkillSearch below.
const cacheDir = searchCacheDir();

function publicSkills(): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  for (const file of publicSkillFiles()) {
    const p = parseSkillFile(file);
    if (!p.manifest) continue;
    const st = statSync(file);
    out.push(
      entry(p.manifest, { file, dir: dirname(file), realDir: dirname(file), size: st.size, mtimeMs: st.mtimeMs }),
    );
  }
  return out;
}

function ranked(s: SkillSearch, q: string): string[] {
  return s
    .search(q, { limit: 100 })
    .map((h) => ({ name: h.name, score: h.score, matched: JSON.stringify(h.matched) }))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .map((h) => `${h.name} ${h.score} ${h.matched}`);
}

const dev = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'skill-search-devset.json'), 'utf8'),
) as Record<'en' | 'zh', { q: string }[]>;
const requests = [...dev.en, ...dev.zh].map((x) => x.q);

function sameAsFresh(s: SkillSearch, entries: CatalogEntry[]): void {
  const fresh = new SkillSearch(entries, { cacheDir });
  assert.equal(s.size, fresh.size);
  for (const q of requests) {
    assert.deepEqual(ranked(s, q), ranked(fresh, q), q);
    assert.deepEqual(s.explain(q), fresh.explain(q), q);
  }
}

test('a kept index is loaded, not built, and ranks exactly like a fresh build (and updates like one)', () => {
  const all = publicSkills();
  assert.ok(all.length > 30);
  const file = join(tempDir(), 'skill-search.idx');
  const first = new SkillSearch(all, { cacheDir, indexCache: file });
  assert.equal(first.source, 'built');
  assert.equal(first.cacheProblem, undefined);
  assert.ok(existsSync(file));
  const loaded = new SkillSearch(all, { cacheDir, indexCache: file });
  assert.equal(loaded.source, 'cache');
  sameAsFresh(loaded, all);
  // A loaded index follows the catalog as a built one does.
  const next = all
    .slice(3)
    .map((e, i) => (i === 0 ? { ...e, manifest: { ...e.manifest, description: 'Roll back a failed deploy.' } } : e));
  loaded.update(next);
  sameAsFresh(loaded, next);
});

test('an edited, disabled or added skill makes the kept index stale: built again over the skills as they are', () => {
  const all = publicSkills();
  const file = join(tempDir(), 'skill-search.idx');
  new SkillSearch(all, { cacheDir, indexCache: file });
  const off = all[4]!;
  const disabled = all.map((e) => (e === off ? { ...e, enabled: false } : e));
  const s = new SkillSearch(disabled, { cacheDir, indexCache: file });
  assert.equal(s.source, 'built');
  assert.ok(!s.search(off.manifest.name, { limit: 100 }).some((h) => h.name === off.manifest.name));
  sameAsFresh(s, disabled);
  const edited = disabled.map((e, i) => (i === 7 ? { ...e, mtimeMs: e.mtimeMs + 1 } : e));
  assert.equal(new SkillSearch(edited, { cacheDir, indexCache: file }).source, 'built', 'a SKILL.md with a new mtime');
  assert.equal(new SkillSearch(edited, { cacheDir, indexCache: file }).source, 'cache');
  assert.equal(
    new SkillSearch(edited, { cacheDir, indexCache: file, body: false }).source,
    'built',
    'another way of indexing',
  );
});

/** The damaged files set aside beside `file`. */
const asideOf = (file: string): string[] =>
  readdirSync(dirname(file)).filter((f) => f.startsWith('skill-search.idx.damaged-'));

test('a damaged kept index (garbled runs, cut short, not an index) is moved aside and rebuilt, never read', () => {
  const all = publicSkills();
  const damages: [string, (file: string) => void][] = [
    [
      'runs out of range',
      (f) => {
        const b = readFileSync(f);
        b.fill(0x7f, b.length - 4096);
        writeFileSync(f, b);
      },
    ],
    ['cut short', (f) => truncateSync(f, statSync(f).size - 10)],
    ['not an index', (f) => writeFileSync(f, 'a user put text here')],
    [
      'a header that does not parse',
      (f) => {
        const b = readFileSync(f);
        b.fill(0x7b, 12, 40);
        writeFileSync(f, b);
      },
    ],
  ];
  for (const [what, damage] of damages) {
    const file = join(tempDir(), 'skill-search.idx');
    new SkillSearch(all, { cacheDir, indexCache: file });
    damage(file);
    const before = readFileSync(file);
    const s = new SkillSearch(all, { cacheDir, indexCache: file });
    assert.equal(s.source, 'built', what);
    assert.match(s.cacheProblem ?? '', /moved aside as .*skill-search\.idx\.damaged-/, what);
    const aside = asideOf(file);
    assert.equal(aside.length, 1, what);
    assert.ok(readFileSync(join(dirname(file), aside[0]!)).equals(before), `${what}: kept byte for byte`);
    sameAsFresh(s, all);
    assert.equal(
      new SkillSearch(all, { cacheDir, indexCache: file }).source,
      'cache',
      `${what}: a sound index is kept again`,
    );
  }
});

test('a kept index holding a skill that is not searchable now is refused, though its key is right', () => {
  const all = publicSkills();
  const off = all[2]!;
  const now = all.map((e) => (e === off ? { ...e, enabled: false } : e));
  const file = join(tempDir(), 'skill-search.idx');
  // A real index of every skill, the disabled one included, written under the key of the skills searchable now.
  const honest = new SkillSearch(now, { cacheDir, indexCache: file });
  assert.equal(honest.source, 'built');
  const header = readFileSync(file);
  const key = JSON.parse(header.toString('utf8', 12, 12 + header.readUInt32LE(8))).key as string;
  assert.match(key, /^[0-9a-f]{64}$/);
  const wide = new RankedIndex({ fields: { name: { weight: 1, b: 0.7 } } });
  for (const e of all) wide.add(e.manifest.name, { name: e.manifest.name });
  writeIndexCache(file, key, wide.snapshot());
  const s = new SkillSearch(now, { cacheDir, indexCache: file });
  assert.equal(s.source, 'built');
  assert.match(s.cacheProblem ?? '', /not the ones its key names/);
  assert.ok(!s.search(off.manifest.name, { limit: 100 }).some((h) => h.name === off.manifest.name));
  sameAsFresh(s, now);
  // The key is over every name in order: another set of names is another key.
  assert.notEqual(indexCacheKey({}, ['a', 'b'], ['1', '2']), indexCacheKey({}, ['a'], ['1']));
});
