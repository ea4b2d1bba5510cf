// The session log's batch append: one transaction, events in order with the seqs it returns (also past the number of
// events one INSERT statement takes), the session's title and last-used time with them, all or nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../../main/core/store/index.js';
import { tempDir } from '../../helpers/tmp.js';

function storeWithSession(): { store: Store; id: string } {
  const store = Store.openIn(tempDir());
  const id = 'a1b2c3d4-0000-4000-8000-000000000001';
  store.sessions.create({ id, workspace: '/w', now: 1 });
  return { store, id };
}

test('a batch of events is stored in order, each with the seq returned for it, in one go with the title and last-used time', () => {
  const { store, id } = storeWithSession();
  try {
    const first = store.sessions.append(id, 'session_started', { type: 'session_started' }, { at: 2 });
    for (const n of [1, 3, 250]) {
      const rows = Array.from({ length: n }, (_, i) => ({ type: `e${n}-${i}`, data: { type: `e${n}-${i}`, i, text: `第${i}条 "quoted"` }, at: 10 + i }));
      rows[0] = { ...rows[0]!, touch: true, title: `title ${n}` } as (typeof rows)[0];
      const before = store.sessions.events(id).length;
      const seqs = store.sessions.appendMany(id, rows);
      assert.equal(seqs.length, n);
      assert.ok(seqs[0]! > first);
      const stored = store.sessions.events(id).slice(before);
      assert.deepEqual(stored.map((e) => e.seq), seqs, `batch of ${n}: the seqs returned are the stored ones, in order`);
      assert.deepEqual(stored.map((e) => e.type), rows.map((r) => r.type));
      assert.deepEqual(stored.map((e) => e.data), rows.map((r) => r.data));
      assert.deepEqual(stored.map((e) => e.at), rows.map((r) => r.at));
      const row = store.sessions.get(id)!;
      assert.equal(row.title, `title ${n}`);
      assert.equal(row.updatedAt, 10);
    }
  } finally {
    store.close();
  }
});

test('a batch that cannot be stored leaves nothing of it behind, also past one statement\'s worth of events', () => {
  const { store, id } = storeWithSession();
  try {
    const before = store.sessions.events(id).length;
    // 150 events (two INSERT statements); the last one cannot be written (a value JSON has no form for), after the
    // first statement's 100 events are in: the whole batch, title included, is rolled back.
    const rows: { type: string; data: Record<string, unknown>; at: number; title?: string }[] = Array.from({ length: 150 }, (_, i) => ({ type: 'x', data: { i }, at: i }));
    rows[0]!.title = 'never';
    rows[149]!.data = { bad: 1n };
    assert.throws(() => store.sessions.appendMany(id, rows), /BigInt/);
    assert.equal(store.sessions.events(id).length, before);
    assert.equal(store.sessions.get(id)!.title, '');
  } finally {
    store.close();
  }
});
