// Catalog cache snapshots (one per tier folder: folder listings and parse results keyed by revision) and
// per-workspace skill toggles.
import type { Db } from './db.js';

export class SkillRepo {
  private readonly snapGet;
  private readonly snapPut;
  private readonly snapDel;
  private readonly toggleGet;
  private readonly toggleSet;
  private readonly toggleAll;

  constructor(private readonly db: Db) {
    this.snapGet = db.prepare('SELECT snapshot_json FROM skill_snapshots WHERE root = ?').pluck();
    this.snapPut = db.prepare(
      `INSERT INTO skill_snapshots (root, snapshot_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(root) DO UPDATE SET snapshot_json = excluded.snapshot_json, updated_at = excluded.updated_at`,
    );
    this.snapDel = db.prepare('DELETE FROM skill_snapshots WHERE root = ?');
    this.toggleGet = db.prepare('SELECT enabled FROM skill_toggles WHERE workspace = ? AND skill = ?');
    this.toggleSet = db.prepare(
      `INSERT INTO skill_toggles (workspace, skill, enabled, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(workspace, skill) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    );
    this.toggleAll = db.prepare('SELECT skill, enabled FROM skill_toggles WHERE workspace = ?');
  }

  /** The stored catalog snapshot of a tier folder (catalog-cache.ts decodes it), or undefined. */
  getSnapshot(root: string): string | undefined {
    return this.snapGet.get(root) as string | undefined;
  }

  /** Store snapshots of tier folders in one transaction; `undefined` removes a folder's snapshot. */
  putSnapshots(rows: { root: string; json: string | undefined }[]): void {
    const now = Date.now();
    this.db.transaction(() => {
      for (const r of rows) {
        if (r.json === undefined) this.snapDel.run(r.root);
        else this.snapPut.run(r.root, r.json, now);
      }
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
    for (const r of this.toggleAll.all(workspace) as { skill: string; enabled: number }[])
      out.set(r.skill, r.enabled === 1);
    return out;
  }
}
