// The store's record of its own health and of settings it must not forget: databases set aside as damaged (until the
// user acknowledges them, the rules they held count as unreadable) and the last permission ceiling read cleanly.
import { Said } from '../base/index.js';
import type { Db } from './db.js';

export interface StoreDamage {
  id: number;
  /** The database that was damaged. */
  file: string;
  /** Where it is now, byte for byte. */
  movedTo: string;
  /** What is wrong, in English. */
  reason: string;
  /** `reason` as words (absent for a record made before they were kept). */
  words?: Said;
  at: number;
}

export class StateRepo {
  constructor(private readonly db: Db) {}

  recordDamage(d: Omit<StoreDamage, 'id'>): void {
    this.db
      .prepare('INSERT INTO store_damage (file, moved_to, reason, words, at) VALUES (?, ?, ?, ?, ?)')
      .run(d.file, d.movedTo, d.reason, d.words ? JSON.stringify(d.words) : null, d.at);
  }

  /** Damaged databases set aside and not yet acknowledged, oldest first. */
  damage(): StoreDamage[] {
    const rows = this.db
      .prepare(
        'SELECT id, file, moved_to AS movedTo, reason, words, at FROM store_damage WHERE acknowledged_at IS NULL ORDER BY id',
      )
      .all() as (Omit<StoreDamage, 'words'> & { words: string | null })[];
    return rows.map(({ words, ...d }) => {
      const said = words ? Said.safeParse(safeJson(words)) : undefined;
      return said?.success ? { ...d, words: said.data } : d;
    });
  }

  /** Mark every damage record acknowledged (or only those set aside as one of `movedTo`); returns how many were. */
  acknowledgeDamage(now = Date.now(), movedTo?: readonly string[]): number {
    if (!movedTo)
      return this.db.prepare('UPDATE store_damage SET acknowledged_at = ? WHERE acknowledged_at IS NULL').run(now)
        .changes;
    const one = this.db.prepare(
      'UPDATE store_damage SET acknowledged_at = ? WHERE acknowledged_at IS NULL AND moved_to = ?',
    );
    return this.db.transaction(() => movedTo.reduce((n, m) => n + one.run(now, m).changes, 0))();
  }

  /** The last ceiling read from settings files that parsed, for `scope` (JSON as saved), or undefined. */
  lastCeiling(scope: string): unknown {
    const row = this.db.prepare('SELECT ceiling_json AS j FROM settings_ceiling WHERE scope = ?').get(scope) as
      { j: string } | undefined;
    return row ? (JSON.parse(row.j) as unknown) : undefined;
  }

  saveCeiling(scope: string, ceiling: unknown, now = Date.now()): void {
    const json = JSON.stringify(ceiling);
    this.db
      .prepare(
        `INSERT INTO settings_ceiling (scope, ceiling_json, saved_at) VALUES (?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET ceiling_json = excluded.ceiling_json, saved_at = excluded.saved_at
         WHERE settings_ceiling.ceiling_json <> excluded.ceiling_json`,
      )
      .run(scope, json, now);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
