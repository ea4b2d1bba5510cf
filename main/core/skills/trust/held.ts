// Held copies: the files an install waiting for approval will install, staged by Knack in its data folder —
// <data>/fetched/<x>/ (a skill fetched from a source) and <data>/uploads/<x>/ (a zip or a draft the window sent).
// One place knows them: a held install keeps exactly one, deciding it removes it, at open those no approval waits
// for are removed, and none is ever the source of another install (heldSourceProblem).
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { isInside, realPathOf, say, type Diagnostic, type Said } from '../../base/index.js';
import type { ApprovalRow, Store } from '../../store/index.js';
import type { InstallResult } from './install.js';

/** The folders of the data folder that hold copies for installs; each copy lives in a holder folder of its own. */
const HELD_FOLDERS = ['fetched', 'uploads'] as const;

/**
 * A holder younger than this is never swept: another process (a `knack skills add` running while the window opens)
 * may be between making its copy and recording its approval.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** The holder folder `<data>/<fetched|uploads>/<x>` when `source` is a copy held in it (`<x>/<one name>`). */
export function holderOf(dataDir: string, source: string): string | undefined {
  for (const f of HELD_FOLDERS) {
    const rel = relative(join(dataDir, f), source);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) continue;
    const parts = rel.split(sep);
    if (parts.length === 2) return join(dataDir, f, parts[0]!);
  }
  return undefined;
}

/**
 * Why `source` (a path a client, the model or a command line names) cannot be installed or listed from: it lies in a
 * held folder (links resolved, at any depth), or holds one (the data folder, a folder above it), so a walk of it
 * would list other pending installs' copies. A held copy belongs to the one approval it was made for, which installs
 * it by its id; installed again under another approval, two installs would share one copy and deciding either would
 * take the other's files away. The one check for every way a source is named (`skills.install`, `sources.open`,
 * `knack skills install|add`).
 */
export function heldSourceProblem(dataDir: string, source: string): Said | undefined {
  let real: string;
  let data: string;
  try {
    real = realPathOf(source, process.cwd()).real;
    data = realPathOf(dataDir, '/').real;
  } catch {
    return undefined; // a link loop: the install itself refuses what it cannot read
  }
  const held = HELD_FOLDERS.map((f) => join(data, f));
  if (held.some((h) => isInside(real, h))) return say('install.heldCopy', { source });
  if (held.some((h) => isInside(h, real))) return say('install.holdsHeld', { source, data: dataDir });
  return undefined;
}

/** Remove a held copy (its holder folder); a source that is not one (the user's own folder or zip) is left alone. */
export function dropHeld(dataDir: string, source: string): void {
  const holder = holderOf(dataDir, source);
  if (holder) rmSync(holder, { recursive: true, force: true });
}

export type RejectResult =
  { status: 'rejected'; row: ApprovalRow } | { status: 'missing' } | { status: 'decided'; row: ApprovalRow };

/**
 * Reject a pending install (`knack skills reject`, the window's Reject): the approval is decided and its held copy goes
 * with it. A kept draft in <data>/drafts is never removed: it may hold the user's edits, and an approval pointing there
 * cannot tell an old `/save-skill` staging from a draft the user installed by hand.
 */
export function rejectHeldInstall(store: Store, dataDir: string, id: string): RejectResult {
  const row = store.policy.approval(id);
  if (!row) return { status: 'missing' };
  if (!store.policy.decideApproval(id, 'rejected')) return { status: 'decided', row: store.policy.approval(id) ?? row };
  dropHeld(dataDir, row.source);
  return { status: 'rejected', row };
}

/**
 * Once an install from `source` has an answer, keep only the copy an approval still waits for: a held install whose
 * content was already held (the same source added twice) keeps the first copy, and an install that completed an
 * earlier hold (`settled`) drops that hold's copy too.
 */
export function settleHeld(dataDir: string, source: string, r: InstallResult): void {
  const keep = r.status === 'pending' ? r.approval.source : undefined;
  const earlier = r.status === 'installed' ? r.settled : undefined;
  for (const s of new Set([source, ...(earlier ? [earlier] : [])])) if (s !== keep) dropHeld(dataDir, s);
}

/**
 * Remove the holders no pending approval's source is in (its approval decided, or its record lost), once older than
 * the grace. Returns the holders removed, for the one line that says so.
 */
function sweepHeld(dataDir: string, pending: ApprovalRow[], now = Date.now()): string[] {
  const wanted = new Set(pending.map((a) => holderOf(dataDir, a.source)).filter((h) => h !== undefined));
  const removed: string[] = [];
  for (const f of HELD_FOLDERS) {
    const root = join(dataDir, f);
    if (!existsSync(root)) continue;
    for (const name of readdirSync(root)) {
      const holder = join(root, name);
      if (wanted.has(holder)) continue;
      try {
        if (now - statSync(holder).mtimeMs < SWEEP_GRACE_MS) continue;
        rmSync(holder, { recursive: true, force: true });
        removed.push(holder);
      } catch {
        // gone meanwhile
      }
    }
  }
  return removed;
}

/**
 * The sweep at open (the window's workspace, `knack` commands): removes the held copies no pending approval is bound
 * to and returns the one line that says so, or undefined when there were none.
 */
export function sweepHeldAtOpen(dataDir: string, store: Store): { removed: string[]; diagnostic?: Diagnostic } {
  const removed = sweepHeld(dataDir, store.policy.approvals('pending'));
  if (!removed.length) return { removed };
  const n = removed.length;
  return {
    removed,
    diagnostic: {
      severity: 'info',
      code: 'held.removed',
      file: dataDir,
      message: `removed ${n} held ${n === 1 ? 'copy' : 'copies'} of skills no install was waiting for any more (decided, or its approval record lost): ${removed.map((r) => relative(dataDir, r)).join(', ')}`,
    },
  };
}
