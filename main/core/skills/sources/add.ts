// Install picked skills of an opened source through the one install path (audit → P0 refused / P1 held for approval
// bound to the content hash / P2 installed), then record where each came from in the scope's skills.lock.json.
// A skill held for approval waits as a copy in <dataDir>/fetched/<random>/ with its source beside it (trust/held.ts).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Store } from '../../store/index.js';
import { english, say } from '../../base/index.js';
import { auditSkill, holderOf, installSkill, settleHeld, type InstallResult } from '../trust/index.js';
import { lockPathFor, recordInLock } from './lock.js';
import type { Candidate, SourceRecord } from './open.js';

function fetchedDir(dataDir: string): string {
  return join(dataDir, 'fetched');
}

/** The source recorded beside a copy held in <data>/fetched, if `dir` is one. */
function stagedRecord(dataDir: string, dir: string): SourceRecord | undefined {
  const holder = holderOf(dataDir, dir);
  if (!holder || dirname(holder) !== fetchedDir(dataDir)) return undefined;
  try {
    return JSON.parse(readFileSync(join(holder, 'source.json'), 'utf8')) as SourceRecord;
  } catch {
    return undefined;
  }
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
 * What to do once an install from a held copy has an answer: on `installed`, record the source in the lock (a skill
 * fetched from a source); then keep only the copy an approval still waits for (held.ts `settleHeld`). Also used when
 * a held install is approved later (CLI or window), whatever the copy is (fetched, uploaded, a draft).
 */
export function settleStaged(dataDir: string, staged: string, r: InstallResult): void {
  try {
    const record = r.status === 'installed' ? stagedRecord(dataDir, staged) : undefined;
    if (r.status === 'installed' && record)
      recordInLock(lockPathFor(dirname(r.dest)), r.skill, { ...record, contentHash: r.report.contentHash });
  } finally {
    settleHeld(dataDir, staged, r);
  }
}

/** A copy of the candidate's folder in a holder folder of its own under <data>/fetched (trust/held.ts sweeps it). */
function copyHeld(c: Candidate, dataDir: string, prefix: string): { holder: string; staged: string } {
  const root = fetchedDir(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const holder = mkdtempSync(join(root, prefix));
  const staged = join(holder, basename(c.dir) || c.name);
  try {
    // Links inside the skill were checked (Candidate.problem); they are copied as links and resolved by the install.
    cpSync(c.dir, staged, { recursive: true, verbatimSymlinks: true, filter: (s) => basename(s) !== '.git' });
  } catch (e) {
    rmSync(holder, { recursive: true, force: true });
    throw e;
  }
  return { holder, staged };
}

/**
 * The candidate as a copy held in <data>/fetched, so its clone can go while the user decides (an update shown, not yet
 * clicked): installing it (addCandidate) copies it again and checks it still hashes as shown. dropCandidate removes it;
 * a copy left by a process that ended is swept at open, as every held copy no approval waits for.
 */
export function holdCandidate(c: Candidate, dataDir: string): Candidate {
  return { ...c, dir: copyHeld(c, dataDir, 'upd-').staged };
}

/** Remove the copy holdCandidate made (its holder folder); a candidate not held in <data>/fetched is left alone. */
export function dropCandidate(c: Candidate, dataDir: string): void {
  const holder = holderOf(dataDir, c.dir);
  if (holder && dirname(holder) === fetchedDir(dataDir)) rmSync(holder, { recursive: true, force: true });
}

/** Install one picked candidate. Never leaves a staged copy unless the result is `pending`. */
export function addCandidate(c: Candidate, opts: AddOptions): AddResult {
  if (c.problem) {
    const words = say('source.skillProblem', { name: c.name, problem: c.problem });
    return { status: 'refused', reason: english(words), words, candidate: c };
  }
  const { holder, staged } = copyHeld(c, opts.dataDir, 'src-');
  let r: InstallResult;
  try {
    // What is installed is what was listed and reviewed: a checkout (or folder) changed since is refused, never
    // installed under the hash that was shown. The copy is ours from here on.
    const now = auditSkill(staged).contentHash;
    if (now !== c.contentHash) {
      rmSync(holder, { recursive: true, force: true });
      const words = say('source.changed', { name: c.name, from: c.contentHash.slice(0, 12), to: now.slice(0, 12) });
      return { status: 'refused', reason: english(words), words, candidate: c };
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
  settleStaged(opts.dataDir, staged, r);
  return { ...r, candidate: c };
}
