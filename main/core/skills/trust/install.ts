// Install and update skills from a folder or a .zip into the user or project tier: stage, audit, decide, rename.
// P0 refused; P1 held as a pending approval bound to the audited content hash; P2 installed. Atomic; never overwrites silently.
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { lazyRequire } from '../../base/index.js';
import type * as Fflate from 'fflate';
import type { Store } from '../../store/index.js';
import type { ApprovalRow } from '../../store/index.js';
import type { PermissionDiff } from '../../policy/index.js';
import { english, fsWords, isInside, saidOwnWrite, say, type Said } from '../../base/index.js';
import { auditSkill, type AuditReport } from './audit.js';

/** fflate builds its tables when loaded (~0.1 s): only a .zip install needs it. */
const fflate = lazyRequire<typeof Fflate>('fflate');

const ZIP_LIMITS = { maxEntries: 5000, maxTotalBytes: 100 * 1024 * 1024 };

export interface InstallOptions {
  /** A skill folder or a .zip file. */
  source: string;
  /** The tier's skills folder (e.g. ~/.workbuddy/skills or <workspace>/.workbuddy/skills). */
  tierRoot: string;
  tier: 'user' | 'project';
  store: Store;
  /** The user accepted P1 findings (CLI --yes or a yes on the terminal). Never accepts P0. */
  approveP1?: boolean;
  /** Replace an installed skill of the same name (an update). Without it an existing skill is never overwritten. */
  replace?: boolean;
  /**
   * The held install the user approved: only its content hash, to its target, installs. It is marked approved in the
   * same transaction as the install, so an approval whose install fails never counts later.
   */
  reviewed?: ApprovalRow;
  /** Called once the audit has read the staged copy, before it is installed (a test acts in that window). */
  onAudited?: () => void;
}

/**
 * `settled`: the source of an earlier hold of the same content this install completed (its approval approved here,
 * with another copy of that content): that copy is no longer waited for.
 */
export type InstallResult =
  | {
      status: 'installed';
      skill: string;
      dest: string;
      report: AuditReport;
      replaced: boolean;
      diff?: PermissionDiff;
      settled?: string;
    }
  | { status: 'refused'; reason: string; words?: Said; report?: AuditReport }
  | {
      status: 'pending';
      reason: string;
      words: Said;
      report: AuditReport;
      approval: ApprovalRow;
      diff?: PermissionDiff;
    }
  | { status: 'exists'; reason: string; words: Said; report: AuditReport; dest: string; diff?: PermissionDiff };

/** A refusal in words (the window says them) and their English (the CLI's text). */
function refused(words: Said, report?: AuditReport): Extract<InstallResult, { status: 'refused' }> {
  return { status: 'refused', reason: english(words), words, ...(report ? { report } : {}) };
}

/** Why a zip entry name is unsafe (zip-slip), as words, or undefined. */
function zipEntryProblem(name: string): Said | undefined {
  if (name.includes('\0')) return say('zip.nul');
  if (name.includes('\\')) return say('zip.backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return say('zip.absolute');
  if (name.split('/').some((s) => s === '..')) return say('zip.climbs');
  return undefined;
}

/** Why fflate could not read an archive: its error codes (0-3 and 8 damaged data, 13 not a zip, 14 the method). */
function zipUnreadable(file: string, e: unknown): Said {
  const code = (e as { code?: unknown }).code;
  const error =
    typeof code === 'string'
      ? fsWords(e)
      : code === 13
        ? say('zip.notZip')
        : code === 14
          ? say('zip.method')
          : say('zip.damaged');
  return say('zip.unreadable', { file: basename(file), error });
}

function extractZip(file: string, into: string): Said | undefined {
  let total = 0;
  let count = 0;
  let problem: Said | undefined;
  let files;
  try {
    const { unzipSync } = fflate();
    files = unzipSync(new Uint8Array(readFileSync(file)), {
      filter: (f) => {
        count++;
        total += f.originalSize;
        const p = zipEntryProblem(f.name);
        if (p && !problem) problem = say('zip.entry', { entry: f.name, problem: p });
        if (count > ZIP_LIMITS.maxEntries && !problem) problem = say('zip.tooMany', { max: ZIP_LIMITS.maxEntries });
        if (total > ZIP_LIMITS.maxTotalBytes && !problem)
          problem = say('zip.tooBig', { max: ZIP_LIMITS.maxTotalBytes });
        return !problem;
      },
    });
  } catch (e) {
    return zipUnreadable(file, e);
  }
  if (problem) return problem;
  let written = 0;
  for (const [name, data] of Object.entries(files)) {
    const dest = resolve(into, name);
    if (!isInside(dest, into)) return say('zip.entry', { entry: name, problem: say('zip.outside') });
    written += data.length;
    if (written > ZIP_LIMITS.maxTotalBytes) return say('zip.tooBig', { max: ZIP_LIMITS.maxTotalBytes });
    try {
      if (name.endsWith('/')) {
        mkdirSync(dest, { recursive: true });
        continue;
      }
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, data, { flag: 'wx' });
    } catch (e) {
      // A name that is both a file and a folder, or the same file twice: a broken archive, not a crash.
      const code = (e as NodeJS.ErrnoException).code;
      const why =
        code === 'EEXIST' || code === 'EISDIR'
          ? say('zip.twice')
          : code === 'ENOTDIR'
            ? say('zip.underFile')
            : say('zip.cannotWrite', { error: fsWords(e) });
      return say('zip.entry', { entry: name, problem: why });
    }
  }
  return undefined;
}

/**
 * Copy a folder; symlinks inside it are copied as the files they point to, links out of it stop the copy, and a file
 * that cannot be read or written stops it with its name. `root`: the skill folder, whose name paths are shown from.
 */
function copyFolder(src: string, dest: string, root: string): Said | undefined {
  const shown = (p: string) => relative(dirname(root), p) || basename(p);
  try {
    mkdirSync(dest, { recursive: true });
  } catch (e) {
    return say('copy.failed', { file: shown(src), error: fsWords(e) });
  }
  let names: string[];
  try {
    names = readdirSync(src);
  } catch (e) {
    return say('copy.failed', { file: shown(src), error: fsWords(e) });
  }
  for (const name of names) {
    const s = join(src, name);
    const d = join(dest, name);
    try {
      const st = lstatSync(s);
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(s);
        } catch {
          return say('copy.linkBroken', { link: shown(s) });
        }
        if (!isInside(real, root)) return say('copy.linkOutside', { link: shown(s), target: real });
        // A linked folder inside the skill is already copied where it lives; FIFOs, sockets and devices are not copied.
        if (!statSync(real).isFile()) continue;
        copyFileSync(real, d);
      } else if (st.isDirectory()) {
        const p = copyFolder(s, d, root);
        if (p) return p;
      } else if (st.isFile()) {
        copyFileSync(s, d);
      }
    } catch (e) {
      return say('copy.failed', { file: shown(s), error: fsWords(e) });
    }
  }
  return undefined;
}

/** SHA-256 of every regular file below `root`, by the path it will have below `dest`. */
function fileHashes(root: string, dest: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile())
        out.set(join(dest, relative(root, p)), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

/**
 * Put the staged folder `from` at `dest`: a rename, or, across file systems (the temporary folder on another disk), a
 * copy into the tier beside it first, then a rename, so `dest` appears whole.
 */
function moveInto(from: string, dest: string, tierRoot: string): void {
  try {
    renameSync(from, dest);
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
  }
  const near = mkdtempSync(join(tierRoot, '.knack-install-'));
  try {
    const copy = join(near, 'skill');
    cpSync(from, copy, { recursive: true, verbatimSymlinks: true });
    chmodSync(copy, statSync(from).mode & 0o777);
    renameSync(copy, dest);
  } finally {
    rmSync(near, { recursive: true, force: true });
  }
}

function skillRootIn(staging: string): string | undefined {
  if (existsSync(join(staging, 'SKILL.md')) || existsSync(join(staging, 'skill.md'))) return staging;
  const entries = readdirSync(staging).filter((n) => !n.startsWith('__MACOSX'));
  if (entries.length === 1 && statSync(join(staging, entries[0]!)).isDirectory()) {
    const inner = join(staging, entries[0]!);
    if (existsSync(join(inner, 'SKILL.md')) || existsSync(join(inner, 'skill.md'))) return inner;
  }
  return undefined;
}

const NAME_RE = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}[\p{L}\p{N}])?$/u;

/** Install (or update, with `replace`) one skill. Nothing is left behind unless the result is `installed`. */
export function installSkill(opts: InstallOptions): InstallResult {
  const source = resolve(opts.source);
  if (!existsSync(source)) return refused(say('install.notFound', { source: opts.source }));
  const isZip = statSync(source).isFile();
  if (isZip && !/\.zip$/i.test(source)) return refused(say('install.notFolderOrZip', { source: opts.source }));
  // A folder is checked before anything is copied: a folder that is no skill (a whole workspace) is not copied
  // first, and a tier inside the skill folder would be copied into itself without end.
  const srcRoot = isZip ? undefined : skillRootIn(realpathSync(source));
  if (!isZip && !srcRoot) return refused(say('install.noSkillMd', { folder: basename(source) }));
  mkdirSync(opts.tierRoot, { recursive: true });
  const tierRoot = realpathSync(opts.tierRoot);
  if (srcRoot && isInside(tierRoot, srcRoot)) {
    return refused(say('install.tierInside', { tierRoot, source: srcRoot }));
  }
  // Staged outside the tier, in Knack's own temporary folder: a command running since before a project tier's folder
  // existed may write in that folder until it ends, and would change what the audit reads, or what it has read.
  const staging = mkdtempSync(join(tmpdir(), 'knack-install-'));
  try {
    const problem = srcRoot ? copyFolder(srcRoot, staging, srcRoot) : extractZip(source, staging);
    if (problem) {
      const link = problem.code === 'copy.linkOutside' || problem.code === 'copy.linkBroken';
      return refused(problem, srcRoot && link ? auditSkill(srcRoot) : undefined);
    }
    const root = skillRootIn(staging);
    if (!root) return refused(say('install.noSkillMd', { folder: basename(source) }));
    let report = auditSkill(root);
    const name = report.skill;
    if (!NAME_RE.test(name)) return refused(say('install.badName', { name }), report);
    const dest = join(tierRoot, name);
    const existing = existsSync(dest);
    if (existing)
      report = auditSkill(root, {
        previous: auditSkill(dest).permissions ?? {
          tools: [],
          commands: {},
          network: false,
          read: [],
          write: [],
          declared: 'none',
        },
      });
    report = { ...report, dir: source };
    opts.onAudited?.();
    const diff = report.diff;
    const withDiff = diff ? { diff } : {};
    const reviewed = opts.reviewed;
    if (reviewed && (report.contentHash !== reviewed.contentHash || dest !== reviewed.target)) {
      // Not what the user saw: the approval is closed (it can never install this or the reviewed content later).
      opts.store.policy.decideApproval(reviewed.id, 'rejected');
      const words = say('install.changed', {
        name,
        from: reviewed.contentHash.slice(0, 12),
        to: report.contentHash.slice(0, 12),
      });
      return { ...refused(words, report), ...withDiff };
    }
    if (report.level === 'P0') {
      const first = report.findings.find((f) => f.level === 'P0')!;
      const finding = say('trustFinding', {
        file: first.file,
        line: first.line,
        rule: first.rule,
        message: first.words,
      });
      return { ...refused(say('install.p0', { finding }), report), ...withDiff };
    }
    if (existing && !opts.replace) {
      const words = say('install.exists', { name, dest });
      return {
        status: 'exists',
        reason: english(words),
        words,
        report,
        dest,
        ...withDiff,
      };
    }
    let approvalId = reviewed?.id;
    let settled: string | undefined;
    if (report.level === 'P1' && !reviewed) {
      let approval = opts.store.policy.createApproval({
        kind: existing ? 'update' : 'install',
        skill: name,
        tier: opts.tier,
        source,
        target: dest,
        contentHash: report.contentHash,
        level: report.level,
        reportJson: JSON.stringify({
          findings: report.findings,
          diff: diff ?? null,
          permissions: report.permissions ?? null,
        }),
      });
      // The same content held before for the same target: that hold is this one. Its copy stays the one held,
      // unless it is gone, when this copy takes its place.
      if (approval.source !== source && !existsSync(approval.source)) {
        opts.store.policy.moveApproval(approval.id, source);
        approval = { ...approval, source };
      }
      if (!opts.approveP1) {
        const words = say('install.pending', { findings: report.findings.filter((f) => f.level === 'P1').length });
        return {
          status: 'pending',
          reason: english(words),
          words,
          report,
          approval,
          ...withDiff,
        };
      }
      approvalId = approval.id;
      if (approval.source !== source) settled = approval.source;
    }
    chmodSync(root, 0o755 & ~process.umask()); // mkdtemp makes 0700; an installed skill is an ordinary folder
    // Commit: rename into place; an update moves the old version aside first and restores it on failure.
    // What each file holds, read from the staged copy no command can write: the bytes the audit read.
    const contents = fileHashes(root, dest);
    const commit = () => {
      if (existing) {
        const backup = join(tierRoot, `.knack-old-${randomBytes(4).toString('hex')}`);
        renameSync(dest, backup);
        try {
          moveInto(root, dest, tierRoot);
        } catch (e) {
          renameSync(backup, dest);
          throw e;
        }
        rmSync(backup, { recursive: true, force: true });
      } else {
        moveInto(root, dest, tierRoot);
      }
      // Knack's own write, with what it holds: a command running since before the tier's folder existed does not get
      // it swept aside, and a file it changed meanwhile is not taken for Knack's.
      saidOwnWrite(dest, contents);
    };
    if (approvalId) {
      // Check, mark and install as one: an approval decided meanwhile (rejected elsewhere) installs nothing, and a
      // failed rename rolls the mark back.
      const id = approvalId;
      const marked = opts.store.policy.batch(() => {
        if (!opts.store.policy.decideApproval(id, 'approved')) return false;
        if (report.level === 'P1') opts.store.policy.setTrust(name, report.contentHash, 'trusted');
        commit();
        return true;
      });
      if (!marked) return refused(say('install.alreadyDecided', { id }), report);
    } else commit();
    return {
      status: 'installed',
      skill: name,
      dest,
      report: { ...report, dir: dest },
      replaced: existing,
      ...withDiff,
      ...(settled ? { settled } : {}),
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Approve a pending install/update and run it again: it only goes through if the content still hashes the same, and
 * the approval is recorded only with that install.
 */
export function approvePendingInstall(store: Store, id: string): InstallResult {
  const row = store.policy.approval(id);
  if (!row) return refused(say('install.noApproval', { id }));
  if (row.status !== 'pending') return refused(say('install.approvalIs', { id, status: row.status }));
  if (row.kind === 'discovered') return refused(say('install.discovered', { id }));
  // Its held copy (or the user's folder) is gone: nothing to approve; the record waits to be dismissed (rejected).
  if (!existsSync(row.source)) return refused(say('install.gone', { id, source: row.source }));
  return installSkill({
    source: row.source,
    tierRoot: dirname(row.target),
    tier: row.tier as 'user' | 'project',
    store,
    replace: row.kind === 'update',
    reviewed: row,
  });
}
