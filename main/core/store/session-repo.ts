// Chat sessions: one row per conversation and its append-only event log. Each append is its own committed
// write (WAL), so what the user saw survives a crash; the agent rebuilds a session by replaying its events.
import type { Db } from './db.js';
import { Refusal, say } from '../base/index.js';
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

/** A branch of a conversation (0, the first, has no row): its parent's events before `forkSeq`, then its own. */
export interface BranchRow {
  id: number;
  parent: number;
  forkSeq: number;
  usedAt: number;
}

/** The versions at one point of a conversation: the parent's own continuation first, then each branch forked there. */
export interface ForkGroup {
  parent: number;
  forkSeq: number;
  /** Branch ids, [0] being `parent` itself (the original), then the forks at forkSeq by creation. */
  members: number[];
  /** Which of `members` the event asked about belongs to. */
  index: number;
}

/** A piece of a search hit's excerpt: `hit` marks the words searched for. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/** A session a search found: where the words are (its title, a user's message or an answer) and an excerpt there. */
export interface SessionHit {
  session: SessionRow;
  /** The title when the words are in it, else the message or answer (its event's seq) with the best match. */
  in: 'title' | 'message' | 'answer';
  seq?: number;
  snippet: SnippetPart[];
}

/** Characters of context on each side of the first match in an excerpt. */
const EXCERPT_SIDE = 60;

/**
 * An excerpt of `body` around the first of `terms` (case-insensitive), every occurrence of a term marked. Written here
 * rather than with FTS5's snippet(): that one works only with MATCH, and terms under three characters (a Chinese word
 * of two) are found with LIKE, which trigram's index also serves; one excerpt for both keeps them alike.
 */
export function excerpt(body: string, terms: readonly string[]): SnippetPart[] {
  const flat = body.replace(/\s+/g, ' ');
  const lower = flat.toLowerCase();
  const needles = terms.map((t) => t.toLowerCase()).filter(Boolean);
  let first = -1;
  for (const n of needles) {
    const i = lower.indexOf(n);
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  const from = first <= EXCERPT_SIDE ? 0 : first - EXCERPT_SIDE;
  const to = Math.min(flat.length, Math.max(first, 0) + EXCERPT_SIDE * 2);
  const parts: SnippetPart[] = [];
  const push = (text: string, hit: boolean): void => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += text;
    else parts.push({ text, hit });
  };
  if (from > 0) push('…', false);
  let i = from;
  while (i < to) {
    let at = -1;
    let len = 0;
    for (const n of needles) {
      const j = lower.indexOf(n, i);
      if (j >= 0 && j < to && (at < 0 || j < at || (j === at && n.length > len))) {
        at = j;
        len = n.length;
      }
    }
    if (at < 0) {
      push(flat.slice(i, to), false);
      break;
    }
    push(flat.slice(i, at), false);
    push(flat.slice(at, at + len), true);
    i = at + len;
  }
  if (to < flat.length) push('…', false);
  return parts;
}

/** The words of a search: split on white space; a quoted run stays one term. */
function searchTerms(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const t = (m[1] ?? m[2] ?? '').trim();
    if (t) out.push(t);
  }
  return out.slice(0, 16);
}

/** Events per INSERT statement (5 parameters each, far below SQLite's limit on parameters). */
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

/** What a conversation's model calls used: tokens, and the cost in USD when every call was priced. */
export interface SpentRow {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost?: number;
}

export class SessionRepo {
  private readonly insert: Database.Statement;
  private readonly touch: Database.Statement;
  private readonly retitle: Database.Statement;
  private readonly touchRetitle: Database.Statement;
  private readonly insertSession: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly appendBatch: (sessionId: string, rows: AppendRow[], branch: number) => number[];
  private readonly inserts = new Map<number, Database.Statement>();

  constructor(private readonly db: Db) {
    // Statements are prepared once: appending is on the path to the first token of every turn.
    this.insert = db.prepare(
      'INSERT INTO chat_events (session_id, type, data_json, at, branch) VALUES (?, ?, ?, ?, ?)',
    );
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
    this.appendBatch = db.transaction((sessionId: string, rows: AppendRow[], branch: number) => {
      let touchAt: number | undefined;
      let title: string | undefined;
      const seqs: number[] = [];
      for (let from = 0; from < rows.length; from += MAX_ROWS)
        this.insertPart(sessionId, rows.length <= MAX_ROWS ? rows : rows.slice(from, from + MAX_ROWS), seqs, branch);
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
  private insertPart(sessionId: string, part: readonly AppendRow[], seqs: number[], branch: number): void {
    const args: unknown[] = [];
    for (const r of part) args.push(sessionId, r.type, r.json ?? JSON.stringify(r.data), r.at, branch);
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
              `INSERT INTO chat_events (session_id, type, data_json, at, branch) VALUES ${Array(n).fill('(?, ?, ?, ?, ?)').join(', ')}`,
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

  /** `chosen`: the model was picked in this conversation (it then outlives a change of the configured model). */
  update(
    id: string,
    fields: { title?: string; provider?: string | null; model?: string | null; chosen?: boolean },
  ): void {
    if (fields.title !== undefined) this.retitle.run(fields.title, id);
    if (fields.provider !== undefined)
      this.db.prepare('UPDATE chat_sessions SET provider = ? WHERE id = ?').run(fields.provider, id);
    if (fields.model !== undefined)
      this.db.prepare('UPDATE chat_sessions SET model = ? WHERE id = ?').run(fields.model, id);
    if (fields.chosen !== undefined)
      this.db.prepare('UPDATE chat_sessions SET model_chosen = ? WHERE id = ?').run(fields.chosen ? 1 : 0, id);
  }

  /** The model picked in this conversation, if one was (else it follows the configured one). */
  chosenModel(id: string): { provider: string | null; model: string } | undefined {
    const r = this.db
      .prepare('SELECT provider, model FROM chat_sessions WHERE id = ? AND model_chosen = 1 AND model IS NOT NULL')
      .get(id) as { provider: string | null; model: string } | undefined;
    return r;
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
    opts: { at?: number; touch?: boolean; title?: string; branch?: number } = {},
  ): number {
    const at = opts.at ?? Date.now();
    const branch = opts.branch ?? 0;
    // Naming the session also moves it to the top of the list.
    if (opts.touch || opts.title !== undefined)
      return this.appendBatch(sessionId, [{ type, data, at, touch: true, title: opts.title }], branch)[0]!;
    return Number(this.insert.run(sessionId, type, JSON.stringify(data), at, branch).lastInsertRowid);
  }

  /**
   * Append several events in one transaction (one commit, all or nothing): the events between a user's message and
   * the model call, committed together just before they are shown. Returns their seqs in order.
   */
  appendMany(sessionId: string, rows: AppendRow[], branch = 0): number[] {
    if (rows.length === 0) return [];
    if (rows.length > MAX_ROWS || rows.some((r) => r.touch || r.title !== undefined))
      return this.appendBatch(sessionId, rows, branch);
    // One INSERT statement is atomic on its own (all its rows or none): without bookkeeping to write with it, it needs
    // no explicit transaction (BEGIN and COMMIT are two statements more on the path to a turn's first token).
    const seqs: number[] = [];
    this.insertPart(sessionId, rows, seqs, branch);
    return seqs;
  }

  /**
   * The events of the branch the conversation is on, in order: each ancestor's events before the point its child
   * forked, then the branch's own (`all`: every branch's, as the log holds them).
   */
  events(sessionId: string, afterSeq = 0, opts: { all?: boolean } = {}): StoredEvent[] {
    const path = opts.all ? undefined : this.path(sessionId);
    const rows = (
      !path
        ? this.db
            .prepare(
              'SELECT id AS seq, type, data_json AS json, at FROM chat_events WHERE session_id = ? AND id > ? ORDER BY id',
            )
            .all(sessionId, afterSeq)
        : path.length === 1
          ? this.db
              .prepare(
                'SELECT id AS seq, type, data_json AS json, at FROM chat_events WHERE session_id = ? AND id > ? AND branch = ? ORDER BY id',
              )
              .all(sessionId, afterSeq, path[0]!.branch)
          : this.db
              .prepare(
                `SELECT e.id AS seq, e.type, e.data_json AS json, e.at FROM chat_events e
                 JOIN json_each(?) p ON e.branch = json_extract(p.value, '$[0]') AND e.id < json_extract(p.value, '$[1]')
                 WHERE e.session_id = ? AND e.id > ? ORDER BY e.id`,
              )
              .all(JSON.stringify(path.map((p) => [p.branch, p.before])), sessionId, afterSeq)
    ) as { seq: number; type: string; json: string; at: number }[];
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

  /**
   * Sessions holding every one of the words of `query` in their title, a message or an answer (case-insensitive), best
   * first: title matches, then FTS5's rank (bm25) of the best message or answer. Terms of three characters or more are
   * found through the FTS5 index (MATCH, each term a quoted phrase: nothing the user types is read as FTS5 syntax);
   * shorter ones with LIKE on the same table.
   */
  search(query: string, opts: { workspace?: string; limit?: number } = {}): SessionHit[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const limit = opts.limit ?? 50;
    const long = terms.filter((t) => [...t].length >= 3);
    const short = terms.filter((t) => [...t].length < 3);
    const like = (t: string) => '%' + t.replace(/[%_\\]/g, '\\$&') + '%';
    const hits = new Map<string, SessionHit>();

    // Titles first: a title the user gave (a title read from the first message is found as that message).
    const titleWhere = terms.map(() => `s.title LIKE ? ESCAPE '\\'`).join(' AND ');
    const titled = this.db
      .prepare(
        `SELECT ${COLS} FROM chat_sessions s WHERE s.title <> '' AND ${titleWhere}${opts.workspace ? ' AND s.workspace = ?' : ''}
         ORDER BY updatedAt DESC LIMIT ?`,
      )
      .all(...terms.map(like), ...(opts.workspace ? [opts.workspace] : []), limit) as RawRow[];
    for (const r of titled) {
      const row = rowOf(r)!;
      hits.set(row.id, { session: row, in: 'title', snippet: excerpt(row.title, terms) });
    }

    const where: string[] = [];
    const args: unknown[] = [];
    if (long.length) {
      where.push('chat_search MATCH ?');
      args.push(long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND '));
    }
    for (const t of short) {
      where.push(`f.body LIKE ? ESCAPE '\\'`);
      args.push(like(t));
    }
    if (opts.workspace) {
      where.push('s.workspace = ?');
      args.push(opts.workspace);
    }
    const found = this.db
      .prepare(
        `SELECT f.rowid AS seq, f.session_id AS sessionId, f.kind AS kind, f.body AS body
         FROM chat_search f JOIN chat_sessions s ON s.id = f.session_id
         WHERE ${where.join(' AND ')} ORDER BY ${long.length ? 'f.rank' : 'f.rowid DESC'} LIMIT ?`,
      )
      .all(...args, limit * 20) as { seq: number; sessionId: string; kind: string; body: string }[];
    for (const f of found) {
      if (hits.size >= limit) break;
      if (hits.has(f.sessionId)) continue;
      const row = this.get(f.sessionId);
      if (!row) continue;
      hits.set(f.sessionId, {
        session: row,
        in: f.kind === 'answer' ? 'answer' : 'message',
        seq: f.seq,
        snippet: excerpt(f.body, terms),
      });
    }
    return [...hits.values()].slice(0, limit);
  }

  /** Rows of the search index of one session (what a delete must leave none of). */
  searchRows(sessionId: string): number {
    return (
      this.db.prepare('SELECT COUNT(*) AS n FROM chat_search WHERE session_id = ?').get(sessionId) as { n: number }
    ).n;
  }

  // ---- the conversation open in each workspace ----

  /** Remember `sessionId` as the conversation open in `workspace` (undefined: none, a new chat). */
  rememberOpen(workspace: string, sessionId: string | undefined, now = Date.now()): void {
    if (sessionId === undefined) {
      this.db.prepare('DELETE FROM open_conversation WHERE workspace = ?').run(workspace);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO open_conversation (workspace, session_id, at) VALUES (?, ?, ?)
         ON CONFLICT (workspace) DO UPDATE SET session_id = excluded.session_id, at = excluded.at`,
      )
      .run(workspace, sessionId, now);
  }

  /** The conversation last open in `workspace` (gone with the session when it is deleted). */
  rememberedOpen(workspace: string): string | undefined {
    const r = this.db.prepare('SELECT session_id AS id FROM open_conversation WHERE workspace = ?').get(workspace) as
      { id: string } | undefined;
    return r?.id;
  }

  // ---- branches ----

  /**
   * Tokens of every model call the conversation made, on every branch (each call counted once, on the branch it was
   * made on), and their cost in USD: undefined when any call could not be priced. Undefined before the first call.
   */
  usageAllBranches(sessionId: string): SpentRow | undefined {
    const r = this.db
      .prepare(
        `SELECT COUNT(*) AS calls, COUNT(json_extract(data_json, '$.cost')) AS priced,
           SUM(json_extract(data_json, '$.usage.inputTokens')) AS inputTokens,
           SUM(json_extract(data_json, '$.usage.outputTokens')) AS outputTokens,
           SUM(json_extract(data_json, '$.usage.cacheReadTokens')) AS cacheReadTokens,
           SUM(json_extract(data_json, '$.usage.cacheWriteTokens')) AS cacheWriteTokens,
           SUM(json_extract(data_json, '$.cost')) AS cost
         FROM chat_events WHERE session_id = ? AND type = 'usage' AND json_valid(data_json)`,
      )
      .get(sessionId) as Record<keyof SpentRow | 'calls' | 'priced', number | null>;
    if (!r.calls) return undefined;
    return {
      inputTokens: r.inputTokens ?? 0,
      outputTokens: r.outputTokens ?? 0,
      cacheReadTokens: r.cacheReadTokens ?? 0,
      cacheWriteTokens: r.cacheWriteTokens ?? 0,
      ...(r.priced === r.calls && r.cost !== null ? { cost: r.cost } : {}),
    };
  }

  /** The branch the conversation is on (0: the first, or a conversation never branched). */
  currentBranch(sessionId: string): number {
    const r = this.db.prepare('SELECT branch FROM chat_sessions WHERE id = ?').get(sessionId) as
      { branch: number } | undefined;
    return r?.branch ?? 0;
  }

  branches(sessionId: string): BranchRow[] {
    return this.db
      .prepare(
        'SELECT id, parent, fork_seq AS forkSeq, used_at AS usedAt FROM chat_branches WHERE session_id = ? ORDER BY id',
      )
      .all(sessionId) as BranchRow[];
  }

  /** The current branch, then its ancestors, each with the seq its events stop before (the child's fork point). */
  path(sessionId: string, branch = this.currentBranch(sessionId)): { branch: number; before: number }[] {
    const rows = branch === 0 ? [] : this.branches(sessionId);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out = [{ branch, before: Number.MAX_SAFE_INTEGER }];
    for (let b = byId.get(branch); b; b = byId.get(b.parent)) {
      out.push({ branch: b.parent, before: b.forkSeq });
      if (out.length > rows.length + 1) break; // a damaged table never loops
    }
    return out;
  }

  /** The branch event `seq` was appended on; throws for an event the conversation does not have. */
  private branchOf(sessionId: string, seq: number): number {
    const owner = (
      this.db.prepare('SELECT branch FROM chat_events WHERE id = ? AND session_id = ?').get(seq, sessionId) as
        { branch: number } | undefined
    )?.branch;
    if (owner === undefined) throw new Refusal(say('store.noEvent', { seq, id: sessionId }));
    return owner;
  }

  /**
   * The versions at an event of the conversation (a user's message, or the first event of an answer): the event's
   * own branch when it is that branch's first event (the event is itself a version made there), else the point in
   * its branch where a version would fork.
   */
  forkGroup(sessionId: string, seq: number): ForkGroup {
    const owner = this.branchOf(sessionId, seq);
    const rows = this.branches(sessionId);
    const row = rows.find((r) => r.id === owner);
    const first =
      row &&
      (
        this.db
          .prepare('SELECT MIN(id) AS id FROM chat_events WHERE session_id = ? AND branch = ?')
          .get(sessionId, owner) as {
          id: number | null;
        }
      ).id;
    const [parent, forkSeq] = row && first === seq ? [row.parent, row.forkSeq] : [owner, seq];
    const members = [parent, ...rows.filter((r) => r.parent === parent && r.forkSeq === forkSeq).map((r) => r.id)];
    return { parent, forkSeq, members, index: Math.max(0, members.indexOf(owner === parent ? parent : owner)) };
  }

  /**
   * The branch to show event `seq` on (a search hit): the current one when its line holds the event, else, of the
   * branches whose line holds it (its own and those forked from it after it), the one last used.
   */
  branchHolding(sessionId: string, seq: number): number {
    const owner = this.branchOf(sessionId, seq);
    const holds = (b: number) => this.path(sessionId, b).some((p) => p.branch === owner && seq < p.before);
    const current = this.currentBranch(sessionId);
    if (holds(current)) return current;
    const rows = this.branches(sessionId);
    const root = (
      this.db.prepare('SELECT root_used_at AS u FROM chat_sessions WHERE id = ?').get(sessionId) as { u: number }
    ).u;
    const used = (b: number) => (b === 0 ? root : (rows.find((r) => r.id === b)?.usedAt ?? 0));
    let best = owner;
    for (const b of [0, ...rows.map((r) => r.id)])
      if (holds(b) && (used(b) > used(best) || (used(b) === used(best) && b > best))) best = b;
    return best;
  }

  /** Make `branch` the one the conversation is on (its last use is now). */
  useBranch(sessionId: string, branch: number, now = Date.now()): void {
    this.db.prepare('UPDATE chat_sessions SET branch = ? WHERE id = ?').run(branch, sessionId);
    if (branch === 0) this.db.prepare('UPDATE chat_sessions SET root_used_at = ? WHERE id = ?').run(now, sessionId);
    else this.db.prepare('UPDATE chat_branches SET used_at = ? WHERE id = ?').run(now, branch);
  }

  /** Start a branch at a fork point and make it the one the conversation is on. Returns its id. */
  fork(sessionId: string, parent: number, forkSeq: number, now = Date.now()): number {
    return this.db.transaction(() => {
      // The branch left is the one last used along its own line: a switch back to it lands there.
      this.useBranch(sessionId, this.currentBranch(sessionId), now);
      const id = Number(
        this.db
          .prepare(
            'INSERT INTO chat_branches (session_id, parent, fork_seq, created_at, used_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(sessionId, parent, forkSeq, now, now).lastInsertRowid,
      );
      this.db.prepare('UPDATE chat_sessions SET branch = ? WHERE id = ?').run(id, sessionId);
      return id;
    })();
  }

  /**
   * Go to version `index` of a fork group: the branch of that version last used (the version itself or a branch
   * forked further along it), so a switch back lands where the user was. Returns the branch now on.
   */
  switchTo(sessionId: string, group: ForkGroup, index: number, now = Date.now()): number {
    const target = group.members[index];
    if (target === undefined) throw new Refusal(say('store.noVersion', { n: index + 1, count: group.members.length }));
    const rows = this.branches(sessionId);
    const root = (
      this.db.prepare('SELECT root_used_at AS u FROM chat_sessions WHERE id = ?').get(sessionId) as {
        u: number;
      }
    ).u;
    const used = (b: number) => (b === 0 ? root : (rows.find((r) => r.id === b)?.usedAt ?? 0));
    // The target and the branches forked from it further along (for the original: past the fork point only).
    const within = new Set([target]);
    for (let grew = true; grew;) {
      grew = false;
      for (const r of rows)
        if (
          !within.has(r.id) &&
          within.has(r.parent) &&
          !(r.parent === group.parent && index === 0 && r.forkSeq <= group.forkSeq)
        ) {
          within.add(r.id);
          grew = true;
        }
    }
    let best = target;
    for (const b of within) if (used(b) > used(best) || (used(b) === used(best) && b > best)) best = b;
    this.useBranch(sessionId, best, now);
    return best;
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM chat_sessions WHERE id = ?').run(id).changes > 0;
  }
}
