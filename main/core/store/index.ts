// The store: one SQLite file in the app data folder. This module and its repos own every write.
import { join } from 'node:path';
import {
  closeDatabase,
  DamagedDatabaseError,
  openCheckOf,
  openDatabase,
  readMany,
  schemaVersion,
  setDatabaseAside,
  type Db,
  type OpenCheck,
} from './db.js';
import { SkillRepo } from './skill-repo.js';
import { PolicyRepo } from './policy-repo.js';
import { SessionRepo } from './session-repo.js';
import { StateRepo, type StoreDamage } from './state-repo.js';

export type { StoreDamage } from './state-repo.js';

export const DB_FILE = 'knack.db';

export class Store {
  readonly skills: SkillRepo;
  readonly policy: PolicyRepo;
  readonly sessions: SessionRepo;
  readonly state: StateRepo;
  private readonly db: Db;

  private constructor(db: Db) {
    this.db = db;
    this.skills = new SkillRepo(db);
    this.policy = new PolicyRepo(db);
    this.sessions = new SessionRepo(db);
    this.state = new StateRepo(db);
  }

  /**
   * Open (creating and migrating) the database at `file`, or `:memory:`. A damaged file is set aside whole under a
   * timestamped name and a new database takes its place, holding the record of it (damage()): nothing is lost, and
   * until the user acknowledges it the rules the damaged file held count as unreadable.
   */
  static open(file: string): Store {
    let moved: Omit<StoreDamage, 'id'> | undefined;
    let db: Db;
    try {
      db = openDatabase(file);
    } catch (e) {
      if (!(e instanceof DamagedDatabaseError)) throw e;
      const movedTo = setDatabaseAside(file);
      if (movedTo) moved = { file, movedTo, reason: e.reason, words: e.words, at: Date.now() };
      // Moved (by this process or, at the same moment, another): a new database takes its place.
      db = openDatabase(file);
    }
    try {
      const store = new Store(db);
      if (moved) store.state.recordDamage(moved);
      return store;
    } catch (e) {
      // A repository could not prepare its statements (a damaged schema): do not leave the handle open.
      db.close();
      throw e;
    }
  }

  /** Open the store in a data folder. */
  static openIn(dataDir: string): Store {
    return Store.open(join(dataDir, DB_FILE));
  }

  get version(): number {
    return schemaVersion(this.db);
  }

  get journalMode(): string {
    return this.db.pragma('journal_mode', { simple: true }) as string;
  }

  /**
   * Run `fn` with its reads in one read transaction (db.ts readMany): a review pass over thousands of skills takes
   * SQLite's read lock once, not once per lookup. A write of the policy repository inside ends the read first and
   * commits on its own, as it would outside.
   */
  reading<T>(fn: () => T): T {
    return readMany(this.db, fn);
  }

  /** PRAGMA integrity_check: 'ok' or the problems SQLite found. */
  integrityCheck(): string {
    return (this.db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
  }

  /** Damaged databases set aside and not yet acknowledged: while there are any, the user's rules are not all known. */
  damage(): StoreDamage[] {
    return this.state.damage();
  }

  /** The user has seen the damage (and restored what they need from the file set aside): rules count as read again. */
  acknowledgeDamage(movedTo?: readonly string[]): number {
    return this.state.acknowledgeDamage(Date.now(), movedTo);
  }

  /**
   * How the file was found sound at open: SQLite's quick_check, or the stamp its last clean close left (db.ts,
   * CLEAN_STAMP); undefined for `:memory:`.
   */
  get openCheck(): OpenCheck | undefined {
    return openCheckOf(this.db);
  }

  /** Close the database; the last process to close it leaves the stamp that spares the next open its quick_check. */
  close(): void {
    if (this.db.open) closeDatabase(this.db);
  }
}

export {
  type AcceptedPermissions,
  type ApprovalRow,
  type Effect,
  type NewRule,
  type PolicyRepo,
  type Rule,
} from './policy-repo.js';
export { sessionTitle, type AppendRow, type SessionHit, type SessionRow, type SpentRow } from './session-repo.js';
