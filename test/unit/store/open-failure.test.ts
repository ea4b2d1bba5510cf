// A database that cannot be used (a newer schema, a missing table) gives a clear error and leaves no handle open; a
// corrupt one is set aside (store/damaged.test.ts) and no handle stays open on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store, DB_FILE } from '../../../main/core/store/index.js';
import { tempDir } from '../../helpers/tmp.js';

/** File descriptors of this process open on `file` (Linux /proc; CI runs on Linux). */
function openHandles(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

test('a corrupt database file is set aside with a clear reason and no file handle is left open on it', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  writeFileSync(file, 'this is not a database, just text that a user or a bad sync put here'.repeat(20));
  const store = Store.openIn(dir);
  const [d] = store.damage();
  assert.match(d!.reason, /not a database/);
  assert.equal(openHandles(d!.movedTo), 0);
  store.close();
  assert.equal(openHandles(file), 0);
});

test('a database from a newer Knack is refused and closed again', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  const db = new Database(file);
  db.pragma('user_version = 9999');
  db.close();
  assert.throws(() => Store.openIn(dir), /newer than this Knack/);
  assert.equal(openHandles(file), 0);
});

test('a database missing a table its repositories need is refused and closed again', () => {
  const dir = tempDir();
  const file = join(dir, DB_FILE);
  Store.openIn(dir).close();
  const db = new Database(file);
  db.exec('DROP TABLE skill_toggles');
  db.close();
  assert.throws(() => Store.openIn(dir), /no such table/);
  assert.equal(openHandles(file), 0);
});
