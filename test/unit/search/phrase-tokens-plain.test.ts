// Plain ASCII messages are split without Intl.Segmenter (the first-token path matches every message): the tokens
// must be exactly what the segmenter gives, for any text the fast path accepts; anything else still goes to ICU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { phraseTokens, segmentedTokens } from '../../../main/core/search/phrases.js';
import { normalize, splitIdentifiers } from '../../../main/core/search/tokenize.js';

const viaSegmenter = (text: string) => segmentedTokens(normalize(splitIdentifiers(text)));

test("phrase tokens of plain English text equal the segmenter's, for any mix of words, digits, spaces and punctuation", () => {
  const piece = fc.constantFrom(
    'hello',
    'Fix',
    'the',
    'build',
    'readFile',
    'v2',
    '2024',
    'a',
    'please',
    'commits',
    ' ',
    '  ',
    '\t',
    '\n',
    ',',
    '!',
    '?',
    ';',
    '.',
    ':',
    '-',
    '_',
    '/',
    "'",
    '"',
    '(',
    ')',
    '1,000',
    '3.14',
    'e.g.',
    "don't",
    'x_y',
    '提交',
    'é',
    '\u00a0',
    '\ufeff',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(phraseTokens(text), viaSegmenter(text), JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test('the words of a plain message are matched with their stems, fillers dropped, as before', () => {
  assert.deepEqual(
    phraseTokens('Please commit my changes, then push!').map((t) => t.key),
    viaSegmenter('Please commit my changes, then push!').map((t) => t.key),
  );
  assert.deepEqual(
    phraseTokens('Please commit my changes, then push!').map((t) => t.surface),
    ['commit', 'changes', 'then', 'push'],
  );
  // Text the fast path does not take (an apostrophe, a number with a comma, Chinese) is segmented by ICU.
  for (const t of ["don't push", 'pay 1,000 now', '帮我提交代码', 'e.g. this'])
    assert.deepEqual(phraseTokens(t), viaSegmenter(t), t);
});
