// Trust is looked up by content hash for every held or listed skill of a folder of thousands: the latest decision
// about that content wins, whatever name it was made under, and the lookup searches an index instead of reading every
// decision ever stored once per skill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';

/** Set-up, not a measure: wait until the clock has moved on, so two decisions have different times. */
function nextMs(): void {
  const at = Date.now();
  while (Date.now() === at) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}

test('the latest decision about a content hash wins, whatever name it was made under', () => {
  const store = Store.open(join(tempDir(), 'knack.db'));
  try {
    assert.equal(store.policy.trustByHash('h1'), undefined);
    store.policy.setTrust('deploy', 'h1', 'trusted');
    store.policy.setTrust('deploy', 'h2', 'trusted');
    nextMs();
    store.policy.setTrust('deploy-copy', 'h1', 'distrusted');
    assert.equal(store.policy.trustByHash('h1'), 'distrusted');
    assert.equal(store.policy.trustByHash('h2'), 'trusted');
    nextMs();
    store.policy.setTrust('deploy', 'h1', 'trusted'); // decided again under the first name
    assert.equal(store.policy.trustByHash('h1'), 'trusted');
    assert.equal(store.policy.trustByHash('h3'), undefined);
  } finally {
    store.close();
  }
});

test('a trust lookup by content hash searches an index, not every stored decision', () => {
  const file = join(tempDir(), 'knack.db');
  Store.open(file).close(); // made at the current schema
  const db = new Database(file, { readonly: true });
  try {
    // The query of PolicyRepo.trustByHash.
    const plan = db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT decision FROM skill_trust WHERE content_hash = ? ORDER BY decided_at DESC LIMIT 1',
      )
      .all('h') as { detail: string }[];
    const details = plan.map((r) => r.detail).join('; ');
    assert.match(details, /SEARCH skill_trust USING INDEX skill_trust_hash \(content_hash=\?\)/, details);
    assert.doesNotMatch(details, /SCAN|TEMP B-TREE/, details);
  } finally {
    db.close();
  }
});
