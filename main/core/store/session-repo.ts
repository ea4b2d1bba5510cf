// Chat sessions: one row per conversation and its append-only event log. Each append is its own committed
// write (WAL), so what the user saw survives a crash; the agent rebuilds a session by replaying its events.
import type { Db } from './db.js';
import type Database from 'better-sqlite3';

export interface SessionRow {
  id: string;
  workspace: string;
  title: string;
  provider: string | null;
  model: string | null;
  createdAt: number;
  updatedAt: number;
  events: number;
  /** The user's messages and the model's replies (one per model call), as a chat list counts them. */
  messages: number;
}

export interface StoredEvent {
  /** Global, increasing: the order events happened in. */
  seq: number;
  type: string;
  data: Record<string, unknown>;
  at: number;
}

/** One event of appendMany: `touch` moves the session to the top of the list, `title` names it. */
export interface AppendRow {
  type: string;
  data: Record<string, unknown>;
  /** `data` as JSON, when the caller has made it already (it is stored as given). */
  json?: string | undefined;
  at: number;
  touch?: boolean;
  title?: string | undefined;
}

/** Events per INSERT statement (4 parameters each, far below SQLite's limit on parameters). */
const MAX_ROWS = 100;

/** A session's title from its first message: one line, at most 80 characters. */
export function sessionTitle(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 80);
}

/**
 * A session's row. Its title and last-used time are read from its log — the title from its first message (unless one
 * was set), the last use from its latest message or turn end — so appending an event never has to update the row
 * (one statement less on the path to a turn's first token); the (session_id, id) index finds both in a step or two.
 */
const COLS = `s.id, s.workspace, s.title,
  CASE WHEN s.title = '' THEN (SELECT json_extract(e.data_json, '$.text') FROM chat_events e
    WHERE e.session_id = s.id AND e.type = 'user_message' ORDER BY e.id LIMIT 1) END AS firstMessage,
  s.provider, s.model, s.created_at AS createdAt,
  MAX(s.updated_at, COALESCE((SELECT e.at FROM chat_events e
    WHERE e.session_id = s.id AND e.type IN ('user_message', 'turn_end') ORDER BY e.id DESC LIMIT 1), 0)) AS updatedAt,
  (SELECT COUNT(*) FROM chat_events e WHERE e.session_id = s.id) AS events,
  (SELECT COUNT(*) FROM chat_events e WHERE e.session_id = s.id AND e.type IN ('user_message', 'assistant_start')) AS messages`;

type RawRow = SessionRow & { firstMessage: string | null };

function rowOf(r: RawRow | undefined): SessionRow | undefined {
  if (!r) return undefined;
  const { firstMessage, ...row } = r;
  if (!row.title && typeof firstMessage === 'string') row.title = sessionTitle(firstMessage);
  return row;
}

export class SessionRepo {
  private readonly insert: Database.Statement;
  private readonly touch: Database.Statement;
  private readonly retitle: Database.Statement;
  private readonly touchRetitle: Database.Statement;
  private readonly insertSession: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly appendBatch: (sessionId: string, rows: AppendRow[]) => number[];
  private readonly inserts = new Map<number, Database.Statement>();

  constructor(private readonly db: Db) {
    // Statements are prepared once: appending is on the path to the first token of every turn.
    this.insert = db.prepare('INSERT INTO chat_events (session_id, type, data_json, at) VALUES (?, ?, ?, ?)');
    this.touch = db.prepare('UPDATE chat_sessions SET updated_at = ? WHERE id = ?');
    this.retitle = db.prepare('UPDATE chat_sessions SET title = ? WHERE id = ?');
    this.touchRetitle = db.prepare('UPDATE chat_sessions SET updated_at = ?, title = ? WHERE id = ?');
    this.insertSession = db.prepare(
      'INSERT INTO chat_sessions (id, workspace, title, provider, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.byId = db.prepare(`SELECT ${COLS} FROM chat_sessions s WHERE s.id = ?`);
    // Events with their session's bookkeeping (last used, title) are one transaction: one commit, all or nothing.
    // The events go in as one multi-row INSERT (one statement per batch, not one per event: a turn's start is on the
    // path to its first token); SQLite numbers them in order, so their seqs are the last rowid and those before it.
    this.appendBatch = db.transaction((sessionId: string, rows: AppendRow[]) => {
      let touchAt: number | undefined;
      let title: string | undefined;
      const seqs: number[] = [];
      for (let from = 0; from < rows.length; from += MAX_ROWS)
        this.insertPart(sessionId, rows.length <= MAX_ROWS ? rows : rows.slice(from, from + MAX_ROWS), seqs);
      for (const r of rows) {
        if (r.touch) touchAt = r.at;
        if (r.title !== undefined) title = r.title;
      }
      if (touchAt !== undefined && title !== undefined) this.touchRetitle.run(touchAt, title, sessionId);
      else if (touchAt !== undefined) this.touch.run(touchAt, sessionId);
      else if (title !== undefined) this.retitle.run(title, sessionId);
      return seqs;
    });
  }

  /** At most MAX_ROWS events in one INSERT statement; their seqs are pushed onto `seqs` in order. */
  private insertPart(sessionId: string, part: readonly AppendRow[], seqs: number[]): void {
    const args: unknown[] = [];
    for (const r of part) args.push(sessionId, r.type, r.json ?? JSON.stringify(r.data), r.at);
    const last = Number(this.insertRows(part.length).run(args).lastInsertRowid);
    for (let i = part.length - 1; i >= 0; i--) seqs.push(last - i);
  }

  /** INSERT of n events in one statement (prepared once per n ≤ MAX_ROWS; a turn's start has a handful). */
  private insertRows(n: number): Database.Statement {
    let st = this.inserts.get(n);
    if (!st) {
      st =
        n === 1
          ? this.insert
          : this.db.prepare(
              `INSERT INTO chat_events (session_id, type, data_json, at) VALUES ${Array(n).fill('(?, ?, ?, ?)').join(', ')}`,
            );
      this.inserts.set(n, st);
    }
    return st;
  }

  create(row: {
    id: string;
    workspace: string;
    title?: string;
    provider?: string | null;
    model?: string | null;
    now?: number;
  }): SessionRow {
    const now = row.now ?? Date.now();
    this.insertSession.run(row.id, row.workspace, row.title ?? '', row.provider ?? null, row.model ?? null, now, now);
    return this.get(row.id)!;
  }

  get(id: string): SessionRow | undefined {
    return rowOf(this.byId.get(id) as RawRow | undefined);
  }

  /** Sessions, most recently used first; only one workspace's when given. */
  list(opts: { workspace?: string; limit?: number } = {}): SessionRow[] {
    const where = opts.workspace ? 'WHERE s.workspace = ?' : '';
    const args: unknown[] = opts.workspace ? [opts.workspace] : [];
    return (
      this.db
        .prepare(`SELECT ${COLS} FROM chat_sessions s ${where} ORDER BY updatedAt DESC, s.id LIMIT ?`)
        .all(...args, opts.limit ?? 1000) as RawRow[]
    ).map((r) => rowOf(r)!);
  }

  /** Sessions whose id starts with `prefix` (so a short id from a listing works). */
  findByPrefix(prefix: string): SessionRow[] {
    return (
      this.db
        .prepare(`SELECT ${COLS} FROM chat_sessions s WHERE s.id LIKE ? ESCAPE '\\' ORDER BY updatedAt DESC LIMIT 10`)
        .all(prefix.replace(/[%_\\]/g, '\\$&') + '%') as RawRow[]
    ).map((r) => rowOf(r)!);
  }

  update(id: string, fields: { title?: string; provider?: string | null; model?: string | null }): void {
    if (fields.title !== undefined) this.retitle.run(fields.title, id);
    if (fields.provider !== undefined)
      this.db.prepare('UPDATE chat_sessions SET provider = ? WHERE id = ?').run(fields.provider, id);
    if (fields.model !== undefined)
      this.db.prepare('UPDATE chat_sessions SET model = ? WHERE id = ?').run(fields.model, id);
  }

  /**
   * Append one event, committed when this returns (its own transaction). `touch` also sets the session's last-used
   * time and `title` names it, in the same transaction (the agent needs neither: both are read from the log). The database runs WAL with synchronous=NORMAL: a
   * commit survives a crash or `kill -9` of the app (it is in the WAL file the moment this returns); only a power
   * loss or OS crash may lose the last few commits, never corrupt the log — acceptable for an append-only chat log.
   */
  append(
    sessionId: string,
    type: string,
    data: Record<string, unknown>,
    opts: { at?: number; touch?: boolean; title?: string } = {},
  ): number {
    const at = opts.at ?? Date.now();
    // Naming the session also moves it to the top of the list.
    if (opts.touch || opts.title !== undefined)
      return this.appendBatch(sessionId, [{ type, data, at, touch: true, title: opts.title }])[0]!;
    return Number(this.insert.run(sessionId, type, JSON.stringify(data), at).lastInsertRowid);
  }

  /**
   * Append several events in one transaction (one commit, all or nothing): the events between a user's message and
   * the model call, committed together just before they are shown. Returns their seqs in order.
   */
  appendMany(sessionId: string, rows: AppendRow[]): number[] {
    if (rows.length === 0) return [];
    if (rows.length > MAX_ROWS || rows.some((r) => r.touch || r.title !== undefined))
      return this.appendBatch(sessionId, rows);
    // One INSERT statement is atomic on its own (all its rows or none): without bookkeeping to write with it, it needs
    // no explicit transaction (BEGIN and COMMIT are two statements more on the path to a turn's first token).
    const seqs: number[] = [];
    this.insertPart(sessionId, rows, seqs);
    return seqs;
  }

  events(sessionId: string, afterSeq = 0): StoredEvent[] {
    const rows = this.db
      .prepare(
        'SELECT id AS seq, type, data_json AS json, at FROM chat_events WHERE session_id = ? AND id > ? ORDER BY id',
      )
      .all(sessionId, afterSeq) as { seq: number; type: string; json: string; at: number }[];
    const out: StoredEvent[] = [];
    for (const r of rows) {
      try {
        out.push({ seq: r.seq, type: r.type, data: JSON.parse(r.json) as Record<string, unknown>, at: r.at });
      } catch {
        out.push({
          seq: r.seq,
          type: 'error',
          data: { kind: 'store', message: `event ${r.seq} could not be read` },
          at: r.at,
        });
      }
    }
    return out;
  }

  /** The session's most recent event of one type (a usage event's running totals, say), without reading the rest. */
  lastOfType(sessionId: string, type: string): StoredEvent | undefined {
    const r = this.db
      .prepare(
        'SELECT id AS seq, type, data_json AS json, at FROM chat_events WHERE session_id = ? AND type = ? ORDER BY id DESC LIMIT 1',
      )
      .get(sessionId, type) as { seq: number; type: string; json: string; at: number } | undefined;
    if (!r) return undefined;
    try {
      return { seq: r.seq, type: r.type, data: JSON.parse(r.json) as Record<string, unknown>, at: r.at };
    } catch {
      return undefined;
    }
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM chat_sessions WHERE id = ?').run(id).changes > 0;
  }
}
