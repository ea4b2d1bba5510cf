// Opens the one SQLite database (better-sqlite3), WAL mode, and runs pending migrations.
// Only modules under main/core/store may hold the Database handle: they own every write.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations as defaultMigrations, type Migration } from './migrations.js';

export type Db = Database.Database;

export function openDatabase(file: string, migrations: Migration[] = defaultMigrations): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations);
    return db;
  } catch (e) {
    // Not a database, a newer schema, locked: the caller reports it; the handle must not stay open behind it.
    db.close();
    throw e;
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db, migrations: Migration[]): void {
  const current = schemaVersion(db);
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  const latest = sorted.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(`database schema version ${current} is newer than this Knack (${latest}); refusing to open it`);
  }
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
