// Catalog cache rows (parse results keyed by file revision) and per-workspace skill toggles.
import type { Db } from './db.js';

export interface CachedParse {
  filePath: string;
  size: number;
  mtimeMs: number;
  parsedJson: string;
}

export class SkillRepo {
  private readonly getStmt;
  private readonly allStmt;
  private readonly putStmt;
  private readonly delStmt;
  private readonly toggleGet;
  private readonly toggleSet;
  private readonly toggleAll;

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare('SELECT file_path AS filePath, size, mtime_ms AS mtimeMs, parsed_json AS parsedJson FROM skill_cache WHERE file_path = ?');
    this.allStmt = db.prepare('SELECT file_path AS filePath, size, mtime_ms AS mtimeMs, parsed_json AS parsedJson FROM skill_cache');
    this.putStmt = db.prepare(
      `INSERT INTO skill_cache (file_path, size, mtime_ms, parsed_json, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(file_path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
         parsed_json = excluded.parsed_json, updated_at = excluded.updated_at`,
    );
    this.delStmt = db.prepare('DELETE FROM skill_cache WHERE file_path = ?');
    this.toggleGet = db.prepare('SELECT enabled FROM skill_toggles WHERE workspace = ? AND skill = ?');
    this.toggleSet = db.prepare(
      `INSERT INTO skill_toggles (workspace, skill, enabled, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(workspace, skill) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    );
    this.toggleAll = db.prepare('SELECT skill, enabled FROM skill_toggles WHERE workspace = ?');
  }

  getCached(filePath: string): CachedParse | undefined {
    return this.getStmt.get(filePath) as CachedParse | undefined;
  }

  /** Every cached row, for a warm start that stats files and compares revisions in one pass. */
  allCached(): Map<string, CachedParse> {
    const out = new Map<string, CachedParse>();
    for (const row of this.allStmt.all() as CachedParse[]) out.set(row.filePath, row);
    return out;
  }

  putCached(rows: CachedParse[]): void {
    const now = Date.now();
    this.db.transaction(() => {
      for (const r of rows) this.putStmt.run(r.filePath, r.size, r.mtimeMs, r.parsedJson, now);
    })();
  }

  deleteCached(filePaths: string[]): void {
    this.db.transaction(() => {
      for (const p of filePaths) this.delStmt.run(p);
    })();
  }

  /** Explicit toggle for a skill in a workspace, or undefined when the user never set one. */
  getToggle(workspace: string, skill: string): boolean | undefined {
    const row = this.toggleGet.get(workspace, skill) as { enabled: number } | undefined;
    return row ? row.enabled === 1 : undefined;
  }

  setToggle(workspace: string, skill: string, enabled: boolean): void {
    this.toggleSet.run(workspace, skill, enabled ? 1 : 0, Date.now());
  }

  toggles(workspace: string): Map<string, boolean> {
    const out = new Map<string, boolean>();
    for (const r of this.toggleAll.all(workspace) as { skill: string; enabled: number }[]) out.set(r.skill, r.enabled === 1);
    return out;
  }
}
