// RankedIndex (the one index behind SkillSearch and ToolSearch): replacing and removing documents, typo and prefix
// reach, coverage of the user's words past 32 of them, and the chunk-cached tokenizer giving exactly the segmenter's
// terms on real texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { RankedIndex, type RankedIndexOptions } from '../../../main/core/search/ranked-index.js';
import { terms, termsUncached } from '../../../main/core/search/tokenize.js';
import { FIXTURES, publicSkillFiles } from '../../helpers/tmp.js';

interface Doc {
  id: string;
  title: string;
  body: string;
}

function index(docs: Doc[], over: Partial<RankedIndexOptions> = {}): RankedIndex {
  const ix = new RankedIndex({ fields: { title: { weight: 2, b: 0.7 }, body: { weight: 1, b: 0.7 } }, ...over });
  for (const d of docs) ix.add(d.id, { title: d.title, body: d.body }, d);
  return ix;
}

const ids = (ix: RankedIndex, q: string, limit = 10): string[] => ix.search(q, limit).map((h) => h.id);

test('adding a document again under its id replaces it: its old words no longer find it', () => {
  const ix = index([
    { id: 'a', title: 'backup database', body: '' },
    { id: 'b', title: 'render charts', body: '' },
  ]);
  ix.add('a', { title: 'translate documents' }, 'new');
  assert.equal(ix.size, 2);
  assert.deepEqual(ids(ix, 'backup'), []);
  assert.deepEqual(ids(ix, 'translate'), ['a']);
  assert.equal(ix.get('a'), 'new');
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
  // Past half removed, the documents are renumbered without them.
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
  const before = ix.search('kubernetes', 10)[0]!.score;
  ix.remove('b');
  // One document of three has the word now, instead of two of four: rarer, so it scores higher.
  assert.ok(ix.search('kubernetes', 10)[0]!.score > before);
});

test('typos in words the index does not know are forgiven; prefixes reach longer words', () => {
  const ix = index([
    { id: 'k8s', title: 'kubernetes tuning', body: '' },
    { id: 'shot', title: 'screenshot capture', body: '' },
    { id: 'cap', title: 'capture', body: '' },
  ]);
  // Terms are stems: "kubernetes" is indexed as "kubernet", "capture" as "captur".
  assert.deepEqual(ids(ix, 'kuberntes', 1), ['k8s']); // one deletion
  assert.deepEqual(ids(ix, 'kubenretes', 1), ['k8s']); // a swap: two edits, allowed from 8 letters on
  assert.deepEqual(ids(ix, 'captor', 1), ['cap']); // one substitution in a shorter word
  assert.deepEqual(ids(ix, 'cpature', 1), []); // two edits in a word under 8 letters
  assert.deepEqual(ids(ix, 'xapture', 1), [], 'a typo never changes the first letter');
  assert.deepEqual(ids(index([{ id: 'k8s', title: 'kubernetes', body: '' }], { fuzzyWeight: 0 }), 'kubernetz'), []);
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

test('a request word reaches exactly the words it is, prefixes, or (unknown) is a typo of (random words)', () => {
  // Consonant-only words: the stemmer leaves them as they are, so index terms are the words themselves.
  const word = (min: number) =>
    fc.array(fc.constantFrom('b', 'c', 'd', 'f'), { minLength: min, maxLength: 9 }).map((a) => a.join(''));
  fc.assert(
    fc.property(fc.uniqueArray(word(3), { minLength: 1, maxLength: 30 }), word(5), (vocab, q) => {
      const ix = index(vocab.map((w) => ({ id: w, title: w, body: '' })));
      const got = new Set(ids(ix, q, 100));
      const sorted = [...vocab].sort();
      const prefixed = sorted.filter((w) => w !== q && w.startsWith(q)).slice(0, 24);
      const max = q.length >= 8 ? 2 : 1;
      const typos =
        vocab.includes(q) || prefixed.length
          ? []
          : sorted.filter((w) => w[0] === q[0] && levenshtein(q, w) <= max).slice(0, 8);
      assert.deepEqual(got, new Set([...(vocab.includes(q) ? [q] : []), ...prefixed, ...typos]));
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

test('adjacent Chinese words are also expanded joined, as one dictionary word', () => {
  const ix = index([{ id: 'db', title: 'database', body: '' }], {
    expand: (t) => (t === '数据库' ? ['database'] : []),
  });
  assert.deepEqual(terms('数据库'), ['数据', '库']); // the segmenter splits it
  assert.deepEqual(ids(ix, '数据库'), ['db']);
});

test('coverage counts the user’s distinct words, also with more than 32 of them', () => {
  const ix = index(
    [
      { id: 'both', title: 'alpha', body: 'omega' },
      { id: 'one', title: 'omega omega omega', body: 'omega omega' },
    ],
    { coverage: 1 },
  );
  assert.deepEqual(ids(ix, 'alpha omega', 1), ['both']);
  // "alpha" is the request's 1st word and "omega" its 33rd (and 40th): words that match nothing change no score.
  const filler = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `zz${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}q`,
    );
  const short = ix.search('alpha omega', 1)[0]!.score;
  for (const n of [31, 38]) {
    const [hit] = ix.search(`alpha ${filler(n).join(' ')} omega`, 1);
    assert.equal(hit!.id, 'both');
    assert.ok(Math.abs(hit!.score - short) < 1e-9 * short, `${n} fillers: ${hit!.score} vs ${short}`);
  }
});

test('a hit reports which of its fields hold which terms of the request', () => {
  const ix = index([{ id: 'a', title: 'deploy checks', body: 'run the deploy checklist' }]);
  assert.deepEqual(ix.matched('a', ix.queryPlan('deploy')), { title: ['deploi'], body: ['deploi'] }); // stemmed
});

test('the cached and ASCII tokenizer paths give exactly the segmenter’s terms on real and random text', () => {
  const dir = join(FIXTURES, 'tool-retrieval');
  const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as { name: string; description: string }[];
  const queries = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')) as { query: string }[];
  for (const t of [...tools.map((x) => `${x.name} ${x.description}`), ...queries.map((q) => q.query)])
    assert.deepEqual(terms(t), termsUncached(t), t.slice(0, 80));
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
