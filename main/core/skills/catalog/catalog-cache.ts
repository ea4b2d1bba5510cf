// The catalog's warm-start cache: one snapshot per tier folder, holding its folder listings (reused while a folder's
// mtime and ctime are unchanged, so a warm start stats folders instead of reading them) and its parse results (reused
// while a file's size, mtime and ctime are unchanged). Stored as one row per tier folder; see docs/skills-catalog.md.
import { statSync } from 'node:fs';
import { readChildren, type Children, type FolderLister, type FoundSkill } from './discover.js';
import type { SkillManifest } from '../format/index.js';
import type { Diagnostic } from '../../base/index.js';

/** Bump when the parser's output or this format changes: older snapshots are ignored (everything re-read once). */
export const CACHE_VERSION = 7; // 7: a text field with a bare ": " is read as text (format/frontmatter.ts), not broken

/**
 * A folder listing is reused only when the folder last changed at least this long before it was read. File-system
 * clocks are coarse (a few ms on Linux, 1–2 s on HFS+/FAT): an entry added in the same tick as the listing would not
 * move the folder's times, so a listing taken that close to a change is read again next time.
 */
export const LISTING_RACY_MS = 2000;

/**
 * One file's revision and parse result, kept as the compact tuple it is stored as (a warm start allocates nothing
 * per file beyond what JSON.parse builds): [realFile, size, mtimeMs, ctimeMs, manifest | 0 (broken), diagnostics | 0
 * (none), nameLine | 0].
 */
export type FileRow = [string, number, number, number, SkillManifest | 0, Diagnostic[] | 0, number];

/** [realDir, mtimeMs, ctimeMs, listedAt (wall clock just before the read), names, symbolic-link names | 0]. */
type DirRow = [string, number, number, number, string[], string[] | 0];

/**
 * The cached state of one tier folder: listings by real folder path, file rows by real file path. A stored snapshot
 * decodes its listings at once and its file rows on the first `files()` call: the catalog walks the folders first
 * and then decodes the rows, so the walk's short-lived garbage is collected without copying 10,000 fresh manifests.
 */
export class RootSnapshot {
  private filesMap: Map<string, FileRow> | undefined;

  constructor(
    readonly dirs: Map<string, DirRow>,
    files: Map<string, FileRow> | undefined,
    private filesJson?: string,
  ) {
    this.filesMap = files;
  }

  files(): Map<string, FileRow> {
    if (!this.filesMap) {
      this.filesMap = decodeFiles(this.filesJson);
      this.filesJson = undefined;
    }
    return this.filesMap;
  }
}

function emptySnapshot(): RootSnapshot {
  return new RootSnapshot(new Map(), new Map());
}

/** A parse result as a file row. */
export function fileRow(
  f: FoundSkill,
  manifest: SkillManifest | undefined,
  diagnostics: Diagnostic[],
  nameLine: number | undefined,
): FileRow {
  return [f.realFile, f.size, f.mtimeMs, f.ctimeMs, manifest ?? 0, diagnostics.length ? diagnostics : 0, nameLine ?? 0];
}

// Stored form: two JSON texts on two lines (JSON.stringify never writes a raw newline):
//   {"v": CACHE_VERSION, "dirs": [DirRow, …]}
//   [FileRow, …]

/** Decode a stored snapshot; a damaged or older one gives an empty snapshot (everything is read and parsed again). */
export function decodeSnapshot(text: string | undefined): RootSnapshot {
  if (!text) return emptySnapshot();
  const nl = text.indexOf('\n');
  try {
    const head = JSON.parse(nl === -1 ? text : text.slice(0, nl)) as { v: number; dirs: DirRow[] };
    if (head.v !== CACHE_VERSION || !Array.isArray(head.dirs) || nl === -1) return emptySnapshot();
    const dirs = new Map<string, DirRow>();
    for (const d of head.dirs) {
      if (typeof d[0] !== 'string' || !Array.isArray(d[4])) return emptySnapshot();
      dirs.set(d[0], d);
    }
    return new RootSnapshot(dirs, undefined, text.slice(nl + 1));
  } catch {
    return emptySnapshot();
  }
}

/** File rows of a stored snapshot; a damaged part gives none (every file is parsed again). */
function decodeFiles(json: string | undefined): Map<string, FileRow> {
  const files = new Map<string, FileRow>();
  if (!json) return files;
  try {
    const rows = JSON.parse(json) as FileRow[];
    if (!Array.isArray(rows)) return files;
    for (const f of rows) {
      // Cheap shape checks only (RootCache.encode wrote the row): a row that fails them voids the rows.
      const m = f[4];
      if (
        typeof f[0] !== 'string' ||
        typeof f[1] !== 'number' ||
        (m !== 0 && (typeof m?.name !== 'string' || typeof m.description !== 'string'))
      ) {
        return new Map();
      }
      files.set(f[0], f);
    }
    return files;
  } catch {
    return new Map();
  }
}

/**
 * One build's view of one tier folder's snapshot: answers folder listings and file revisions from the previous
 * snapshot when they are still valid, and gives the next snapshot (what this build saw: removed folders and files
 * drop out). `changed` says whether the next snapshot differs from the previous one (so it must be stored).
 */
export class RootCache implements FolderLister {
  listed = 0;
  private readonly dirsSeen: DirRow[] = [];
  private readonly filesSeen: FileRow[] = [];
  private parsed = 0;

  constructor(
    private readonly prev: RootSnapshot,
    private readonly racyMs = LISTING_RACY_MS,
  ) {}

  list(dir: string, real: string): Children {
    const st = statSync(dir);
    const old = this.prev.dirs.get(real);
    if (old && old[1] === st.mtimeMs && old[2] === st.ctimeMs && old[3] - Math.max(old[1], old[2]) >= this.racyMs) {
      this.dirsSeen.push(old);
      return old[5] ? { names: old[4], links: old[5] } : { names: old[4] };
    }
    // Time first, then read: a change after this moment moves the folder's times past the recorded ones.
    const listedAt = Date.now();
    const children = readChildren(dir);
    this.listed++;
    this.dirsSeen.push([real, st.mtimeMs, st.ctimeMs, listedAt, children.names, children.links ?? 0]);
    return children;
  }

  /** The cached row of a found file when its revision (size, mtime, ctime) is unchanged. */
  lookup(f: FoundSkill): FileRow | undefined {
    const row = this.prev.files().get(f.realFile);
    if (!row || row[1] !== f.size || row[2] !== f.mtimeMs || row[3] !== f.ctimeMs) return undefined;
    this.filesSeen.push(row);
    return row;
  }

  /** Record a fresh parse of a found file. */
  record(row: FileRow): void {
    this.parsed++;
    this.filesSeen.push(row);
  }

  /** True when the next snapshot differs from the previous one (read folders, parsed files, removed entries). */
  get changed(): boolean {
    return (
      this.listed > 0 ||
      this.parsed > 0 ||
      this.dirsSeen.length !== this.prev.dirs.size ||
      this.filesSeen.length !== this.prev.files().size
    );
  }

  /** The stored form of the snapshot this build saw. */
  encode(): string {
    return `${JSON.stringify({ v: CACHE_VERSION, dirs: this.dirsSeen })}\n${JSON.stringify(this.filesSeen)}`;
  }

  /** The snapshot this build saw (the previous one itself when nothing changed). */
  snapshot(): RootSnapshot {
    if (!this.changed) return this.prev;
    return new RootSnapshot(
      new Map(this.dirsSeen.map((d) => [d[0], d])),
      new Map(this.filesSeen.map((f) => [f[0], f])),
    );
  }
}
