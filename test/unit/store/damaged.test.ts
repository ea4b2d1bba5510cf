// A damaged knack.db (empty, truncated, garbled, a broken header or page) is never treated as new or written over:
// it is moved aside under a timestamped name, byte for byte, and the new database remembers that it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
  utimesSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { Store, DB_FILE } from '../../../main/core/store/index.js';
import { tempDir } from '../../helpers/tmp.js';
import { assertSaid, chinese } from '../../helpers/words.js';

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A real knack.db with a session and a deny rule in it, closed (checkpointed: no -wal left). */
function realDatabase(dir: string): string {
  const store = Store.openIn(dir);
  store.policy.insertRule({ effect: 'deny', tool: 'read_file', path: 'secret/**' });
  const s = store.sessions.create({ id: 's1', workspace: '/ws', title: 'kept' });
  for (let i = 0; i < 200; i++) store.sessions.append(s.id, 'user_message', { text: `message ${i} `.repeat(20) });
  store.close();
  return join(dir, DB_FILE);
}

function openDamaged(dir: string, before: string): Store {
  const store = Store.openIn(dir);
  const damage = store.damage();
  assert.equal(damage.length, 1, 'the damage is recorded in the new database');
  const d = damage[0]!;
  assert.equal(d.file, join(dir, DB_FILE));
  assert.match(basename(d.movedTo), /^knack\.db\.damaged-\d{8}T\d{6}Z(-\d+)?$/);
  assert.equal(sha(d.movedTo), before, 'the damaged file is kept byte for byte');
  assert.ok(d.reason.length > 0);
  // Kept as words too: the window says them in its language (SQLite's own message verbatim in them).
  assertSaid(d.words, d.reason);
  // The database in its place is a new, whole one.
  assert.equal(store.integrityCheck(), 'ok');
  assert.deepEqual(store.policy.rules(), []);
  return store;
}

test('a zero-byte knack.db is moved aside, not treated as new', () => {
  const dir = tempDir();
  writeFileSync(join(dir, DB_FILE), '');
  const store = openDamaged(dir, sha(join(dir, DB_FILE)));
  assert.match(store.damage()[0]!.reason, /empty/);
  assert.equal(statSync(store.damage()[0]!.movedTo).size, 0);
  store.close();
});

test('a truncated knack.db is moved aside whole, once', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  truncateSync(file, Math.floor(statSync(file).size / 2) + 100);
  const before = sha(file);
  const store = openDamaged(dir, before);
  store.close();
  // Opening again does not move anything more: the new database is sound, the record stays until acknowledged.
  const again = Store.openIn(dir);
  assert.equal(again.damage().length, 1);
  assert.equal(readdirSync(dir).filter((f) => f.includes('.damaged-')).length, 1);
  again.close();
});

test('a garbled knack.db is moved aside, and a second damage gets a name of its own', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  writeFileSync(file, 'this is not a database, just text that a user or a bad sync put here'.repeat(20));
  const store = openDamaged(dir, sha(file));
  assert.match(store.damage()[0]!.reason, /not a database/);
  assert.match(chinese(store.damage()[0]!.words!), /^不是数据库文件/);
  const first = store.damage()[0]!.movedTo;
  store.close();
  writeFileSync(file, 'garbled again'.repeat(400));
  const second = Store.openIn(dir);
  // The first record was in the database damaged now: it went aside with it; the first file is still there.
  const [d] = second.damage();
  assert.notEqual(d!.movedTo, first);
  assert.ok(existsSync(first) && existsSync(d!.movedTo));
  second.close();
});

test('a knack.db with a damaged header is moved aside', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from('SQLite format 9\0'), 0, 16, 0);
  closeSync(fd);
  openDamaged(dir, sha(file)).close();
});

test('a knack.db with a damaged page is moved aside', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  const pageSize = 4096;
  const pages = statSync(file).size / pageSize;
  assert.ok(pages > 4);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, pageSize * Math.floor(pages / 2));
  closeSync(fd);
  openDamaged(dir, sha(file)).close();
});

test('a damaged knack.db with a WAL keeps the WAL beside it', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  writeFileSync(file, 'garbled'.repeat(1000));
  writeFileSync(`${file}-wal`, 'committed pages that belong to it');
  const walBefore = sha(`${file}-wal`);
  const store = openDamaged(dir, sha(file));
  const movedWal = `${store.damage()[0]!.movedTo}-wal`;
  assert.equal(sha(movedWal), walBefore);
  store.close();
});

test('acknowledging the damage clears the record and leaves the moved file where it is', () => {
  const dir = tempDir();
  writeFileSync(join(dir, DB_FILE), '');
  const store = Store.openIn(dir);
  const [d] = store.damage();
  assert.equal(store.acknowledgeDamage(), 1);
  assert.deepEqual(store.damage(), []);
  assert.ok(existsSync(d!.movedTo));
  store.close();
});

test('a database that is only locked or newer is refused, not moved', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  const db = new Database(file);
  db.pragma('user_version = 9999');
  db.close();
  assert.throws(() => Store.openIn(dir), /newer than this Knack/);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('damaged')),
    [],
  );
});

test('a new database is never seen half-made: knack.db appears whole', () => {
  const dir = tempDir();
  const store = Store.openIn(dir);
  assert.equal(store.integrityCheck(), 'ok');
  assert.deepEqual(store.damage(), []);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('.new-')),
    [],
  );
  store.close();
});

test('a cleanly closed knack.db opens on its stamp without reading every page, once per clean close', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  assert.ok(existsSync(`${file}-clean`), 'the last close leaves its stamp');
  const store = Store.openIn(dir);
  assert.equal(store.openCheck, 'clean close');
  assert.ok(!existsSync(`${file}-clean`), 'the stamp is used up by the open');
  assert.equal(store.policy.rules()[0]?.path, 'secret/**');
  // A second connection while the first is open: the WAL beside the file says it is in use, so it is checked.
  const second = Store.openIn(dir);
  assert.equal(second.openCheck, 'quick_check');
  second.close();
  assert.ok(!existsSync(`${file}-clean`), 'a close that is not the last one leaves no stamp');
  store.close();
  const third = Store.openIn(dir);
  assert.equal(third.openCheck, 'clean close');
  third.close();
});

test('a WAL beside a stamped knack.db (a crash, another program) makes the open check every page', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  // Another program holds the file open in WAL mode (as a Knack that was killed leaves it: the WAL stays).
  const other = new Database(file);
  other.pragma('journal_mode = WAL');
  other.prepare('SELECT count(*) FROM policy_rules').get();
  assert.ok(existsSync(`${file}-wal`));
  const store = Store.openIn(dir);
  assert.equal(store.openCheck, 'quick_check');
  store.close();
  other.close();
});

test('a page garbled after a clean close is found, its modification time put back', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  const st = statSync(file);
  // Past the clock tick of the stamp (file-system times are coarse): the write below moves the change time.
  const until = st.ctimeMs + 50;
  while (Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096 * Math.floor(st.size / 4096 / 2));
  closeSync(fd);
  // As near as a program can put it back (seconds as a number: a Date drops the fraction of a millisecond and can land
  // a millisecond early); the change time moves regardless.
  utimesSync(file, st.atimeMs / 1000, st.mtimeMs / 1000);
  assert.equal(Math.trunc(statSync(file).mtimeMs), Math.trunc(st.mtimeMs));
  openDamaged(dir, sha(file)).close();
});

test('a stamp left beside another file (the database replaced by a copy) does not spare the check', () => {
  const dir = tempDir();
  const file = realDatabase(dir);
  const st = statSync(file);
  const copy = `${file}.copy`;
  writeFileSync(copy, readFileSync(file));
  utimesSync(copy, st.atimeMs / 1000, st.mtimeMs / 1000);
  renameSync(copy, file);
  const store = Store.openIn(dir);
  assert.equal(store.openCheck, 'quick_check');
  store.close();
});
