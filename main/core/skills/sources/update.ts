// Keep a scope's skills in step with their sources: `sync` installs exactly what skills.lock.json names (refusing a
// commit whose content no longer hashes as locked), `update` compares each with its source's ref and shows what changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionDiff } from '../../policy/index.js';
import { auditSkill, listSkillFiles } from '../trust/index.js';
import { addCandidate, type AddOptions, type AddResult } from './add.js';
import { fetchJsonText, fetchRepo, jsonOptions, type FetchedRepo, type FetchOptions } from './fetch.js';
import { localKind, MARKETPLACE_FILE, parseMarketplace, pluginReachProblem, type Marketplace } from './marketplace.js';
import { lockPathFor, readLock, type LockEntry } from './lock.js';
import { candidateAt, findSkillFolders, readTreeFile, type Candidate } from './open.js';
import { formatSource, parseSource, SourceError } from './spec.js';
import { english, say, type Said } from '../../base/index.js';

export interface FileChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface UpdateCheck {
  name: string;
  entry: LockEntry;
  status: 'up-to-date' | 'available' | 'error';
  reason?: string;
  /** Why a check failed (status error), as words naming the skill: `update.checkFailed` with the source's own words. */
  words?: Said;
  /** The fetched version (status available). */
  candidate?: Candidate;
  commit?: string;
  files?: FileChanges;
  /** Permissions asked now against the installed version. */
  diff?: PermissionDiff;
}

/** Per-file sha256 of a skill folder (links by their target text), for the list of changed files. */
function fileHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const f of listSkillFiles(dir).files) {
    if (f.special) continue;
    try {
      out.set(
        f.rel,
        f.link ??
          createHash('sha256')
            .update(readFileSync(join(dir, f.rel)))
            .digest('hex'),
      );
    } catch {
      out.set(f.rel, 'unreadable');
    }
  }
  return out;
}

function fileChanges(before: string, after: string): FileChanges {
  const a = fileHashes(before);
  const b = fileHashes(after);
  const added = [...b.keys()].filter((k) => !a.has(k)).sort();
  const removed = [...a.keys()].filter((k) => !b.has(k)).sort();
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)).sort();
  return { added, removed, changed };
}

/** The skill folder at `path` of a fetched repository, as a candidate recorded at that commit; `source` names it. */
function candidateIn(repo: FetchedRepo, entry: LockEntry, source: string): Candidate {
  const dir = entry.path ? join(repo.dir, ...entry.path.split('/')) : repo.dir;
  if (!existsSync(dir) || findSkillFolders(dir)[0] !== dir)
    throw new SourceError(
      say('update.noSkillAt', {
        source,
        path: entry.path || '.',
        commit: repo.commit.slice(0, 12),
      }),
    );
  return candidateAt(dir, {
    url: entry.url,
    ...(entry.ref ? { ref: entry.ref } : {}),
    commit: repo.commit,
    path: entry.path,
    ...(entry.marketplace ? { marketplace: entry.marketplace } : {}),
    ...(entry.plugin ? { plugin: entry.plugin } : {}),
  });
}

/** Fetch each (url, revision) once for many lock entries; dispose() removes every clone. */
class Fetches {
  private readonly repos = new Map<string, Promise<FetchedRepo>>();
  constructor(readonly opts: FetchOptions) {}
  get(url: string, rev: { ref?: string; sha?: string }, display: string): Promise<FetchedRepo> {
    const key = `${url}\0${rev.sha ?? rev.ref ?? ''}`;
    let p = this.repos.get(key);
    if (!p) {
      p = fetchRepo({ url, ...rev, display }, this.opts);
      this.repos.set(key, p);
    }
    return p;
  }
  async dispose(): Promise<void> {
    for (const p of this.repos.values()) {
      try {
        (await p).dispose();
      } catch {
        // a failed fetch left nothing behind
      }
    }
  }
}

/** Where an update of a locked skill is fetched from: a git URL at a ref (its default branch) or a pinned commit. */
interface Target {
  url: string;
  ref?: string;
  sha?: string;
}

/**
 * The marketplace `source` (as the lock records it), read again: a marketplace.json URL, or the file in a repository
 * (fetched once through `fetches`, refusing a file that is a link out of the repository).
 */
async function readMarketplaceAgain(source: string, fetches: Fetches, cwd: string): Promise<Marketplace> {
  const spec = parseSource(source, cwd);
  if (spec.kind === 'json') return parseMarketplace(await fetchJsonText(spec.url, jsonOptions(fetches.opts)), spec.url);
  if (spec.kind !== 'git') throw new SourceError(say('source.notMarketplace', { source }));
  const repo = await fetches.get(spec.url, spec.ref ? { ref: spec.ref } : {}, source);
  const rel = [spec.path, MARKETPLACE_FILE].filter(Boolean).join('/');
  if (!existsSync(join(repo.dir, ...rel.split('/'))))
    throw new SourceError(say('source.noMarketplaceNow', { source, file: MARKETPLACE_FILE }));
  const shown = `${source}:${rel}`;
  return parseMarketplace(readTreeFile(repo.dir, rel, shown), shown);
}

/**
 * What to compare a locked skill with: its URL at its ref, or, for a skill of a marketplace plugin that lives in another
 * repository, what the marketplace names now (its url, and the `sha` it pins, else its `ref`): a marketplace that pins
 * a commit is followed, not the plugin repository's branch.
 */
async function targetOf(
  entry: LockEntry,
  fetches: Fetches,
  markets: Map<string, Promise<Marketplace>>,
  cwd: string,
): Promise<Target> {
  const plain: Target = { url: entry.url, ...(entry.ref ? { ref: entry.ref } : {}) };
  if (!entry.marketplace || !entry.plugin) return plain;
  let market = markets.get(entry.marketplace);
  if (!market) {
    market = readMarketplaceAgain(entry.marketplace, fetches, cwd);
    markets.set(entry.marketplace, market);
  }
  const plugin = (await market).plugins.find((p) => p.name === entry.plugin);
  if (!plugin)
    throw new SourceError(say('update.pluginGone', { plugin: entry.plugin, marketplace: entry.marketplace }));
  if (plugin.source.kind === 'relative') return plain;
  const src = plugin.source;
  // What the marketplace names now is held to the rule it was held to at install (open.ts).
  const from = parseSource(entry.marketplace, cwd);
  if (from.kind !== 'local' && pluginReachProblem(from.url, src.url))
    throw new SourceError(say('source.pluginLocal', { source: entry.marketplace, plugin: entry.plugin, url: src.url }));
  return { url: src.url, ...(src.ref ? { ref: src.ref } : {}), ...(src.sha ? { sha: src.sha } : {}) };
}

interface Checked {
  checks: UpdateCheck[];
  dispose(): Promise<void>;
}

/** Where a lock entry is checked (its marketplace, else its repository) is on this computer or its network. */
function checkedLocally(entry: LockEntry, cwd: string): boolean {
  if (!entry.marketplace) return localKind(entry.url) !== undefined;
  try {
    const from = parseSource(entry.marketplace, cwd);
    return from.kind === 'local' || localKind(from.url) !== undefined;
  } catch {
    return false; // not a source at all: its check fails and says so
  }
}

/**
 * Compare each locked skill (all, or `names`) with its source at its ref. Call dispose() when done with the result.
 * `skipLocal` leaves out the entries checked on this computer or its network (a file:// folder, a loopback, private or
 * link-local address): a cloned repository's lock must not aim git at them without the user asking.
 */
export async function checkUpdates(
  tierRoot: string,
  names: string[] | undefined,
  opts: FetchOptions & { cwd?: string; skipLocal?: boolean } = {},
): Promise<Checked> {
  const lock = readLock(lockPathFor(tierRoot));
  const unknown = (names ?? []).filter((n) => !lock.skills[n]);
  if (unknown.length)
    throw new SourceError(
      say('lock.notLocked', {
        names: unknown.map((n): Said | string => n).reduce((a, b) => say('listAnd', { a, b })),
        lock: lockPathFor(tierRoot),
      }),
    );
  const fetches = new Fetches(opts);
  const markets = new Map<string, Promise<Marketplace>>();
  const checks: UpdateCheck[] = [];
  for (const [name, entry] of Object.entries(lock.skills)) {
    if (names && !names.includes(name)) continue;
    if (opts.skipLocal && checkedLocally(entry, opts.cwd ?? process.cwd())) continue;
    const installed = join(tierRoot, name);
    try {
      const t = await targetOf(entry, fetches, markets, opts.cwd ?? process.cwd());
      // The entry as the marketplace names it now (its url and ref), for the candidate's record.
      const at: LockEntry = { ...entry, url: t.url };
      if (t.ref) at.ref = t.ref;
      else delete at.ref;
      const rev = t.sha ?? t.ref;
      // The fetch is shared by every skill of this source and revision: its failure names the source, and the check's
      // words name the skill (update.checkFailed).
      const repo = await fetches.get(
        t.url,
        { ...(t.ref ? { ref: t.ref } : {}), ...(t.sha ? { sha: t.sha } : {}) },
        formatSource({ url: t.url, ...(rev ? { ref: rev } : {}) }),
      );
      const shown = formatSource({ url: t.url, ...(rev ? { ref: rev } : {}), path: entry.path });
      const c = candidateIn(repo, at, shown);
      // A link out of the new version's folder: nothing of it is read or offered.
      if (c.problem) throw new SourceError(say('source.refAt', { source: shown, problem: c.problem }));
      const current = existsSync(installed) ? auditSkill(installed).contentHash : '';
      if (c.contentHash === current && c.contentHash === entry.contentHash) {
        checks.push({ name, entry, status: 'up-to-date', commit: repo.commit });
        continue;
      }
      const report = existsSync(installed) ? auditSkill(c.dir, { previous: installed }) : undefined;
      checks.push({
        name,
        entry,
        status: 'available',
        candidate: c,
        commit: repo.commit,
        files: fileChanges(installed, c.dir),
        ...(report?.diff ? { diff: report.diff } : {}),
      });
    } catch (e) {
      const why = e instanceof SourceError ? e.words : (e as Error).message;
      checks.push({
        name,
        entry,
        status: 'error',
        reason: (e as Error).message,
        words: say('update.checkFailed', { skill: name, why }),
      });
    }
  }
  return { checks, dispose: () => fetches.dispose() };
}

/** Apply an available update: the same install path, replacing the installed version (a widening waits for approval). */
export function applyUpdate(check: UpdateCheck, opts: AddOptions): AddResult {
  if (check.status !== 'available' || !check.candidate) throw new Error(`${check.name}: no update to apply`);
  return addCandidate(check.candidate, { ...opts, replace: true });
}

export type SyncItem =
  | { name: string; status: 'present' }
  | { name: string; status: 'refused'; reason: string; words?: Said }
  | (AddResult & { name: string });

/**
 * Install what the lock names, each at its locked commit. A skill already there with the locked content is left alone;
 * a source whose files at that commit no longer hash as locked is refused as tampered.
 */
export async function syncLock(opts: AddOptions & FetchOptions): Promise<SyncItem[]> {
  const file = lockPathFor(opts.tierRoot);
  const lock = readLock(file);
  const fetches = new Fetches(opts);
  const out: SyncItem[] = [];
  try {
    for (const [name, entry] of Object.entries(lock.skills)) {
      const installed = join(opts.tierRoot, name);
      if (existsSync(installed) && auditSkill(installed).contentHash === entry.contentHash) {
        out.push({ name, status: 'present' });
        continue;
      }
      try {
        // The fetch is shared by every skill locked at this commit: its failure names the source, the item its skill.
        const at = { url: entry.url, ref: entry.commit };
        const repo = await fetches.get(entry.url, { sha: entry.commit }, formatSource(at));
        const c = candidateIn(repo, entry, formatSource({ ...at, path: entry.path }));
        if (c.problem) {
          const words = say('source.skillAtProblem', { name, source: formatSource(entry), problem: c.problem });
          out.push({ name, status: 'refused', reason: english(words), words });
          continue;
        }
        if (c.contentHash !== entry.contentHash || c.name !== name) {
          const words = say('lock.tampered', {
            name,
            source: formatSource(entry),
            commit: entry.commit.slice(0, 12),
            got: c.contentHash.slice(0, 12),
            locked: entry.contentHash.slice(0, 12),
          });
          out.push({ name, status: 'refused', reason: english(words), words });
          continue;
        }
        out.push({ ...addCandidate(c, opts), name });
      } catch (e) {
        const problem = e instanceof SourceError ? e.words : (e as Error).message;
        const words = say('source.skillProblem', { name, problem });
        out.push({ name, status: 'refused', reason: `${name}: ${(e as Error).message}`, words });
      }
    }
  } finally {
    await fetches.dispose();
  }
  return out;
}
