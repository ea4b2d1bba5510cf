// create_skill measures the description limit the way the manifest parser does: in characters, not UTF-16 units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../../helpers/tmp.js';
import { createSkill } from '../../../main/core/skills/use/create.js';
import { DESCRIPTION_MAX } from '../../../main/core/skills/format/manifest.js';

test('a description of 600 emoji (1200 UTF-16 units, 600 characters) is accepted; 1025 characters are not', () => {
  const long = '🚀'.repeat(600); // 600 characters, 1200 UTF-16 units
  const r = createSkill(tempDir(), { name: 'rocket-check', description: long, body: '# Steps\n\nCheck the rocket.' });
  assert.equal(r.ok, true, JSON.stringify(r));
  const over = createSkill(tempDir(), {
    name: 'rocket-check',
    description: '🚀'.repeat(DESCRIPTION_MAX + 1),
    body: 'x',
  });
  assert.equal(over.ok, false);
  assert.match(over.ok ? '' : over.error.message, /1025 characters; the limit is 1024/);
});
