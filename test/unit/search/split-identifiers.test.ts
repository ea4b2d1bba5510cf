// splitIdentifiers returns text without a capital letter or an identifier separator as it is (the first-token path
// matches every message): for any text, the result must be what the three splitting replaces give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitIdentifiers } from '../../../main/core/search/tokenize.js';

const replaces = (text: string): string =>
  text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_\-./:\\]+/g, ' ');

test('identifier splitting gives what the three replaces give, for any mix of cases, separators, scripts and digits', () => {
  const piece = fc.constantFrom(
    'hello',
    'readFile',
    'HTTPServer',
    'mcp__gh__list_prs',
    'a',
    'Z',
    'ÉCOLE',
    'école',
    'Σίσυφος',
    'ǅ',
    '提交',
    '1',
    '2x',
    ' ',
    '-',
    '_',
    '.',
    '/',
    ':',
    '\\',
    'ｆｕｌｌ',
    'Ｆｕｌｌ',
    '\u00a0',
    'ß',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      assert.equal(splitIdentifiers(text), replaces(text), JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
  assert.equal(splitIdentifiers('fix the build please'), 'fix the build please');
  assert.equal(splitIdentifiers('readFile'), 'read File');
});
