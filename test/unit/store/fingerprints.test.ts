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

test('fingerprintAndAudit gives the fingerprint with the report of that auditor only and the accepted permissions, in one lookup', () => {
  const store = Store.open(join(tempDir(), 'knack.db'));
  try {
    store.policy.putFingerprint('/w/skills/a', 'fp-a', 'hash-a', '{"v":1,"d":[],"f":[]}');
    store.policy.putAudit('hash-a', 'auditor-2', '{"level":"P2"}');
    assert.deepEqual(store.policy.fingerprintAndAudit('/w/skills/a', 'auditor-2'), {
      fingerprint: 'fp-a',
      contentHash: 'hash-a',
      tree: '{"v":1,"d":[],"f":[]}',
      reportJson: '{"level":"P2"}',
      accepted: null,
    });
    store.policy.acceptPermissions('/w/skills/a', 'a', 'hash-0', '{"read":["docs/**"]}');
    assert.deepEqual(store.policy.fingerprintAndAudit('/w/skills/a', 'auditor-2')?.accepted, {
      contentHash: 'hash-0',
      permissionsJson: '{"read":["docs/**"]}',
    });
    // A report by another auditor version is not this one's: the folder is audited again.
    assert.equal(store.policy.fingerprintAndAudit('/w/skills/a', 'auditor-3')?.reportJson, null);
    assert.equal(store.policy.fingerprintAndAudit('/w/skills/b', 'auditor-2'), undefined);
  } finally {
    store.close();
  }
});
