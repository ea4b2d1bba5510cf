// Numbered schema migrations, applied in order at open inside one transaction each.
// Append only: never edit a migration that has shipped; add a new one.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'skill catalog cache and per-workspace toggles',
    sql: `
      CREATE TABLE skill_cache (
        file_path   TEXT PRIMARY KEY,      -- real path of SKILL.md
        size        INTEGER NOT NULL,
        mtime_ms    REAL NOT NULL,
        parsed_json TEXT NOT NULL,         -- the parse result (manifest + diagnostics) as JSON
        updated_at  INTEGER NOT NULL
      );
      CREATE TABLE skill_toggles (
        workspace   TEXT NOT NULL,         -- absolute workspace path, '' for global
        skill       TEXT NOT NULL,
        enabled     INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (workspace, skill)
      );
    `,
  },
];
