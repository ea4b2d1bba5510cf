// The audit's folder fingerprints read for a whole skills folder at once (a cold open asks which of its hundreds of
// folders the store has seen): exactly the folders under it, never a sibling whose name merely starts the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';

test('fingerprintedUnder gives the folders under a parent, nested ones included, and no sibling with a longer name', () => {
  const store = Store.open(join(tempDir(), 'knack.db'));
  try {
    for (const dir of [
      '/w/skills/a',
      '/w/skills/b',
      '/w/skills/b/c',
      '/w/skills-old/x',
      '/w/skillsX',
      '/w/skills',
      '/top',
    ]) {
      store.policy.putFingerprint(dir, `fp-${dir}`, `hash-${dir}`);
    }
    assert.deepEqual([...store.policy.fingerprintedUnder('/w/skills', '/')].sort(), [
      '/w/skills/a',
      '/w/skills/b',
      '/w/skills/b/c',
    ]);
    assert.deepEqual([...store.policy.fingerprintedUnder('/w/skills/', '/')].sort(), [
      '/w/skills/a',
      '/w/skills/b',
      '/w/skills/b/c',
    ]);
    assert.deepEqual([...store.policy.fingerprintedUnder('/', '/')].length, 7);
    assert.deepEqual([...store.policy.fingerprintedUnder('/nowhere', '/')], []);
    // The same answers as one lookup per folder.
    for (const d of ['/w/skills/a', '/w/skills-old/x', '/w/other']) {
      assert.equal(
        store.policy.fingerprintedUnder('/w/skills', '/').has(d),
        d.startsWith('/w/skills/') && store.policy.fingerprint(d) !== undefined,
      );
    }
  } finally {
    store.close();
  }
});
