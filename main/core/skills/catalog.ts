// The skill catalog: discovered skills merged across tiers (project > user > builtin, shadowed ones kept),
// per-workspace toggles, a parse cache keyed by file revision so a warm start re-parses only what changed.
//
// Entry point for the rest of the app:
//
//   const catalog = await openCatalog({ paths, workspace, store, settings, review });
//   catalog.enabled()            // what the prompt, matcher and SkillSearch may use (not shadowed, not disabled)
//   catalog.get('git-commit')    // the winning entry for a name (case-insensitive, NFKC), or undefined
//   catalog.entries()            // every indexed skill, shadowed ones included (entry.shadowedBy says by whom)
//   catalog.broken()             // skills left out (bad YAML, no name/description) with their diagnostics
//   catalog.diagnostics()        // every finding: per-skill ones and discovery ones (bounds hit, unreadable folders)
//   catalog.setEnabled(name, on) // per-workspace toggle, stored in the SQLite store when one is given
//   await catalog.refresh()      // re-walk the tiers; only changed files are re-parsed; emits 'change'
//   catalog.on('change', (c: CatalogChange) => …)
//
// `paths` (KnackPaths) gives the builtin folder and the home whose `.workbuddy/skills` (and `.agents/skills`) is the user
// tier; `workspace` gives the project tier. `store` is optional (no cache, in-memory toggles without it). `settings`
// defaults to DEFAULT_SETTINGS. `review(entry)` lets the trust layer disable a skill ({enabled: false, reason});
// it runs after every build/refresh and wins over the user's toggle.
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../config.js';
import type { KnackPaths } from '../paths.js';
import type { Store } from '../store/index.js';
import { discoverAll, tierRoots, type FoundSkill } from './discover.js';
import { folderMismatch, parseSkillFile, type ParsedSkill } from './manifest.js';
import { parseFilesParallel } from './parse-pool.js';
import { TIER_RANK, type CatalogEntry, type Diagnostic, type SkillManifest, type Tier } from './types.js';

/** Bump when the parser's output changes: cached rows of an older version are re-parsed. */
export const PARSER_VERSION = 1;

export type ReviewHook = (entry: CatalogEntry) => { enabled: false; reason: string } | undefined;

export interface CatalogOptions {
  paths: KnackPaths;
  /** The project folder (project tier); omit for no project tier. */
  workspace?: string;
  store?: Store;
  settings?: Settings;
  review?: ReviewHook;
  /** Parse threads for cold builds: 0/1 = in this thread; default: all cores when there are many files to parse. */
  threads?: number;
}

/** A skill that could not be indexed. */
export interface BrokenSkill {
  tier: Tier;
  source: 'workbuddy' | 'agents';
  dir: string;
  file: string;
  diagnostics: Diagnostic[];
}

export interface CatalogTimings {
  discoverMs: number;
  parseMs: number;
  mergeMs: number;
  totalMs: number;
  /** SKILL.md files found. */
  files: number;
  /** Files parsed this time (not served from cache). */
  parsed: number;
  /** Files served from the cache (memory or SQLite). */
  cached: number;
  /** Folders visited by discovery. */
  folders: number;
  threads: number;
}

export interface CatalogChange {
  added: string[];
  removed: string[];
  changed: string[];
}

interface CachedResult {
  v: number;
  manifest?: SkillManifest;
  diagnostics: Diagnostic[];
  nameLine?: number;
}

interface Revisioned {
  size: number;
  mtimeMs: number;
  result: CachedResult;
}

/** Lookup key for names: NFKC, lowercase. */
export function nameKey(name: string): string {
  // ASCII names (almost all) need no Unicode normalisation.
  return /^[\x20-\x7e]*$/.test(name) ? name.toLowerCase() : name.normalize('NFKC').toLowerCase();
}

function now(): number {
  return performance.now();
}

export class Catalog extends EventEmitter {
  private readonly settings: Settings;
  private readonly workspaceKey: string;
  private memo = new Map<string, Revisioned>();
  private all: CatalogEntry[] = [];
  private winners = new Map<string, CatalogEntry>();
  private brokenList: BrokenSkill[] = [];
  private discoveryDiags: Diagnostic[] = [];
  private memToggles = new Map<string, boolean>();
  private running: Promise<CatalogChange> | undefined;
  private again = false;
  timings: CatalogTimings = { discoverMs: 0, parseMs: 0, mergeMs: 0, totalMs: 0, files: 0, parsed: 0, cached: 0, folders: 0, threads: 1 };

  constructor(readonly options: CatalogOptions) {
    super();
    this.settings = options.settings ?? DEFAULT_SETTINGS;
    this.workspaceKey = options.workspace ?? '';
  }

  /** The settings this catalog was built with (defaults applied). */
  get settingsInUse(): Settings {
    return this.settings;
  }

  /** Every indexed skill: winners and shadowed ones, sorted by name then precedence. */
  entries(): CatalogEntry[] {
    return this.all;
  }

  /** Skills the prompt, matcher and SkillSearch may use: not shadowed, enabled. */
  enabled(): CatalogEntry[] {
    return this.all.filter((e) => !e.shadowedBy && e.enabled);
  }

  /** The winning entry for a name (enabled or not), case-insensitive. */
  get(name: string): CatalogEntry | undefined {
    return this.winners.get(nameKey(name));
  }

  broken(): BrokenSkill[] {
    return this.brokenList;
  }

  /** Discovery findings (bounds hit, unreadable folders, symlink loops). */
  discoveryDiagnostics(): Diagnostic[] {
    return this.discoveryDiags;
  }

  /** Every finding: discovery, broken skills, and warnings on indexed ones. */
  diagnostics(): Diagnostic[] {
    return [...this.discoveryDiags, ...this.brokenList.flatMap((b) => b.diagnostics), ...this.all.flatMap((e) => e.diagnostics)];
  }

  /** Turn a skill on or off in this workspace. Throws when no skill has that name. */
  setEnabled(name: string, on: boolean): CatalogEntry {
    const entry = this.get(name);
    if (!entry) throw new Error(`no skill named "${name}"`);
    const key = entry.manifest.name;
    if (this.options.store) this.options.store.skills.setToggle(this.workspaceKey, key, on);
    else this.memToggles.set(key, on);
    this.applyToggles();
    this.emit('change', { added: [], removed: [], changed: [key] } satisfies CatalogChange);
    return this.get(name)!;
  }

  /** Re-walk the tiers and re-parse what changed. Concurrent calls share one run (plus one follow-up). */
  refresh(): Promise<CatalogChange> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<CatalogChange> => {
      let change = await this.build();
      while (this.again) {
        this.again = false;
        const next = await this.build();
        change = {
          added: [...new Set([...change.added, ...next.added])],
          removed: [...new Set([...change.removed, ...next.removed])],
          changed: [...new Set([...change.changed, ...next.changed])],
        };
      }
      return change;
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async build(): Promise<CatalogChange> {
    const t0 = now();
    const { paths, workspace, store } = this.options;
    const roots = tierRoots(paths, workspace, this.settings.discovery.agentsFolders);
    const disc = discoverAll(roots, { maxDepth: this.settings.discovery.maxDepth, maxFolders: this.settings.discovery.maxFolders });
    const t1 = now();

    // Revisions: memory first, then the SQLite cache (one query), then parse what is left.
    const results = new Map<string, CachedResult>();
    const toParse: FoundSkill[] = [];
    let dbRows: ReturnType<NonNullable<typeof store>['skills']['allCached']> | undefined;
    for (const f of disc.found) {
      if (results.has(f.realFile)) continue;
      const m = this.memo.get(f.realFile);
      if (m && m.size === f.size && m.mtimeMs === f.mtimeMs) {
        results.set(f.realFile, m.result);
        continue;
      }
      if (store && !dbRows) dbRows = store.skills.allCached();
      const row = dbRows?.get(f.realFile);
      if (row && row.size === f.size && row.mtimeMs === f.mtimeMs) {
        try {
          const r = JSON.parse(row.parsedJson) as CachedResult;
          if (r.v === PARSER_VERSION) {
            results.set(f.realFile, r);
            continue;
          }
        } catch {
          // a damaged row is simply re-parsed
        }
      }
      toParse.push(f);
    }
    const cached = results.size;
    let threads = 1;
    if (toParse.length) {
      const parsed = await parseFilesParallel(toParse.map((f) => f.realFile), this.options.threads);
      threads = parsed.threads;
      const rows: { filePath: string; size: number; mtimeMs: number; parsedJson: string }[] = [];
      toParse.forEach((f, i) => {
        const p: ParsedSkill = parsed.results[i]!;
        const r: CachedResult = { v: PARSER_VERSION, diagnostics: p.diagnostics, ...(p.manifest ? { manifest: p.manifest } : {}), ...(p.nameLine !== undefined ? { nameLine: p.nameLine } : {}) };
        results.set(f.realFile, r);
        rows.push({ filePath: f.realFile, size: f.size, mtimeMs: f.mtimeMs, parsedJson: JSON.stringify(r) });
      });
      if (store) {
        try {
          store.skills.putCached(rows);
        } catch {
          // the cache is an optimisation: a failed write never stops the catalog
        }
      }
    }
    const t2 = now();

    // Forget revisions of files that disappeared since the last build.
    const nextMemo = new Map<string, Revisioned>();
    for (const f of disc.found) {
      const r = results.get(f.realFile);
      if (r) nextMemo.set(f.realFile, { size: f.size, mtimeMs: f.mtimeMs, result: r });
    }
    const gone = [...this.memo.keys()].filter((k) => !nextMemo.has(k));
    if (gone.length && store) {
      try {
        store.skills.deleteCached(gone);
      } catch {
        // ignore: see above
      }
    }
    this.memo = nextMemo;

    const before = new Map(this.all.filter((e) => !e.shadowedBy).map((e) => [nameKey(e.manifest.name), `${e.file}\0${e.size}\0${e.mtimeMs}`]));
    this.merge(disc.found, results);
    this.discoveryDiags = disc.diagnostics;
    const t3 = now();
    this.timings = {
      discoverMs: t1 - t0, parseMs: t2 - t1, mergeMs: t3 - t2, totalMs: t3 - t0,
      files: disc.found.length, parsed: toParse.length, cached, folders: disc.visited, threads,
    };
    const after = new Map([...this.winners].map(([k, e]) => [k, `${e.file}\0${e.size}\0${e.mtimeMs}`]));
    const change: CatalogChange = {
      added: [...after.keys()].filter((k) => !before.has(k)).map((k) => this.winners.get(k)!.manifest.name),
      removed: [...before.keys()].filter((k) => !after.has(k)),
      changed: [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k)).map((k) => this.winners.get(k)!.manifest.name),
    };
    if (change.added.length || change.removed.length || change.changed.length) this.emit('change', change);
    return change;
  }

  private merge(found: FoundSkill[], results: Map<string, CachedResult>): void {
    const records: { e: CatalogEntry; i: number; key: string }[] = [];
    const broken: BrokenSkill[] = [];
    for (const f of found) {
      const r = results.get(f.realFile);
      if (!r) continue;
      const diagnostics = r.diagnostics.length ? r.diagnostics.map((d) => (d.file === f.realFile ? { ...d, file: f.file } : d)) : [];
      if (!r.manifest) {
        broken.push({ tier: f.tier, source: f.source, dir: f.dir, file: f.file, diagnostics });
        continue;
      }
      const mm = folderMismatch(r.manifest.name, basename(f.dir), f.file, false, r.nameLine);
      if (mm) diagnostics.push(mm);
      const e: CatalogEntry = {
        manifest: r.manifest, tier: f.tier, source: f.source, dir: f.dir, realDir: f.realDir, file: f.file,
        size: f.size, mtimeMs: f.mtimeMs, diagnostics, enabled: true,
      };
      records.push({ e, i: records.length, key: nameKey(r.manifest.name) });
    }
    // Precedence: higher tier first; within a tier `.workbuddy` before `.agents`, then discovery order.
    const order = [...records].sort((a, b) => TIER_RANK[b.e.tier] - TIER_RANK[a.e.tier] || (a.e.source === b.e.source ? 0 : a.e.source === 'workbuddy' ? -1 : 1) || a.i - b.i);
    const winners = new Map<string, CatalogEntry>();
    const all: { e: CatalogEntry; key: string }[] = [];
    for (const { e, key } of order) {
      const win = winners.get(key);
      if (!win) winners.set(key, e);
      else {
        e.shadowedBy = { tier: win.tier, file: win.file };
        if (win.tier === e.tier) {
          e.diagnostics.push({
            severity: 'warning', code: 'name.duplicate', file: e.file, field: 'name',
            message: `another ${e.tier} skill is also named "${e.manifest.name}" (${win.file}); that one is used`,
          });
        }
      }
      all.push({ e, key });
    }
    // Stable sort by name keeps precedence order among entries of the same name.
    all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.all = all.map((x) => x.e);
    this.winners = winners;
    this.brokenList = broken;
    this.applyToggles();
  }

  private applyToggles(): void {
    const toggles = this.options.store ? this.options.store.skills.toggles(this.workspaceKey) : this.memToggles;
    for (const e of this.all) {
      const t = toggles.get(e.manifest.name);
      e.enabled = t ?? true;
      delete e.disabledReason;
      if (t === false) e.disabledReason = 'disabled by the user in this workspace';
      let verdict: ReturnType<ReviewHook>;
      try {
        verdict = this.options.review?.(e);
      } catch (err) {
        // Fail closed: a skill the trust layer could not review is not used.
        verdict = { enabled: false, reason: `trust review failed: ${(err as Error).message}` };
      }
      if (verdict && verdict.enabled === false) {
        e.enabled = false;
        e.disabledReason = verdict.reason;
      }
    }
  }
}

/** Build the catalog for a workspace (cold or warm from the store's cache). See the header for the API. */
export async function openCatalog(options: CatalogOptions): Promise<Catalog> {
  const catalog = new Catalog(options);
  await catalog.refresh();
  return catalog;
}

/** Parse files in this thread (small batches, workers, tests). */
export function parseFilesInline(files: string[]): ParsedSkill[] {
  return files.map((f) => parseSkillFile(f, { folderName: null }));
}
