// Persisted trust state: user rules, pending/decided skill approvals, trust decisions (by content hash), audit cache.
import { randomUUID } from 'node:crypto';
import { writeOutsideRead, type Db } from './db.js';
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

export type Effect = 'allow' | 'ask' | 'deny';

export interface Rule {
  id: string;
  effect: Effect;
  /** A tool name, a category (`@read`, `@write`, `@execute`, `@network`) or `*`. */
  tool: string;
  /** Real workspace path the rule is limited to; undefined = every workspace. */
  workspace?: string;
  /** Limited to calls made by this skill's scripts: its identity `name@tier:/real/dir[#hash]` (policy/rules.ts skillScopeKey); a bare name binds only to builtin or user skills. */
  skill?: string;
  /** Command prefix for command tools (`git status` matches `git status -s`, not `git statusx`). */
  command?: string;
  /** Glob relative to the workspace; every path of the call must match. */
  path?: string;
  /** Network host, exact or `*.example.com`. */
  host?: string;
  note?: string;
  createdAt: number;
}

export type NewRule = Omit<Rule, 'id' | 'createdAt'>;

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

export interface ApprovalRow {
  id: string;
  kind: 'install' | 'update' | 'discovered';
  skill: string;
  tier: string;
  source: string;
  target: string;
  contentHash: string;
  level: string;
  reportJson: string;
  status: ApprovalStatus;
  createdAt: number;
  decidedAt?: number;
}

interface RuleRow {
  id: string;
  effect: Rule['effect'];
  tool: string;
  workspace: string | null;
  skill: string | null;
  command: string | null;
  path: string | null;
  host: string | null;
  note: string | null;
  created_at: number;
}

function toRule(r: RuleRow): Rule {
  const out: Rule = { id: r.id, effect: r.effect, tool: r.tool, createdAt: r.created_at };
  if (r.workspace !== null) out.workspace = r.workspace;
  if (r.skill !== null) out.skill = r.skill;
  if (r.command !== null) out.command = r.command;
  if (r.path !== null) out.path = r.path;
  if (r.host !== null) out.host = r.host;
  if (r.note !== null) out.note = r.note;
  return out;
}

const APPROVAL_COLS = `id, kind, skill, tier, source, target, content_hash AS contentHash, level, report_json AS reportJson,
  status, created_at AS createdAt, decided_at AS decidedAt`;

/** The permissions a folder's skill was last in use with (skill_accepted_permissions), and the content they came from. */
export interface AcceptedPermissions {
  contentHash: string;
  permissionsJson: string;
}

/** A folder's stored fingerprint, kept tree and report, and its accepted permissions (fingerprintAndAudit). */
export interface StoredAudit {
  fingerprint: string;
  contentHash: string;
  tree: string | null;
  /** The report of the auditor asked for, null when none. */
  reportJson: string | null;
  accepted: AcceptedPermissions | null;
}

export class PolicyRepo {
  private readonly db: Pick<Db, 'prepare' | 'transaction'>;

  constructor(db: Db) {
    // Statements are prepared once and reused: opening a big folder looks up hundreds of skills' audits and trust.
    // A write (a statement that is not a reader, or a transaction) inside readMany steps out of its read transaction.
    const statements = new Map<string, ReturnType<Db['prepare']>>();
    this.db = {
      prepare: ((sql: string) => {
        let st = statements.get(sql);
        if (!st) statements.set(sql, (st = outsideReads(db, db.prepare(sql))));
        return st;
      }) as Db['prepare'],
      transaction: ((fn: () => unknown) => {
        const tx = db.transaction(fn);
        return () => writeOutsideRead(db, tx);
      }) as unknown as Db['transaction'],
    };
  }

  // ---- rules ----
  rules(): Rule[] {
    return (this.db.prepare('SELECT * FROM policy_rules ORDER BY created_at, id').all() as RuleRow[]).map(toRule);
  }

  /** Store a new rule as given (policy/rule-book.ts decides whether it is needed and which rules it replaces). */
  insertRule(rule: NewRule): Rule {
    const row: Rule = { ...rule, id: randomUUID().slice(0, 8), createdAt: Date.now() };
    this.db
      .prepare(
        `INSERT INTO policy_rules (id, effect, tool, workspace, skill, command, path, host, note, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.effect,
        row.tool,
        row.workspace ?? null,
        row.skill ?? null,
        row.command ?? null,
        row.path ?? null,
        row.host ?? null,
        row.note ?? null,
        row.createdAt,
      );
    return row;
  }

  removeRule(id: string): boolean {
    return this.db.prepare('DELETE FROM policy_rules WHERE id = ?').run(id).changes > 0;
  }

  // ---- approvals ----
  createApproval(a: Omit<ApprovalRow, 'id' | 'status' | 'createdAt' | 'decidedAt'>): ApprovalRow {
    const pending = this.db
      .prepare(
        `SELECT ${APPROVAL_COLS} FROM skill_approvals WHERE status = 'pending' AND content_hash = ? AND target = ?`,
      )
      .get(a.contentHash, a.target) as ApprovalRow | undefined;
    if (pending) return clean(pending);
    const row: ApprovalRow = { ...a, id: randomUUID().slice(0, 8), status: 'pending', createdAt: Date.now() };
    this.db
      .prepare(
        `INSERT INTO skill_approvals (id, kind, skill, tier, source, target, content_hash, level, report_json, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(
        row.id,
        row.kind,
        row.skill,
        row.tier,
        row.source,
        row.target,
        row.contentHash,
        row.level,
        row.reportJson,
        row.createdAt,
      );
    return row;
  }

  /** Point a pending approval at another copy of the same content (its own copy is gone). */
  moveApproval(id: string, source: string): boolean {
    return (
      this.db.prepare(`UPDATE skill_approvals SET source = ? WHERE id = ? AND status = 'pending'`).run(source, id)
        .changes > 0
    );
  }

  approval(id: string): ApprovalRow | undefined {
    const r = this.db.prepare(`SELECT ${APPROVAL_COLS} FROM skill_approvals WHERE id = ?`).get(id) as
      ApprovalRow | undefined;
    return r && clean(r);
  }

  approvals(status?: ApprovalStatus): ApprovalRow[] {
    const rows = status
      ? this.db.prepare(`SELECT ${APPROVAL_COLS} FROM skill_approvals WHERE status = ? ORDER BY created_at`).all(status)
      : this.db.prepare(`SELECT ${APPROVAL_COLS} FROM skill_approvals ORDER BY created_at`).all();
    return (rows as ApprovalRow[]).map(clean);
  }

  decideApproval(id: string, status: 'approved' | 'rejected'): boolean {
    return (
      this.db
        .prepare(`UPDATE skill_approvals SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`)
        .run(status, Date.now(), id).changes > 0
    );
  }

  // ---- trust ----
  setTrust(skill: string, contentHash: string, decision: 'trusted' | 'distrusted'): void {
    this.db
      .prepare(
        `INSERT INTO skill_trust (skill, content_hash, decision, decided_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(skill, content_hash) DO UPDATE SET decision = excluded.decision, decided_at = excluded.decided_at`,
      )
      .run(skill, contentHash, decision, Date.now());
  }

  /** Changes whenever a trust decision is stored (by this process or another): answers showing trust key on it. */
  trustStamp(): string {
    const r = this.db
      .prepare("SELECT count(*) AS n, max(decided_at) AS t, sum(decision = 'trusted') AS y FROM skill_trust")
      .get() as { n: number; t: number | null; y: number | null };
    return `${r.n}:${r.t ?? 0}:${r.y ?? 0}`;
  }

  /**
   * The latest decision about this exact content, whatever name it was trusted under. One search of the index
   * skill_trust_hash: a review pass and a skills list ask it for thousands of skills.
   */
  trustByHash(contentHash: string): 'trusted' | 'distrusted' | undefined {
    const r = this.db
      .prepare('SELECT decision FROM skill_trust WHERE content_hash = ? ORDER BY decided_at DESC LIMIT 1')
      .get(contentHash) as { decision: 'trusted' | 'distrusted' } | undefined;
    return r?.decision;
  }

  /** Run `fn` as one transaction (one commit for all its writes; a nested call joins the outer one). */
  batch<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- permissions last accepted per discovered skill folder ----
  acceptedPermissions(dir: string): AcceptedPermissions | undefined {
    return this.db
      .prepare(
        'SELECT content_hash AS contentHash, permissions_json AS permissionsJson FROM skill_accepted_permissions WHERE dir = ?',
      )
      .get(dir) as AcceptedPermissions | undefined;
  }

  acceptPermissions(dir: string, skill: string, contentHash: string, permissionsJson: string): void {
    this.db
      .prepare(
        `INSERT INTO skill_accepted_permissions (dir, skill, content_hash, permissions_json, accepted_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(dir) DO UPDATE SET skill = excluded.skill, content_hash = excluded.content_hash,
         permissions_json = excluded.permissions_json, accepted_at = excluded.accepted_at`,
      )
      .run(dir, skill, contentHash, permissionsJson, Date.now());
  }

  // ---- audit cache ----
  cachedAudit(contentHash: string, auditor: string): string | undefined {
    const r = this.db
      .prepare('SELECT report_json AS j FROM audit_cache WHERE content_hash = ? AND auditor = ?')
      .get(contentHash, auditor) as { j: string } | undefined;
    return r?.j;
  }

  putAudit(contentHash: string, auditor: string, reportJson: string): void {
    this.db
      .prepare(
        `INSERT INTO audit_cache (content_hash, auditor, report_json, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(content_hash, auditor) DO UPDATE SET report_json = excluded.report_json, created_at = excluded.created_at`,
      )
      .run(contentHash, auditor, reportJson, Date.now());
  }

  /** Keep many audits (reports by content hash, folder fingerprints and trees) in one transaction. */
  putAudits(
    rows: {
      contentHash: string;
      auditor: string;
      reportJson: string;
      dir: string;
      fingerprint: string;
      tree?: string | undefined;
    }[],
  ): void {
    this.db.transaction(() => {
      for (const r of rows) {
        this.putAudit(r.contentHash, r.auditor, r.reportJson);
        this.putFingerprint(r.dir, r.fingerprint, r.contentHash, r.tree);
      }
    })();
  }

  private fingerprintGet: Statement | undefined;

  /** A folder's audit fingerprint, the content hash it was audited as, and its tree (skills/trust/tree.ts) if kept. */
  fingerprint(dir: string): { fingerprint: string; contentHash: string; tree: string | null } | undefined {
    // Prepared once: a warm open of thousands of skills asks this once per skill.
    this.fingerprintGet ??= this.db.prepare(
      'SELECT fingerprint, content_hash AS contentHash, tree FROM audit_fingerprints WHERE dir = ?',
    );
    return this.fingerprintGet.get(dir) as
      { fingerprint: string; contentHash: string; tree: string | null } | undefined;
  }

  private storedGet: Statement | undefined;

  /**
   * fingerprint(dir) with the report kept for its content hash by `auditor` (null when none) and the permissions last
   * accepted for the folder (acceptedPermissions, null when none): one lookup where a warm open of thousands of skills
   * would ask three per skill.
   */
  fingerprintAndAudit(dir: string, auditor: string): StoredAudit | undefined {
    this.storedGet ??= this.db.prepare(
      `SELECT f.fingerprint, f.content_hash AS contentHash, f.tree, c.report_json AS reportJson,
         a.content_hash AS acceptedHash, a.permissions_json AS acceptedJson
       FROM audit_fingerprints f
       LEFT JOIN audit_cache c ON c.content_hash = f.content_hash AND c.auditor = ?
       LEFT JOIN skill_accepted_permissions a ON a.dir = f.dir
       WHERE f.dir = ?`,
    );
    const r = this.storedGet.get(auditor, dir) as
      (Omit<StoredAudit, 'accepted'> & { acceptedHash: string | null; acceptedJson: string | null }) | undefined;
    if (!r) return undefined;
    const { acceptedHash, acceptedJson, ...row } = r;
    return {
      ...row,
      accepted:
        acceptedHash === null || acceptedJson === null
          ? null
          : { contentHash: acceptedHash, permissionsJson: acceptedJson },
    };
  }

  /** Keep a folder's tree beside its unchanged fingerprint (a walk found the fingerprint the same). */
  putFingerprintTree(dir: string, fingerprint: string, tree: string): void {
    this.db
      .prepare('UPDATE audit_fingerprints SET tree = ? WHERE dir = ? AND fingerprint = ?')
      .run(tree, dir, fingerprint);
  }

  /** A folder's fingerprint and content hash; its tree when the audit's walk can vouch for one (else none is kept). */
  putFingerprint(dir: string, fingerprint: string, contentHash: string, tree?: string): void {
    this.db
      .prepare(
        `INSERT INTO audit_fingerprints (dir, fingerprint, content_hash, tree) VALUES (?, ?, ?, ?)
       ON CONFLICT(dir) DO UPDATE SET fingerprint = excluded.fingerprint, content_hash = excluded.content_hash,
         tree = excluded.tree`,
      )
      .run(dir, fingerprint, contentHash, tree ?? null);
  }
}

/** A writing statement whose run() steps out of a read transaction of readMany (db.ts); a reader as it is. */
function outsideReads(db: Db, st: Statement): Statement {
  if (st.reader) return st;
  const run = st.run.bind(st);
  const outside = (...args: unknown[]): Database.RunResult => writeOutsideRead(db, () => run(...args));
  return new Proxy(st, {
    get: (target, key) => {
      if (key === 'run') return outside;
      const v: unknown = Reflect.get(target, key);
      // better-sqlite3's methods are native: they must be called on the statement itself, not on the proxy.
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

function clean(r: ApprovalRow): ApprovalRow {
  if (r.decidedAt === null) delete (r as { decidedAt?: number }).decidedAt;
  return r;
}
