// A skill folder's fingerprint, its audit by one auditor and its accepted permissions, read in one lookup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';

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
