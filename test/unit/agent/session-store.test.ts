// The session log's batch append: one transaction (one INSERT when the session's row is not written), events in order
// with the seqs it returns (also past one INSERT statement's worth), the session's title and last use with them, all or nothing.
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
      const rows = Array.from({ length: n }, (_, i) => ({
        type: `e${n}-${i}`,
        data: { type: `e${n}-${i}`, i, text: `第${i}条 "quoted"` },
        at: 10 + i,
      }));
      rows[0] = { ...rows[0]!, touch: true, title: `title ${n}` } as (typeof rows)[0];
      const before = store.sessions.events(id).length;
      const seqs = store.sessions.appendMany(id, rows);
      assert.equal(seqs.length, n);
      assert.ok(seqs[0]! > first);
      const stored = store.sessions.events(id).slice(before);
      assert.deepEqual(
        stored.map((e) => e.seq),
        seqs,
        `batch of ${n}: the seqs returned are the stored ones, in order`,
      );
      assert.deepEqual(
        stored.map((e) => e.type),
        rows.map((r) => r.type),
      );
      assert.deepEqual(
        stored.map((e) => e.data),
        rows.map((r) => r.data),
      );
      assert.deepEqual(
        stored.map((e) => e.at),
        rows.map((r) => r.at),
      );
      const row = store.sessions.get(id)!;
      assert.equal(row.title, `title ${n}`);
      assert.equal(row.updatedAt, 10);
    }
  } finally {
    store.close();
  }
});

test("a batch that cannot be stored leaves nothing of it behind, also past one statement's worth of events", () => {
  const { store, id } = storeWithSession();
  try {
    const before = store.sessions.events(id).length;
    // 150 events (two INSERT statements); the last one cannot be written (a value JSON has no form for), after the
    // first statement's 100 events are in: the whole batch, title included, is rolled back.
    const rows: { type: string; data: Record<string, unknown>; at: number; title?: string }[] = Array.from(
      { length: 150 },
      (_, i) => ({ type: 'x', data: { i }, at: i }),
    );
    rows[0]!.title = 'never';
    rows[149]!.data = { bad: 1n };
    assert.throws(() => store.sessions.appendMany(id, rows), /BigInt/);
    assert.equal(store.sessions.events(id).length, before);
    assert.equal(store.sessions.get(id)!.title, '');
  } finally {
    store.close();
  }
});

test('a batch with nothing to write on the session row is one INSERT: a row that SQLite refuses takes the rows before it with it', () => {
  const { store, id } = storeWithSession();
  try {
    const before = store.sessions.events(id).length;
    // The third event breaks a constraint (type is NOT NULL) after two rows of the same statement went in: none stays.
    const rows = Array.from({ length: 5 }, (_, i) => ({
      type: i === 2 ? (null as unknown as string) : `t${i}`,
      data: { i },
      at: i,
    }));
    assert.throws(() => store.sessions.appendMany(id, rows), /NOT NULL/);
    assert.equal(store.sessions.events(id).length, before);
    // The same batch, whole, goes in with its seqs in order.
    rows[2]!.type = 't2';
    const seqs = store.sessions.appendMany(id, rows);
    assert.deepEqual(
      store.sessions
        .events(id)
        .slice(before)
        .map((e) => [e.seq, e.type]),
      seqs.map((s, i) => [s, `t${i}`]),
    );
  } finally {
    store.close();
  }
});

test("a session's title and last use are read from its log: its first message names it, its latest message or turn end orders the list", () => {
  const store = Store.openIn(tempDir());
  try {
    const ids = [
      'a0000000-0000-4000-8000-000000000001',
      'b0000000-0000-4000-8000-000000000002',
      'c0000000-0000-4000-8000-000000000003',
    ];
    for (const id of ids) store.sessions.create({ id, workspace: '/w', now: 1 });
    const msg = (id: string, text: string, at: number): void =>
      void store.sessions.append(id, 'user_message', { type: 'user_message', text }, { at });
    msg(ids[0]!, '  first\n\tquestion   here ', 10);
    msg(ids[1]!, 'b asks', 20);
    store.sessions.append(ids[1]!, 'turn_end', { type: 'turn_end', reason: 'end_turn' }, { at: 30 });
    msg(ids[0]!, 'a again', 40);
    // An event that is not the user's activity (a recovery note, say) does not move a session up.
    store.sessions.append(ids[1]!, 'recovered', { type: 'recovered' }, { at: 50 });
    const list = store.sessions.list();
    assert.deepEqual(
      list.map((s) => s.id),
      [ids[0], ids[1], ids[2]],
    );
    assert.deepEqual(
      list.map((s) => s.title),
      ['first question here', 'b asks', ''],
    );
    assert.deepEqual(
      list.map((s) => s.updatedAt),
      [40, 30, 1],
    );
    assert.equal(store.sessions.get(ids[0]!)!.title, 'first question here');
    assert.deepEqual(
      store.sessions.findByPrefix('b000').map((s) => [s.title, s.updatedAt]),
      [['b asks', 30]],
    );
    // A title that was set wins over the first message.
    store.sessions.update(ids[0]!, { title: 'Renamed' });
    assert.equal(store.sessions.get(ids[0]!)!.title, 'Renamed');
  } finally {
    store.close();
  }
});
