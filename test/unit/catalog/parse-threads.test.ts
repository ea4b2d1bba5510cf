// How many threads a cold build parses on: one while audit workers start (they need the cores) and for fewer files
// than a parse worker's start-up is worth; what the caller asks for otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PARALLEL_MIN_FILES, idleCores, parseThreadsFor } from '../../../main/core/skills/catalog/parse-pool.js';

test('a cold build parses in the opening thread while the trust layer starts its audit workers', () => {
  assert.equal(parseThreadsFor(PARALLEL_MIN_FILES * 4, undefined, true), 1);
  assert.equal(parseThreadsFor(800, undefined, true), 1);
});

test('fewer files than a worker start-up is worth parse in one thread; a requested count is honoured', () => {
  assert.equal(parseThreadsFor(PARALLEL_MIN_FILES - 1), 1);
  assert.equal(parseThreadsFor(10, 2), 2);
  assert.equal(parseThreadsFor(10, 2, true), 2, 'an explicit request wins (benches and tests force threads)');
  assert.equal(parseThreadsFor(10, 0), 1);
  assert.equal(parseThreadsFor(10, 64), 8);
  // Enough files and no audit workers starting: the cores the machine's load leaves free.
  assert.equal(parseThreadsFor(PARALLEL_MIN_FILES), Math.min(idleCores(), 8));
});
