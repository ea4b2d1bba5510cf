// Store.reading: a review pass's thousands of lookups in one read transaction. Its reads see one snapshot; a write of
// the policy repository inside it steps out and commits at once (another process sees it before the pass ends), and
// nothing the pass does is held back or lost when it throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';

/** Run `fn` with a store and a second connection to the same file (another process), both closed after. */
function withPair(fn: (store: Store, other: Database.Database) => void): void {
  const file = join(tempDir(), 'knack.db');
  const store = Store.open(file);
  const other = new Database(file);
  other.pragma('busy_timeout = 5000');
  try {
    fn(store, other);
  } finally {
    other.close();
    store.close();
  }
}

const trustedElsewhere = (other: Database.Database, hash: string): void =>
  void other
    .prepare("INSERT INTO skill_trust (skill, content_hash, decision, decided_at) VALUES ('x', ?, 'trusted', ?)")
    .run(hash, Date.now());

test('reads inside reading() see the database as it was when it began; after it, the new state', () => {
  withPair((store, other) => {
    const seen = store.reading(() => {
      const before = store.policy.trustByHash('h1');
      trustedElsewhere(other, 'h1'); // another process commits meanwhile
      return [before, store.policy.trustByHash('h1')];
    });
    assert.deepEqual(seen, [undefined, undefined]);
    assert.equal(store.policy.trustByHash('h1'), 'trusted');
  });
});

test('a policy write inside reading() commits at once, visible to another connection before the pass ends', () => {
  withPair((store, other) => {
    store.reading(() => {
      store.policy.trustByHash('h0'); // the read transaction is open
      store.policy.acceptPermissions('/skills/a', 'a', 'h2', '{}');
      const row = other
        .prepare('SELECT content_hash AS h FROM skill_accepted_permissions WHERE dir = ?')
        .get('/skills/a');
      assert.deepEqual(row, { h: 'h2' });
      // A write by the other connection meanwhile cannot make a later write of this pass fail (no snapshot upgrade).
      trustedElsewhere(other, 'h3');
      store.policy.setTrust('b', 'h4', 'trusted');
      store.policy.batch(() => {
        store.policy.putFingerprint('/skills/b', 'fp', 'h4');
        store.policy.putAudit('h4', 'v1', '{}');
      });
      // The pass reads on after its writes, and sees them.
      assert.equal(store.policy.trustByHash('h4'), 'trusted');
      assert.equal(store.policy.fingerprint('/skills/b')?.contentHash, 'h4');
    });
    assert.equal((other.prepare('SELECT count(*) AS n FROM audit_fingerprints').get() as { n: number }).n, 1);
    assert.equal(store.policy.trustByHash('h3'), 'trusted');
  });
});

test('reading() inside a write transaction joins it: its writes stand or fall with that transaction', () => {
  withPair((store, other) => {
    assert.throws(
      () =>
        store.policy.batch(() => {
          store.reading(() => store.policy.setTrust('c', 'h5', 'trusted'));
          throw new Error('the batch fails');
        }),
      /the batch fails/,
    );
    assert.equal(store.policy.trustByHash('h5'), undefined);
    store.policy.batch(() => store.reading(() => store.policy.setTrust('c', 'h6', 'trusted')));
    assert.equal(
      (other.prepare('SELECT decision FROM skill_trust WHERE content_hash = ?').get('h6') as { decision: string })
        .decision,
      'trusted',
    );
  });
});

test('reading() passes on what fn throws, keeps the writes made before, and leaves no transaction open', () => {
  withPair((store, other) => {
    assert.throws(
      () =>
        store.reading(() => {
          store.policy.setTrust('d', 'h7', 'trusted');
          store.policy.trustByHash('h7');
          throw new Error('a review failed');
        }),
      /a review failed/,
    );
    assert.equal((other.prepare('SELECT count(*) AS n FROM skill_trust').get() as { n: number }).n, 1);
    // No read left open: another connection can write and this one sees it at once.
    trustedElsewhere(other, 'h8');
    assert.equal(store.policy.trustByHash('h8'), 'trusted');
    assert.equal(
      store.reading(() => store.reading(() => 42)),
      42,
    );
  });
});
