// The store: one SQLite file in the app data folder. This module and its repos own every write.
import { join } from 'node:path';
import { openDatabase, schemaVersion, type Db } from './db.js';
import { SkillRepo } from './skill-repo.js';
import { PolicyRepo } from './policy-repo.js';
import { SessionRepo } from './session-repo.js';

export const DB_FILE = 'knack.db';

export class Store {
  readonly skills: SkillRepo;
  readonly policy: PolicyRepo;
  readonly sessions: SessionRepo;
  private readonly db: Db;

  private constructor(db: Db) {
    this.db = db;
    this.skills = new SkillRepo(db);
    this.policy = new PolicyRepo(db);
    this.sessions = new SessionRepo(db);
  }

  /** Open (creating and migrating) the database at `file`, or `:memory:`. */
  static open(file: string): Store {
    const db = openDatabase(file);
    try {
      return new Store(db);
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

  /** PRAGMA integrity_check: 'ok' or the problems SQLite found. */
  integrityCheck(): string {
    return (this.db.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
