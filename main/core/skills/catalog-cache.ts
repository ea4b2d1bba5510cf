// The catalog's warm-start cache: one snapshot per tier folder, holding its folder listings (reused while a folder's
// mtime and ctime are unchanged, so a warm start stats folders instead of reading them) and its parse results (reused
// while a file's size, mtime and ctime are unchanged). Stored as one row per tier folder; see docs/skills-catalog.md.
import { statSync } from 'node:fs';
import type { Child, FolderLister, FoundSkill } from './discover.js';
import { readChildren } from './discover.js';
import type { Diagnostic, SkillManifest } from './types.js';

/** Bump when the parser's output or this format changes: older snapshots are ignored (everything re-read once). */
export const CACHE_VERSION = 2;

/**
 * A folder listing is reused only when the folder last changed at least this long before it was read. File-system
 * clocks are coarse (a few ms on Linux, 1–2 s on HFS+/FAT): an entry added in the same tick as the listing would not
 * move the folder's times, so a listing taken that close to a change is read again next time.
 */
export const LISTING_RACY_MS = 2000;

/** One file's parse result as the catalog keeps it. */
export interface CachedResult {
  manifest?: SkillManifest;
  diagnostics: Diagnostic[];
  /** File line of the `name` key (for the folder-mismatch finding made at merge time). */
  nameLine?: number;
}

interface Listing {
  mtimeMs: number;
  ctimeMs: number;
  /** Wall-clock time just before the folder was read. */
  listedAt: number;
  children: Child[];
}

interface FileRow {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  result: CachedResult;
}

/** The cached state of one tier folder: listings by real folder path, parse results by real file path. */
export interface RootSnapshot {
  dirs: Map<string, Listing>;
  files: Map<string, FileRow>;
}

export function emptySnapshot(): RootSnapshot {
  return { dirs: new Map(), files: new Map() };
}

// Stored form (compact JSON arrays; one JSON.parse per tier folder on a warm start):
//   {"v": CACHE_VERSION, "dirs": [[realDir, mtimeMs, ctimeMs, listedAt, ["d<name>" | "l<name>", …]], …],
//    "files": [[realFile, size, mtimeMs, ctimeMs, manifest | 0, diagnostics | 0, nameLine | 0], …]}
type StoredDir = [string, number, number, number, string[]];
type StoredFile = [string, number, number, number, SkillManifest | 0, Diagnostic[] | 0, number];
interface Stored {
  v: number;
  dirs: StoredDir[];
  files: StoredFile[];
}

/** Shared by every cached result without findings (never mutated: the merge copies diagnostics). */
const NO_DIAGNOSTICS = Object.freeze([]) as unknown as Diagnostic[];

/** Decode a stored snapshot; a damaged or older one gives an empty snapshot (everything is read and parsed again). */
export function decodeSnapshot(json: string | undefined): RootSnapshot {
  if (!json) return emptySnapshot();
  try {
    const s = JSON.parse(json) as Stored;
    if (s.v !== CACHE_VERSION || !Array.isArray(s.dirs) || !Array.isArray(s.files)) return emptySnapshot();
    const dirs = new Map<string, Listing>();
    for (const d of s.dirs) {
      if (typeof d[0] !== 'string' || !Array.isArray(d[4])) return emptySnapshot();
      const children = d[4].map((e): Child => ({ name: e.slice(1), link: e.charCodeAt(0) === 108 /* l */ }));
      dirs.set(d[0], { mtimeMs: d[1], ctimeMs: d[2], listedAt: d[3], children });
    }
    const files = new Map<string, FileRow>();
    for (const f of s.files) {
      // Cheap shape checks only (the row was written by encodeSnapshot): a row that fails them voids the snapshot.
      const m = f[4];
      if (typeof f[0] !== 'string' || typeof f[1] !== 'number' || (m !== 0 && (typeof m?.name !== 'string' || typeof m.description !== 'string'))) {
        return emptySnapshot();
      }
      const diagnostics = f[5] || NO_DIAGNOSTICS;
      const result: CachedResult = m === 0 ? { diagnostics } : f[6] ? { manifest: m, diagnostics, nameLine: f[6] } : { manifest: m, diagnostics };
      files.set(f[0], { size: f[1], mtimeMs: f[2], ctimeMs: f[3], result });
    }
    return { dirs, files };
  } catch {
    return emptySnapshot();
  }
}

export function encodeSnapshot(s: RootSnapshot): string {
  const dirs: StoredDir[] = [];
  for (const [real, l] of s.dirs) dirs.push([real, l.mtimeMs, l.ctimeMs, l.listedAt, l.children.map((c) => (c.link ? 'l' : 'd') + c.name)]);
  const files: StoredFile[] = [];
  for (const [real, f] of s.files) {
    const r = f.result;
    files.push([real, f.size, f.mtimeMs, f.ctimeMs, r.manifest ?? 0, r.diagnostics.length ? r.diagnostics : 0, r.nameLine ?? 0]);
  }
  return JSON.stringify({ v: CACHE_VERSION, dirs, files } satisfies Stored);
}

/**
 * One build's view of one tier folder's snapshot: answers folder listings and file revisions from the previous
 * snapshot when they are still valid, and collects the next snapshot (only what this build saw: removed folders and
 * files drop out). `changed` says whether the next snapshot differs from the previous one (so it must be stored).
 */
export class RootCache implements FolderLister {
  listed = 0;
  private readonly next: RootSnapshot = emptySnapshot();
  private reparsed = false;

  constructor(private readonly prev: RootSnapshot, private readonly racyMs = LISTING_RACY_MS) {}

  list(dir: string, real: string): Child[] {
    const st = statSync(dir);
    const old = this.prev.dirs.get(real);
    if (old && old.mtimeMs === st.mtimeMs && old.ctimeMs === st.ctimeMs && old.listedAt - Math.max(old.mtimeMs, old.ctimeMs) >= this.racyMs) {
      this.next.dirs.set(real, old);
      return old.children;
    }
    // Time first, then read: a change after this moment moves the folder's times past the recorded ones.
    const listedAt = Date.now();
    const children = readChildren(dir);
    this.listed++;
    this.next.dirs.set(real, { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, listedAt, children });
    return children;
  }

  /** The cached parse of a found file when its revision (size, mtime, ctime) is unchanged. */
  lookup(f: FoundSkill): CachedResult | undefined {
    const row = this.prev.files.get(f.realFile);
    if (!row || row.size !== f.size || row.mtimeMs !== f.mtimeMs || row.ctimeMs !== f.ctimeMs) return undefined;
    this.next.files.set(f.realFile, row);
    return row.result;
  }

  /** Record a fresh parse of a found file. */
  record(f: FoundSkill, result: CachedResult): void {
    this.reparsed = true;
    this.next.files.set(f.realFile, { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, result });
  }

  /** The snapshot this build saw. */
  snapshot(): RootSnapshot {
    return this.next;
  }

  /** True when the next snapshot differs from the previous one (read folders, parsed files, removed entries). */
  get changed(): boolean {
    return this.listed > 0 || this.reparsed || this.next.dirs.size !== this.prev.dirs.size || this.next.files.size !== this.prev.files.size;
  }
}
