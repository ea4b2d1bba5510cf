// TextIndex (SkillSearch's ranked index): replacing and removing documents, typo and prefix reach, coverage of the
// user's words past 32 of them, and the chunk-cached tokenizer giving exactly the segmenter's terms on real texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { TextIndex } from '../../../main/core/search/text-index.js';
import { terms, termsUncached } from '../../../main/core/search/tokenize.js';
import { publicSkillFiles } from '../../helpers/tmp.js';

interface Doc {
  id: string;
  title: string;
  body: string;
}

function index(docs: Doc[], over: Partial<ConstructorParameters<typeof TextIndex<Doc>>[0]> = {}): TextIndex<Doc> {
  const ix = new TextIndex<Doc>({
    fields: { title: 2, body: 1 },
    idOf: (d) => d.id,
    extract: (d) => ({ title: d.title, body: d.body }),
    ...over,
  });
  ix.addAll(docs);
  return ix;
}

const ids = (ix: TextIndex<Doc>, q: string, limit = 10): string[] => ix.search(q, { limit }).map((h) => h.id);

test('adding a document again under its id replaces it: its old words no longer find it', () => {
  const ix = index([
    { id: 'a', title: 'backup database', body: '' },
    { id: 'b', title: 'render charts', body: '' },
  ]);
  ix.addAll([{ id: 'a', title: 'translate documents', body: '' }]);
  assert.equal(ix.size, 2);
  assert.deepEqual(ids(ix, 'backup'), []);
  assert.deepEqual(ids(ix, 'translate'), ['a']);
  assert.equal(ix.get('a')!.title, 'translate documents');
});

test('removed documents never come back, before and after the postings are compacted', () => {
  const docs = Array.from({ length: 200 }, (_, i) => ({
    id: `d${i}`,
    title: i % 2 ? 'deploy service' : 'deploy website',
    body: `note ${i}`,
  }));
  const ix = index(docs);
  ix.remove('d1');
  assert.ok(!ids(ix, 'deploy service', 200).includes('d1'));
  assert.ok(!ix.has('d1'));
  // Past a quarter removed, the postings are rebuilt without them.
  for (let i = 0; i < 150; i++) ix.remove(`d${i}`);
  assert.equal(ix.size, 50);
  const left = ids(ix, 'deploy', 200);
  assert.equal(left.length, 50);
  assert.ok(left.every((id) => Number(id.slice(1)) >= 150));
  assert.deepEqual(ids(ix, 'service', 1).length, 1);
});

test('a removed document no longer counts towards how rare a word is', () => {
  const ix = index([
    { id: 'a', title: 'kubernetes', body: '' },
    { id: 'b', title: 'kubernetes', body: '' },
    { id: 'c', title: 'helm', body: '' },
    { id: 'd', title: 'other', body: '' },
  ]);
  const before = ix.search('kubernetes')[0]!.score;
  ix.remove('b');
  // One document of three has the word now, instead of two of four: rarer, so it scores higher.
  assert.ok(ix.search('kubernetes')[0]!.score > before);
});

test('typos within the allowed edits are forgiven in the user’s own words; prefixes reach longer words', () => {
  const ix = index([
    { id: 'k8s', title: 'kubernetes tuning', body: '' },
    { id: 'shot', title: 'screenshot capture', body: '' },
  ]);
  // Terms are stems: "kubernetes" is indexed as "kubernet".
  assert.deepEqual(ids(ix, 'kubenretes', 1), []); // two edits (a swap) with the default of one
  assert.deepEqual(ids(ix, 'kuberntes', 1), ['k8s']); // one deletion
  assert.deepEqual(ids(ix, 'kubernetz', 1), ['k8s']); // one substitution
  assert.deepEqual(
    ids(index([{ id: 'k8s', title: 'kubernetes', body: '' }], { maxFuzzy: 2, fuzzy: 0.3 }), 'kubenretes'),
    ['k8s'],
  );
  assert.deepEqual(ids(index([{ id: 'k8s', title: 'kubernetes', body: '' }], { fuzzy: 0 }), 'kubernetz'), []);
  assert.deepEqual(ids(ix, 'screen', 1), ['shot']);
  assert.deepEqual(ids(ix, 'sc', 1), [], 'prefixes shorter than prefixMin do not expand');
  // An exact match outranks a prefix match of the same word.
  const both = index([
    { id: 'long', title: 'screenshots', body: '' },
    { id: 'exact', title: 'screen', body: '' },
  ]);
  assert.deepEqual(ids(both, 'screen'), ['exact', 'long']);
});

/** Reference Levenshtein distance (full table). */
function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return d[a.length]![b.length]!;
}

test('a request word reaches exactly the indexed words it prefixes or is one edit from (random words)', () => {
  // Consonant-only words: the stemmer leaves them as they are, so index terms are the words themselves.
  const word = (min: number) =>
    fc.array(fc.constantFrom('b', 'c', 'd', 'f'), { minLength: min, maxLength: 8 }).map((a) => a.join(''));
  fc.assert(
    fc.property(fc.uniqueArray(word(3), { minLength: 1, maxLength: 30 }), word(5), (vocab, q) => {
      const ix = index(vocab.map((w) => ({ id: w, title: w, body: '' })));
      const got = new Set(ids(ix, q, 100));
      const want = new Set(vocab.filter((w) => w.startsWith(q) || levenshtein(q, w) <= 1));
      assert.deepEqual(got, want);
    }),
    { numRuns: 300 },
  );
});

test('typo and prefix reach stay with the user’s own words, not their translations', () => {
  const ix = index([{ id: 'x', title: 'databases', body: '' }], { expand: (t) => (t === '数据库' ? ['databas'] : []) });
  // The expansion "databas" would prefix-match "databases" if expansions could reach; they cannot.
  assert.deepEqual(ids(ix, '数据库'), []);
  assert.deepEqual(ids(ix, 'databas'), ['x']);
});

test('coverage counts the user’s distinct words, also past 32 of them', () => {
  const ix = index([
    { id: 'both', title: 'alpha', body: 'omega' },
    { id: 'one', title: 'omega omega omega', body: 'omega omega' },
  ]);
  assert.deepEqual(ids(ix, 'alpha omega', 1), ['both']);
  // "alpha" is the request's 1st word and "omega" its 33rd (and 40th): words that match nothing change no score.
  const filler = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `zz${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}q`,
    );
  const short = ix.search('alpha omega')[0]!.score;
  for (const n of [31, 38]) {
    const [hit] = ix.search(`alpha ${filler(n).join(' ')} omega`, { limit: 1 });
    assert.equal(hit!.id, 'both');
    assert.ok(Math.abs(hit!.score - short) < 1e-9 * short, `${n} fillers: ${hit!.score} vs ${short}`);
  }
});

test('each hit reports which of its fields matched which terms', () => {
  const ix = index([{ id: 'a', title: 'deploy checks', body: 'run the deploy checklist' }]);
  const [hit] = ix.search('deploy');
  assert.deepEqual(hit!.match, { title: ['deploi'], body: ['deploi'] }); // stemmed, as indexed
});

test('the cached tokenizer gives exactly the segmenter’s terms on every public SKILL.md and on random text', () => {
  const files = publicSkillFiles();
  assert.ok(files.length > 20);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    assert.deepEqual(terms(text), termsUncached(text), f);
    assert.deepEqual(terms(text, { keepStopwords: true }), termsUncached(text, { keepStopwords: true }), f);
  }
  const pieces = [
    'deploy',
    'readFile',
    'mcp__gh__list',
    "don't",
    'don’t',
    'v1.2',
    '60,000',
    '部署到',
    '生产环境',
    '数据库',
    'café',
    'Ａ',
    '\u00a0',
    '\u3000',
    ' ',
    '\n',
    '\t',
    '。',
    '，',
    '\u0301',
    '👍🏽',
    'e.g.',
    '_',
    '-',
    'ÄÖ',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(terms(text), termsUncached(text), JSON.stringify(text));
    }),
    { numRuns: 500 },
  );
});
