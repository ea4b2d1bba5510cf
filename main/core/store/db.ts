// Opens the one SQLite database (better-sqlite3), WAL mode, and runs pending migrations. A damaged file (empty,
// truncated, garbled, a broken header or page) is never opened as new nor written over: it is set aside, whole.
// Only modules under main/core/store may hold the Database handle: they own every write.
import Database from 'better-sqlite3';
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { english, say, setAside, writeFileAtomic, type Said } from '../base/index.js';
import { migrations as defaultMigrations, type Migration } from './migrations.js';

export type Db = Database.Database;

/** The database file is damaged: SQLite cannot read it as a database, or finds it inconsistent. */
export class DamagedDatabaseError extends Error {
  /** What is wrong, in English ("the file is empty (0 bytes)", SQLite's own message). */
  readonly reason: string;
  constructor(
    readonly file: string,
    /** What is wrong, as words (SQLite's own message is their `detail`, verbatim). */
    readonly words: Said,
  ) {
    const reason = english(words);
    super(`${file} is damaged: ${reason}`);
    this.reason = reason;
  }
}

/** SQLite's result codes for a file that is not a database or whose pages do not hold together. */
const DAMAGE_CODE = /^SQLITE_(NOTADB|CORRUPT)/;

/** The files SQLite keeps beside a database, moved and removed with it. */
const SIDE_FILES = ['-wal', '-shm', '-journal'];

function configure(db: Db): void {
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}

/**
 * Open the database at `file`, creating it when there is none. Throws DamagedDatabaseError when the file is there but
 * damaged (the caller sets it aside: setDatabaseAside), and a plain Error when it cannot be used for another reason (a newer
 * schema, locked, no permission): those leave the file as it is.
 */
export function openDatabase(file: string, migrations: Migration[] = defaultMigrations): Db {
  if (file === ':memory:') return openExisting(file, migrations);
  mkdirSync(dirname(file), { recursive: true });
  let size: number | undefined;
  try {
    size = statSync(file).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // SQLite would take an empty file for a new database and write over it: an empty knack.db once held something
  // (a new one is never seen empty: createDatabase), so it is damage, not a fresh start.
  if (size === 0) throw new DamagedDatabaseError(file, say('store.empty'));
  if (size === undefined) createDatabase(file, migrations);
  else checkHeader(file);
  // Read before SQLite opens the file (opening it in WAL mode puts a WAL beside it).
  return openExisting(file, migrations, closedCleanly(file));
}

const MAGIC = Buffer.from('SQLite format 3\0');

/**
 * The first bytes must be SQLite's header before SQLite is given the file: on a file that is not a database SQLite
 * fails, and closing that failed handle deletes the WAL beside it (which may hold the last commits).
 */
function checkHeader(file: string): void {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (n < head.length) throw new DamagedDatabaseError(file, say('store.short', { bytes: n }));
  if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new DamagedDatabaseError(file, say('store.notDatabase'));
}

/** How an opened database was found sound: SQLite's quick_check, or the stamp of a clean close. */
export type OpenCheck = 'quick_check' | 'clean close';

const checks = new WeakMap<Db, OpenCheck>();

/** How `db` was found sound when it was opened (openDatabase). */
export function openCheckOf(db: Db): OpenCheck | undefined {
  return checks.get(db);
}

/**
 * The stamp a clean close leaves beside the database (`knack.db-clean`): the file's device, inode, size and
 * modification and change times in nanoseconds, taken after the last connection closed and SQLite removed its WAL.
 *
 * Why this may stand in for quick_check (which reads every page: ~470 ms for a 10 MB file under load): the check is
 * there for accidental damage (a bad sync or copy, a disk error, a crash in a write), and every way bytes reach the
 * file outside SQLite moves its change time (ctime, which no program can set back) or replaces the file (a new inode).
 * A crash while the file was open leaves the WAL or journal beside it, so the next open checks. A match therefore says
 * the bytes are the ones a Knack process closed cleanly, and that process had itself found them sound at its open (by
 * a check or by a stamp) and changed them only through SQLite. Any doubt checks: no stamp, another stamp, a WAL or a
 * journal beside the file (also while another Knack holds it open), a stamp that cannot be read or written.
 * Not covered: a write by another program within the same clock tick as the stamp's stat (a few ms), and bit rot,
 * which a check would not have prevented either: SQLite then reports the page as corrupt when it is read, and the
 * gate treats the rules as unreadable (every tool call asks). A deliberately crafted database passes any check.
 */
const CLEAN_STAMP = '-clean';

function stampOf(file: string): string {
  const st = statSync(file, { bigint: true });
  return `v1 ${st.dev} ${st.ino} ${st.size} ${st.mtimeNs} ${st.ctimeNs}`;
}

/** True when `file` carries the stamp of a clean close and nothing beside it says otherwise; the stamp is used up. */
function closedCleanly(file: string): boolean {
  let stamp: string;
  try {
    stamp = readFileSync(file + CLEAN_STAMP, 'utf8');
  } catch {
    return false;
  }
  // A stamp speaks for one open: taken away now, written again by a clean close.
  try {
    rmSync(file + CLEAN_STAMP, { force: true });
  } catch {
    /* a crash after this open still leaves its WAL, and the file's times move with any write */
  }
  if (SIDE_FILES.some((s) => existsSync(file + s))) return false;
  try {
    return stamp === stampOf(file);
  } catch {
    return false;
  }
}

/**
 * Close a database opened by openDatabase; when this was its last connection (SQLite removed the WAL), leave the stamp
 * of a clean close so the next open need not read every page (see CLEAN_STAMP). Never throws for the stamp.
 */
export function closeDatabase(db: Db): void {
  const file = db.name;
  if (db.open) db.close();
  if (db.memory || !checks.has(db)) return;
  try {
    if (SIDE_FILES.some((s) => existsSync(file + s))) return; // another connection has it open
    writeFileAtomic(file + CLEAN_STAMP, stampOf(file));
  } catch {
    // no stamp: the next open checks every page
  }
}

function openExisting(file: string, migrations: Migration[], clean = false): Db {
  let db: Db;
  try {
    db = new Database(file, file === ':memory:' ? {} : { fileMustExist: true });
  } catch (e) {
    throw asDamage(file, e);
  }
  try {
    configure(db);
    const check: OpenCheck = clean ? 'clean close' : 'quick_check';
    if (file !== ':memory:' && !clean) {
      // Reads every page once (measured here, under load: ~2 ms for a 1 MB file, 230–470 ms for 10–20 MB): a broken
      // page found now is set aside whole, rather than found by the query that needed it after the rules read as
      // "none". Skipped only for a file as a clean close left it (CLEAN_STAMP).
      const found = (db.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check);
      if (found.join() !== 'ok')
        throw new DamagedDatabaseError(file, say('store.quickCheck', { detail: found.slice(0, 3).join('; ') }));
    }
    migrate(db, migrations);
    if (file !== ':memory:') checks.set(db, check);
    return db;
  } catch (e) {
    // Not a database, a newer schema, locked: the caller reports it; the handle must not stay open behind it.
    db.close();
    throw asDamage(file, e);
  }
}

function asDamage(file: string, e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && DAMAGE_CODE.test(code)
    ? new DamagedDatabaseError(file, say('store.sqlite', { detail: (e as Error).message }))
    : e;
}

/**
 * Make a new database under a temporary name and link it into place whole: another process opening the folder at the
 * same moment sees no file or a complete one, never an empty one (which it would set aside as damaged). When another
 * process linked its own first, that one is used.
 */
function createDatabase(file: string, migrations: Migration[]): void {
  const tmp = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const db = new Database(tmp);
    try {
      configure(db);
      migrate(db, migrations);
    } finally {
      db.close(); // checkpoints the WAL into the file and removes it
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  } finally {
    for (const f of [tmp, ...SIDE_FILES.map((s) => tmp + s)]) if (existsSync(f)) unlinkSync(f);
  }
}

/** Move a damaged database (and its WAL, shared-memory and journal files) aside: see core/base's setAside. */
export function setDatabaseAside(file: string): string | undefined {
  return setAside(file, { sideFiles: SIDE_FILES });
}

/** Handles inside a read transaction opened by readMany (and not stepped out of it by a write: writeOutsideRead). */
const openReads = new WeakSet<Db>();

/**
 * Run `fn` with its reads in one read transaction. Outside a transaction SQLite takes and drops its read lock (and
 * looks at the WAL) for every statement: a warm open of 5,000 skills does ~15,000 point lookups, ~35 µs each that way
 * and ~6 µs inside one transaction (measured on the scale bench's database). The reads see one snapshot: the database
 * as it was when `fn` began, with this connection's own writes. Inside a transaction already, `fn` joins it.
 */
export function readMany<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  db.exec('BEGIN');
  openReads.add(db);
  try {
    return fn();
  } finally {
    openReads.delete(db);
    // COMMIT, not ROLLBACK, also when fn threw: a write that joined (one that does not step out) stays as it would have
    // outside, committed.
    if (db.inTransaction) db.exec('COMMIT');
  }
}

/**
 * Run a write (a statement or a whole transaction) outside the read transaction of readMany, when one is open: it is
 * ended first and begun again after, so the write commits as it would without readMany, and never has to upgrade a
 * read snapshot that another process has since written past (SQLite's SQLITE_BUSY_SNAPSHOT).
 */
export function writeOutsideRead<T>(db: Db, fn: () => T): T {
  if (!openReads.has(db)) return fn();
  openReads.delete(db);
  db.exec('COMMIT');
  try {
    return fn();
  } finally {
    db.exec('BEGIN');
    openReads.add(db);
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
