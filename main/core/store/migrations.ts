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
  {
    version: 2,
    name: 'policy rules, skill approvals and trust decisions, audit cache',
    sql: `
      CREATE TABLE policy_rules (
        id          TEXT PRIMARY KEY,
        effect      TEXT NOT NULL CHECK (effect IN ('allow', 'ask', 'deny')),
        tool        TEXT NOT NULL,         -- tool name, category (@read @write @execute @network) or *
        workspace   TEXT,                  -- real workspace path; NULL = everywhere
        skill       TEXT,                  -- only for this skill's scripts
        command     TEXT,                  -- command prefix for command tools
        path        TEXT,                  -- workspace-relative glob
        host        TEXT,                  -- network host or *.suffix
        note        TEXT,
        created_at  INTEGER NOT NULL
      );
      CREATE TABLE skill_approvals (
        id            TEXT PRIMARY KEY,
        kind          TEXT NOT NULL,       -- install | update | discovered
        skill         TEXT NOT NULL,
        tier          TEXT NOT NULL,
        source        TEXT NOT NULL,       -- where the content comes from (folder, zip, discovered folder)
        target        TEXT NOT NULL,       -- where it goes / lives
        content_hash  TEXT NOT NULL,       -- the exact content that was audited
        level         TEXT NOT NULL,
        report_json   TEXT NOT NULL,       -- findings + permission diff
        status        TEXT NOT NULL DEFAULT 'pending',  -- pending | approved | rejected
        created_at    INTEGER NOT NULL,
        decided_at    INTEGER
      );
      CREATE INDEX skill_approvals_hash ON skill_approvals (content_hash, status);
      CREATE TABLE skill_trust (
        skill         TEXT NOT NULL,
        content_hash  TEXT NOT NULL,       -- trust is bound to this exact content
        decision      TEXT NOT NULL,       -- trusted | distrusted
        decided_at    INTEGER NOT NULL,
        PRIMARY KEY (skill, content_hash)
      );
      CREATE TABLE audit_cache (
        content_hash  TEXT NOT NULL,
        auditor       TEXT NOT NULL,       -- auditor rules version; a new version re-audits
        report_json   TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (content_hash, auditor)
      );
      CREATE TABLE audit_fingerprints (
        dir           TEXT PRIMARY KEY,    -- real skill folder
        fingerprint   TEXT NOT NULL,       -- hash of (path, size, mtime) of every file
        content_hash  TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'skill catalog cache: one snapshot per tier folder (folder listings and parse results)',
    sql: `
      DROP TABLE skill_cache;              -- per-file rows, replaced by one snapshot per tier folder
      CREATE TABLE skill_snapshots (
        root          TEXT PRIMARY KEY,    -- the tier folder as configured (e.g. ~/.workbuddy/skills)
        snapshot_json TEXT NOT NULL,       -- folder listings and parse results with their revisions (catalog-cache.ts)
        updated_at    INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'permissions last accepted for each discovered skill folder (a widening needs the user again)',
    sql: `
      CREATE TABLE skill_accepted_permissions (
        dir              TEXT PRIMARY KEY,   -- real skill folder
        skill            TEXT NOT NULL,
        content_hash     TEXT NOT NULL,      -- the content these permissions came from
        permissions_json TEXT NOT NULL,
        accepted_at      INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'chat sessions: append-only event log per conversation (agent/)',
    sql: `
      CREATE TABLE chat_sessions (
        id          TEXT PRIMARY KEY,
        workspace   TEXT NOT NULL,         -- the open folder (real path)
        title       TEXT NOT NULL DEFAULT '',
        provider    TEXT,                  -- provider id and model last used (never a key)
        model       TEXT,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX chat_sessions_updated ON chat_sessions (updated_at);
      CREATE TABLE chat_events (
        id          INTEGER PRIMARY KEY,   -- global order; an event is committed before it is shown
        session_id  TEXT NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
        type        TEXT NOT NULL,
        data_json   TEXT NOT NULL,
        at          INTEGER NOT NULL
      );
      CREATE INDEX chat_events_session ON chat_events (session_id, id);
    `,
  },
  {
    version: 6,
    name: 'damaged databases set aside, and the last permission ceiling read from settings files that parsed',
    sql: `
      CREATE TABLE store_damage (
        id               INTEGER PRIMARY KEY,
        file             TEXT NOT NULL,      -- the database that was damaged
        moved_to         TEXT NOT NULL,      -- where it is now, whole
        reason           TEXT NOT NULL,
        at               INTEGER NOT NULL,
        acknowledged_at  INTEGER             -- until then the rules it held count as unreadable
      );
      CREATE TABLE settings_ceiling (
        scope            TEXT PRIMARY KEY,   -- 'user', or 'workspace:' + the workspace's real path
        ceiling_json     TEXT NOT NULL,
        saved_at         INTEGER NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: 'full-text search over chat messages and whole answers (FTS5, trigram), kept in step by triggers',
    // Trigram tokens find any run of three characters: English words, and Chinese, which has no spaces between words
    // for a word tokenizer to split on. Rows use the event's id as rowid (a user_message, or an assistant_end for the
    // whole answer its text_deltas make), so deleting an event (a session's cascade) deletes its row in one step.
    sql: `
      CREATE VIRTUAL TABLE chat_search USING fts5(
        body,                              -- a user's message, or one model reply's whole text
        session_id UNINDEXED,
        kind UNINDEXED,                    -- message | answer
        tokenize = 'trigram'
      );
      CREATE TRIGGER chat_search_message AFTER INSERT ON chat_events
        WHEN NEW.type = 'user_message' AND json_valid(NEW.data_json)
      BEGIN
        INSERT INTO chat_search (rowid, body, session_id, kind)
          SELECT NEW.id, t, NEW.session_id, 'message' FROM (SELECT json_extract(NEW.data_json, '$.text') AS t)
          WHERE typeof(t) = 'text' AND t <> '';
      END;
      CREATE TRIGGER chat_search_answer AFTER INSERT ON chat_events
        WHEN NEW.type = 'assistant_end'
      BEGIN
        INSERT INTO chat_search (rowid, body, session_id, kind)
          SELECT NEW.id, t, NEW.session_id, 'answer' FROM (
            SELECT group_concat(json_extract(d.data_json, '$.text'), '' ORDER BY d.id) AS t FROM chat_events d
            WHERE d.session_id = NEW.session_id AND d.type = 'text_delta' AND json_valid(d.data_json) AND d.id < NEW.id
              AND d.id > COALESCE((SELECT a.id FROM chat_events a WHERE a.session_id = NEW.session_id
                AND a.type = 'assistant_start' AND a.id < NEW.id ORDER BY a.id DESC LIMIT 1), 0))
          WHERE typeof(t) = 'text' AND t <> '';
      END;
      CREATE TRIGGER chat_search_forget AFTER DELETE ON chat_events
        WHEN OLD.type IN ('user_message', 'assistant_end')
      BEGIN
        DELETE FROM chat_search WHERE rowid = OLD.id;
      END;
      -- Conversations stored before this migration.
      INSERT INTO chat_search (rowid, body, session_id, kind)
        SELECT e.id, json_extract(e.data_json, '$.text'), e.session_id, 'message' FROM chat_events e
        WHERE e.type = 'user_message' AND json_valid(e.data_json)
          AND typeof(json_extract(e.data_json, '$.text')) = 'text' AND json_extract(e.data_json, '$.text') <> '';
      INSERT INTO chat_search (rowid, body, session_id, kind)
        SELECT id, t, session_id, 'answer' FROM (
          SELECT e.id, e.session_id, (
            SELECT group_concat(json_extract(d.data_json, '$.text'), '' ORDER BY d.id) FROM chat_events d
            WHERE d.session_id = e.session_id AND d.type = 'text_delta' AND json_valid(d.data_json) AND d.id < e.id
              AND d.id > COALESCE((SELECT a.id FROM chat_events a WHERE a.session_id = e.session_id
                AND a.type = 'assistant_start' AND a.id < e.id ORDER BY a.id DESC LIMIT 1), 0)) AS t
          FROM chat_events e WHERE e.type = 'assistant_end')
        WHERE typeof(t) = 'text' AND t <> '';
    `,
  },
  {
    version: 8,
    name: "whether a conversation's model was chosen in it (the picker), so only a chosen one outlives a settings edit",
    sql: `
      ALTER TABLE chat_sessions ADD COLUMN model_chosen INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 9,
    name: 'branches of a conversation: an edited message or a regenerated answer starts one, the old stays reachable',
    // A branch holds its parent's events before fork_seq, then its own (chat_events.branch); 0 is the first branch,
    // which has no row. A conversation reads the path of the branch it is on (chat_sessions.branch).
    sql: `
      CREATE TABLE chat_branches (
        id          INTEGER PRIMARY KEY,
        session_id  TEXT NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
        parent      INTEGER NOT NULL,      -- the branch it forks from (0: the first)
        fork_seq    INTEGER NOT NULL,      -- it holds the parent's events before this one
        created_at  INTEGER NOT NULL,
        used_at     INTEGER NOT NULL       -- last time it was the one on screen (a switch lands on the latest used)
      );
      CREATE INDEX chat_branches_session ON chat_branches (session_id, parent, fork_seq);
      ALTER TABLE chat_events ADD COLUMN branch INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE chat_sessions ADD COLUMN branch INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE chat_sessions ADD COLUMN root_used_at INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 10,
    name: "a skill folder's tree with its audit fingerprint, so a warm open checks it with one stat per file",
    // JSON (skills/trust/tree.ts): each folder's times when it was listed and the files in fingerprint order. NULL: the
    // folder is walked (a link in it, a listing too close to a change); the walk that matches stores it.
    sql: `
      ALTER TABLE audit_fingerprints ADD COLUMN tree TEXT;
    `,
  },
  {
    version: 11,
    name: 'the conversation open in each workspace, so a restarted app (or serve on another port) opens it again',
    sql: `
      CREATE TABLE open_conversation (
        workspace   TEXT PRIMARY KEY,
        session_id  TEXT NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
        at          INTEGER NOT NULL
      );
    `,
  },
  {
    version: 12,
    name: 'what was wrong with a damaged database as words, so the window says it in its language',
    // JSON of the words (preload/words.ts); NULL for a record made before.
    sql: `
      ALTER TABLE store_damage ADD COLUMN words TEXT;
    `,
  },
  {
    version: 13,
    name: 'trust decisions looked up by content hash through an index, not a scan of every decision per skill',
    sql: `
      CREATE INDEX skill_trust_hash ON skill_trust (content_hash, decided_at);
    `,
  },
];
