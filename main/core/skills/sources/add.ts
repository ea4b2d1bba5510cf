// Install picked skills of an opened source through the one install path (audit → P0 refused / P1 held for approval
// bound to the content hash / P2 installed), then record where each came from in the scope's skills.lock.json.
// A skill held for approval waits as a copy in <dataDir>/fetched/<random>/ with its source beside it.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Store } from '../../store/index.js';
import { auditSkill, installSkill, type InstallResult } from '../trust/index.js';
import { lockPathFor, recordInLock } from './lock.js';
import type { Candidate, SourceRecord } from './open.js';

export function fetchedDir(dataDir: string): string {
  return join(dataDir, 'fetched');
}

/** True when `dir` is a staged copy made here (a pending install's source that is ours to delete). */
export function isStaged(dataDir: string, dir: string): boolean {
  const rel = relative(fetchedDir(dataDir), dir);
  return rel !== '' && !rel.startsWith('..') && rel.split(sep).length === 2;
}

/** The source recorded beside a staged copy, if `dir` is one. */
export function stagedRecord(dataDir: string, dir: string): SourceRecord | undefined {
  if (!isStaged(dataDir, dir)) return undefined;
  try {
    return JSON.parse(readFileSync(join(dirname(dir), 'source.json'), 'utf8')) as SourceRecord;
  } catch {
    return undefined;
  }
}

export function dropStaged(dataDir: string, dir: string): void {
  if (isStaged(dataDir, dir)) rmSync(dirname(dir), { recursive: true, force: true });
}

export interface AddOptions {
  tierRoot: string;
  tier: 'user' | 'project';
  store: Store;
  dataDir: string;
  approveP1?: boolean;
  replace?: boolean;
}

export type AddResult = InstallResult & { candidate: Candidate };

/**
 * What to do once an install from a source is decided: on `installed`, record the source in the lock; unless it is
 * still pending, remove the staged copy. Also used when a held install is approved later (CLI or window).
 */
export function settleStaged(dataDir: string, staged: string, r: InstallResult): void {
  if (r.status === 'pending') return;
  const record = stagedRecord(dataDir, staged);
  try {
    if (r.status === 'installed' && record)
      recordInLock(lockPathFor(dirname(r.dest)), r.skill, { ...record, contentHash: r.report.contentHash });
  } finally {
    dropStaged(dataDir, staged);
  }
}

/** Install one picked candidate. Never leaves a staged copy unless the result is `pending`. */
export function addCandidate(c: Candidate, opts: AddOptions): AddResult {
  if (c.problem) return { status: 'refused', reason: `${c.name}: ${c.problem}`, candidate: c };
  const root = fetchedDir(opts.dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const holder = mkdtempSync(join(root, 'src-'));
  const staged = join(holder, basename(c.dir) || c.name);
  let r: InstallResult;
  try {
    // Links inside the skill were checked (Candidate.problem); they are copied as links and resolved by the install.
    cpSync(c.dir, staged, { recursive: true, verbatimSymlinks: true, filter: (s) => basename(s) !== '.git' });
    // What is installed is what was listed and reviewed: a checkout (or folder) changed since is refused, never
    // installed under the hash that was shown. The copy is ours from here on.
    const now = auditSkill(staged).contentHash;
    if (now !== c.contentHash) {
      rmSync(holder, { recursive: true, force: true });
      return {
        status: 'refused',
        reason: `${c.name}: changed since it was reviewed (content ${c.contentHash.slice(0, 12)} → ${now.slice(0, 12)}); fetch it again and review it`,
        candidate: c,
      };
    }
    if (c.record) writeFileSync(join(holder, 'source.json'), JSON.stringify(c.record));
    r = installSkill({
      source: staged,
      tierRoot: opts.tierRoot,
      tier: opts.tier,
      store: opts.store,
      ...(opts.approveP1 ? { approveP1: true } : {}),
      ...(opts.replace ? { replace: true } : {}),
    });
  } catch (e) {
    rmSync(holder, { recursive: true, force: true });
    throw e;
  }
  if (r.status !== 'pending' && !existsSync(join(holder, 'source.json')))
    rmSync(holder, { recursive: true, force: true });
  else settleStaged(opts.dataDir, staged, r);
  return { ...r, candidate: c };
}
