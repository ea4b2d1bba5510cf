import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Store } from '../../../main/core/store/index.js';
import { openDatabase } from '../../../main/core/store/db.js';
import { tempDir } from '../../helpers/tmp.js';

const require = createRequire(import.meta.url);

test('every native module loads and works under this Node', () => {
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  assert.equal(db.prepare('select 1 + 1 as v').get().v, 2);
  db.close();
  const ivm = require('isolated-vm');
  const isolate = new ivm.Isolate({ memoryLimit: 8 });
  const ctx = isolate.createContextSync();
  assert.equal(ctx.evalSync('6 * 7'), 42);
  isolate.dispose();
});

test('store opens a real SQLite file in WAL mode with migrations applied', () => {
  const dir = tempDir();
  const store = Store.openIn(dir);
  assert.equal(store.journalMode, 'wal');
  assert.ok(store.version >= 1);
  store.skills.setToggle('/ws', 'git-commit', false);
  store.close();
  const again = Store.openIn(dir);
  assert.equal(again.skills.getToggle('/ws', 'git-commit'), false, 'toggle survives reopening');
  assert.equal(again.skills.getToggle('/ws', 'other'), undefined);
  again.close();
});

test('store refuses a database from a newer Knack instead of corrupting it', () => {
  const file = join(tempDir(), 'k.db');
  openDatabase(file, [{ version: 99, name: 'future', sql: 'CREATE TABLE future(x)' }]).close();
  assert.throws(() => Store.open(file), /newer than this Knack/);
});
