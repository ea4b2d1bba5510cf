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
//   catalog.folders()            // the folders the last build walked and the entries in them (what watch.ts watches)
//   catalog.held('git-commit')   // the skill of that name held for trust (refused, pending, checking): it acts as nobody
//   catalog.checking()           // skills whose background audit has not finished; await catalog.settled() for all
//
// `paths` (KnackPaths) gives the builtin folder and the home whose `.workbuddy/skills` (and `.agents/skills`) is the user
// tier; `workspace` gives the project tier. `store` is optional (no cache, in-memory toggles without it). `settings`
// defaults to DEFAULT_SETTINGS. `review(entry)` lets the trust layer disable a skill ({enabled: false, reason});
// it runs after every build/refresh and wins over the user's toggle.
import { EventEmitter } from 'node:events';
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../config/index.js';
import type { KnackPaths } from '../../config/index.js';
import type { Store } from '../../store/index.js';
import { decodeSnapshot, fileRow, RootCache, type FileRow, type RootSnapshot } from './catalog-cache.js';
import { discoverAll, tierRoots, type FoundSkill, type TierRoot } from './discover.js';
import { folderMismatch, parseFoundSkill } from '../format/index.js';
import { TIER_RANK, type CatalogEntry, type SkillManifest, type Tier, type TrustHold } from '../format/index.js';
import type { Diagnostic } from '../../base/index.js';
import { english, nameKey, say, type Said, type WordCode } from '../../base/index.js';

/**
 * The trust layer's verdict on one entry: undefined = may act. `trust` says the skill is held (refused, pending the
 * user, or still being checked): a held skill shadows nobody, the lower-tier skill of its name acts until it is trusted.
 */
export type ReviewHook = ((
  entry: CatalogEntry,
) => { enabled: false; reason: string; words?: Said; trust?: TrustHold } | undefined) & {
  /**
   * Called before each review pass with every entry (the trust layer starts background audits here). `unchanged`: the
   * real folders a hot reload vouches for (RefreshOptions.unchanged); absent, every folder is looked at.
   */
  prepare?(entries: CatalogEntry[], unchanged?: (dir: string) => boolean): void;
  /**
   * Verdicts that arrive later (background audits): the catalog reviews again and emits 'change'. The listener is
   * given the real folders whose verdicts arrived (only their skills are reviewed again), or nothing to review all.
   */
  onVerdicts?(listener: (dirs?: ReadonlySet<string>) => void): void;
  /**
   * Folders whose SKILL.md changed between the catalog's read and the audit's (the verdict was for other bytes): the
   * catalog reads them again (a refresh: their stat moved, so they are parsed again), then says 'verdicts'.
   */
  onStale?(listener: (dirs: ReadonlySet<string>) => void): void;
  /** Stop background work (Catalog.close). */
  close?(): Promise<void>;
};

export interface CatalogOptions {
  paths: KnackPaths;
  /** The project folder (project tier); omit for no project tier. */
  workspace?: string;
  store?: Store;
  settings?: Settings;
  review?: ReviewHook;
  /**
   * A cached folder listing is reused only when the folder changed at least this long before it was read
   * (default LISTING_RACY_MS, 2 s: coarse file-system clocks). Tests lower it; 0 trusts any unchanged folder.
   */
  listingRacyMs?: number;
  /**
   * Paths discovery treats as absent right now: the protected paths a sandboxed command running in the workspace may
   * be creating (core/contain's Wall.guarded), moved aside once it ends. A skill planted there is never listed.
   */
  hidden?: () => readonly string[];
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
  /** Cache lookups, parsing of new or changed files, and the snapshot store writes. */
  parseMs: number;
  /** Of parseMs: parsing the new or changed SKILL.md heads. */
  newParseMs: number;
  /** Of parseMs: encoding and storing the changed tier-folder snapshots. */
  storeMs: number;
  /** Merge, shadowing, and the trust layer's pass (prepare + one review per entry). */
  mergeMs: number;
  /** Of mergeMs: the trust layer's prepare, the toggles with one review per entry, and shadowing. */
  reviewMs: number;
  totalMs: number;
  /** SKILL.md files found. */
  files: number;
  /** Files parsed this time (not served from cache). */
  parsed: number;
  /** Files served from the cache (memory or SQLite). */
  cached: number;
  /** Folders visited by discovery. */
  folders: number;
  /** Folders read from disk (readdir); the other visited folders were unchanged and listed from the cache. */
  listed: number;
}

interface RefreshOptions {
  /**
   * A hot reload's word that nothing in a skill folder (a real path) changed since the last build: no file event
   * touched it and it was watched all along (watch.ts). The trust review then keeps that folder's last verdict and tree
   * check instead of looking at its files again. Absent (every other caller): every folder is looked at.
   */
  unchanged?: (dir: string) => boolean;
}

export interface CatalogChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The real path of a folder, or the path itself when it cannot be resolved (not created yet). */
function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

function now(): number {
  return performance.now();
}

export class Catalog extends EventEmitter {
  private readonly settings: Settings;
  private readonly workspaceKey: string;
  /** Each tier folder's snapshot as the last build left it (a refresh starts from these, not from the store). */
  private snapshots = new Map<string, RootSnapshot>();
  private all: CatalogEntry[] = [];
  private winners = new Map<string, CatalogEntry>();
  private brokenList: BrokenSkill[] = [];
  private discoveryDiags: Diagnostic[] = [];
  private memToggles = new Map<string, boolean>();
  /** The toggles as last read from the store. */
  private lastToggles: Map<string, boolean> | undefined;
  /** Each entry's name key (nameKey of its name), worked out once at merge. */
  private keys = new WeakMap<CatalogEntry, string>();
  /** Each entry's disabled reason as the toggles and the trust review gave it (before shadowing words are added). */
  private reasons = new WeakMap<CatalogEntry, Said | string | undefined>();
  /** Where each name's entries sit in `this.all` ([start, end), sorted by name) and each real folder's entries. */
  private groups = new Map<string, [number, number]>();
  private byDir = new Map<string, CatalogEntry[]>();
  /** How many entries are `checking` (kept by applyToggles: settled() asks after every batch of verdicts). */
  private checkingCount = 0;
  /** Time the current build spent in the trust layer's pass (for timings). */
  private reviewMs = 0;
  private running: Promise<CatalogChange> | undefined;
  private again = false;
  /**
   * What the next build's review pass may keep (RefreshOptions.unchanged) from the refreshes waiting for it: undefined
   * when none waits, null when one asked for every folder to be looked at.
   */
  private nextUnchanged: ((dir: string) => boolean) | null | undefined;
  /** What the review pass of the build running now may keep (null: nothing). */
  private unchanged: ((dir: string) => boolean) | null = null;
  timings: CatalogTimings = {
    discoverMs: 0,
    parseMs: 0,
    newParseMs: 0,
    storeMs: 0,
    mergeMs: 0,
    reviewMs: 0,
    totalMs: 0,
    files: 0,
    parsed: 0,
    cached: 0,
    folders: 0,
    listed: 0,
  };

  constructor(readonly options: CatalogOptions) {
    super();
    this.settings = options.settings ?? DEFAULT_SETTINGS;
    // Toggles are kept under the workspace's real path: a folder opened through a symbolic link is the same workspace.
    this.workspaceKey = options.workspace ? realOr(options.workspace) : '';
    options.review?.onVerdicts?.((dirs) => this.verdictsArrived(dirs));
    options.review?.onStale?.((dirs) => {
      this.refresh().then(
        () => this.emit('verdicts'),
        (e: unknown) => this.staleNotRead(dirs, e),
      );
    });
  }

  /** Skills whose audit has not finished (`checking`): never prompted nor matched until their verdict is in. */
  checking(): CatalogEntry[] {
    return this.all.filter((e) => e.trust === 'checking');
  }

  /** Stop the trust layer's background audits (the workspace calls this when it closes). */
  async close(): Promise<void> {
    await this.options.review?.close?.();
  }

  /** Resolves when no skill is `checking` any more (every verdict is in). */
  settled(): Promise<void> {
    if (!this.checkingCount) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.checkingCount) return;
        this.off('verdicts', check);
        resolve();
      };
      this.on('verdicts', check);
    });
  }

  /**
   * Background audits finished: review again the skills in `dirs` (every skill when not given); emit 'change' for
   * every skill whose state moved, then 'verdicts'. Only the names involved are looked at: verdicts arrive one by one,
   * and reviewing the whole catalog per verdict would make opening a big folder quadratic.
   */
  private verdictsArrived(dirs?: ReadonlySet<string>): void {
    const state = (e: CatalogEntry): string =>
      `${e.enabled}|${e.trust ?? ''}|${e.shadowedBy?.file ?? ''}|${e.disabledReason ?? ''}`;
    let names: Set<string> | undefined;
    let group = this.all;
    let review = this.all;
    if (dirs) {
      // Through the indexes built at merge: a batch of verdicts costs its own size, not the catalog's.
      review = [];
      for (const d of dirs) for (const e of this.byDir.get(d) ?? []) review.push(e);
      names = new Set(review.map((e) => this.keyOf(e)));
      group = [];
      for (const k of names) {
        const r = this.groups.get(k);
        if (r) for (let i = r[0]; i < r[1]; i++) group.push(this.all[i]!);
      }
    }
    const before = new Map(group.map((e) => [e, state(e)]));
    this.applyToggles(review, names);
    const changed = new Set<string>();
    for (const e of group) if (before.get(e) !== state(e)) changed.add(e.manifest.name);
    if (changed.size) this.emit('change', { added: [], removed: [], changed: [...changed] } satisfies CatalogChange);
    this.emit('verdicts');
  }

  /**
   * Reading again the skills whose SKILL.md changed during their audit failed: they are refused (held, never enabled
   * on a verdict for other bytes), not left checking forever; the next refresh reads and audits them again.
   */
  private staleNotRead(dirs: ReadonlySet<string>, e: unknown): void {
    const names = new Set<string>();
    for (const d of dirs) {
      for (const entry of this.byDir.get(d) ?? []) {
        if (entry.trust !== 'checking') continue;
        entry.trust = 'refused';
        entry.enabled = false;
        this.checkingCount--;
        this.reasons.set(
          entry,
          say('skillOff.changedUnreadable', { error: e instanceof Error ? e.message : String(e) }),
        );
        names.add(this.keyOf(entry));
      }
    }
    this.resolveShadowing(names);
    const changed = [...names].map((k) => this.winners.get(k)?.manifest.name ?? k);
    if (changed.length) this.emit('change', { added: [], removed: [], changed } satisfies CatalogChange);
    this.emit('verdicts');
  }

  private keyOf(e: CatalogEntry): string {
    let k = this.keys.get(e);
    if (k === undefined) this.keys.set(e, (k = nameKey(e.manifest.name)));
    return k;
  }

  /** The settings this catalog was built with (defaults applied). */
  get settingsInUse(): Settings {
    return this.settings;
  }

  /**
   * The folders the last build walked (their entries were listed: one added, removed or renamed there may be a skill)
   * and the entries under them (skill folders, and folders past the depth bound: only a SKILL.md there changes the
   * catalog), as real paths, and the real folders of the indexed skills (the watcher follows every folder of those
   * whose entry path is their real one: each file in them is part of what their audit read). The watcher (watch.ts)
   * watches these; 'walked' is emitted after every build.
   */
  folders(): { walked: string[]; entries: string[]; skills: ReadonlySet<string> } {
    const walked: string[] = [];
    const entries: string[] = [];
    for (const snap of this.snapshots.values()) {
      for (const [real, row] of snap.dirs) {
        walked.push(real);
        for (const name of row[4]) entries.push(real + sep + name);
      }
    }
    return { walked, entries, skills: new Set(this.byDir.keys()) };
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

  /** Discovery findings (bounds hit, unreadable folders, symlink loops); unreadable SKILL.md files are in broken(). */
  discoveryDiagnostics(): Diagnostic[] {
    return this.discoveryDiags;
  }

  /** Every finding: discovery, broken skills (unreadable ones included), and warnings on indexed ones. */
  diagnostics(): Diagnostic[] {
    return [
      ...this.discoveryDiags,
      ...this.brokenList.flatMap((b) => b.diagnostics),
      ...this.all.flatMap((e) => e.diagnostics),
    ];
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

  /**
   * Re-walk the tiers and re-parse what changed. Concurrent calls share one run (plus one follow-up), whose review pass
   * keeps a folder only when every call it serves vouches for it (`opts.unchanged`).
   */
  refresh(opts: RefreshOptions = {}): Promise<CatalogChange> {
    const u = opts.unchanged ?? null;
    const was = this.nextUnchanged;
    this.nextUnchanged = was === undefined ? u : was && u && ((d: string) => was(d) && u(d));
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

  /** The previous snapshot of a tier folder: this process's last build, else the store, else empty. */
  private previousSnapshot(root: TierRoot): RootSnapshot {
    const mem = this.snapshots.get(root.dir);
    if (mem) return mem;
    let json: string | undefined;
    try {
      json = this.options.store?.skills.getSnapshot(root.dir);
    } catch {
      // an unreadable cache is an empty one
    }
    return decodeSnapshot(json);
  }

  private async build(): Promise<CatalogChange> {
    const t0 = now();
    this.unchanged = this.nextUnchanged ?? null;
    this.nextUnchanged = undefined;
    const { paths, workspace, store } = this.options;
    const roots = tierRoots(paths, workspace, this.settings.discovery.agentsFolders);
    const caches = new Map<TierRoot, RootCache>(
      roots.map((r) => [r, new RootCache(this.previousSnapshot(r), this.options.listingRacyMs)]),
    );
    const disc = discoverAll(
      roots,
      { maxDepth: this.settings.discovery.maxDepth, maxFolders: this.settings.discovery.maxFolders },
      (r) => caches.get(r)!,
    );
    // Read right after the walk, which runs without a turn of the event loop: a command that could have written
    // during it was running, and guarded, all along.
    const hidden = this.options.hidden?.() ?? [];
    if (hidden.length) {
      const shown = disc.found.filter(
        (f) =>
          !hidden.some((h) => [f.file, f.realFile].some((p) => p === h || p.startsWith(h.endsWith(sep) ? h : h + sep))),
      );
      disc.found.splice(0, disc.found.length, ...shown);
    }
    const t1 = now();

    // Found files are grouped by root, in root order: the cache of a file is its root's.
    const cacheOf = rootLookup(roots, caches);
    const found = disc.found;
    const rows: FileRow[] = new Array(found.length);
    const toParse: number[] = [];
    for (let i = 0; i < found.length; i++) {
      const f = found[i]!;
      const r = cacheOf(f).lookup(f);
      if (r) rows[i] = r;
      else toParse.push(i);
    }
    const cached = found.length - toParse.length;
    let parsedCount = 0;
    let newParseMs = 0;
    if (toParse.length) {
      // One parse per real file, even when two tier folders reach it.
      const slot = new Map<string, number>();
      const files: string[] = [];
      for (const i of toParse) {
        const real = found[i]!.realFile;
        if (!slot.has(real)) slot.set(real, files.push(real) - 1);
      }
      const tp = now();
      // In this thread: a parse worker pool ran at 0.6-1x the speed of one thread on 10,000 files.
      const parsed = files.map(parseFoundSkill);
      newParseMs = now() - tp;
      parsedCount = files.length;
      for (const i of toParse) {
        const f = found[i]!;
        const p = parsed[slot.get(f.realFile)!]!;
        const row = fileRow(f, p.manifest, p.diagnostics, p.nameLine);
        rows[i] = row;
        cacheOf(f).record(row);
      }
    }
    // Keep each tier folder's snapshot; store the ones that changed (an emptied folder's is removed).
    const ts = now();
    const nextSnapshots = new Map<string, RootSnapshot>();
    const writes: { root: string; json: string | undefined }[] = [];
    for (const r of roots) {
      const c = caches.get(r)!;
      const snap = c.snapshot();
      nextSnapshots.set(r.dir, snap);
      if (c.changed) writes.push({ root: r.dir, json: snap.dirs.size || snap.files().size ? c.encode() : undefined });
    }
    this.snapshots = nextSnapshots;
    if (store && writes.length) {
      try {
        store.skills.putSnapshots(writes);
      } catch {
        // the cache is an optimisation: a failed write never stops the catalog
      }
    }
    const t2 = now();

    const before = this.winners;
    this.reviewMs = 0;
    this.merge(found, rows);
    // A SKILL.md that exists but cannot be read (a folder, a pipe, no permission) is a broken skill like a bad parse.
    const unreadable = new Set(disc.unreadable.map((u) => u.diagnostic));
    for (const u of disc.unreadable)
      this.brokenList.push({ tier: u.tier, source: u.source, dir: u.dir, file: u.file, diagnostics: [u.diagnostic] });
    this.discoveryDiags = unreadable.size ? disc.diagnostics.filter((d) => !unreadable.has(d)) : disc.diagnostics;
    const t3 = now();
    this.timings = {
      discoverMs: t1 - t0,
      parseMs: t2 - t1,
      newParseMs,
      storeMs: t2 - ts,
      mergeMs: t3 - t2,
      reviewMs: this.reviewMs,
      totalMs: t3 - t0,
      files: found.length,
      parsed: parsedCount,
      cached,
      folders: disc.visited,
      listed: disc.listed,
    };
    const change = this.changeSince(before);
    this.version++;
    this.emit('walked');
    if (change.added.length || change.removed.length || change.changed.length) this.emit('change', change);
    return change;
  }

  /**
   * Bumped whenever what entries() shows may have moved (a build, a toggle, verdicts): an answer computed from the
   * entries can be kept and shared for as long as the version is the same.
   */
  version = 0;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'change' || event === 'verdicts') this.version++;
    return super.emit(event, ...args);
  }

  /**
   * What changed between two sets of winners: a re-parsed file has a new manifest object; a cached one keeps it. A
   * winner whose verdict moved (a script edited to something the audit refuses) changed too, though its SKILL.md did
   * not: the gate, the matcher and the window follow 'change'.
   */
  private changeSince(before: Map<string, CatalogEntry>): CatalogChange {
    const change: CatalogChange = { added: [], removed: [], changed: [] };
    const state = (e: CatalogEntry): string => `${e.enabled}|${e.trust ?? ''}|${e.disabledReason ?? ''}`;
    for (const [k, e] of this.winners) {
      const was = before.get(k);
      if (!was) change.added.push(e.manifest.name);
      else if (was.manifest !== e.manifest || was.file !== e.file || state(was) !== state(e))
        change.changed.push(e.manifest.name);
    }
    for (const k of before.keys()) if (!this.winners.has(k)) change.removed.push(k);
    return change;
  }

  /**
   * Entries in precedence order, the winner of each name, the broken skills; then the trust layer's pass. Kept small,
   * as the functions it calls: it runs on every build, warm or cold, for every skill.
   */
  private merge(found: FoundSkill[], rows: FileRow[]): void {
    const broken: [number, BrokenSkill][] = [];
    const winners = new Map<string, CatalogEntry>();
    const all: CatalogEntry[] = [];
    const keys: string[] = [];
    for (const g of precedenceGroups(found)) {
      for (let i = g.start; i < g.end; i++) {
        const f = found[i]!;
        const row = rows[i]!;
        const manifest = row[4];
        if (!manifest) {
          broken.push([
            i,
            { tier: f.tier, source: f.source, dir: f.dir, file: f.file, diagnostics: diagnosticsOf(f, row) },
          ]);
          continue;
        }
        const e = entryOf(f, row, manifest);
        const key = nameKey(manifest.name);
        const win = winners.get(key);
        if (!win) winners.set(key, e);
        else shadowedAt(e, win);
        all.push(e);
        keys.push(key);
      }
    }
    this.index(all, keys);
    this.winners = winners;
    // Broken skills in discovery order.
    this.brokenList = broken.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    const tr = now();
    this.reading(() => {
      try {
        const keep = this.unchanged;
        this.unchanged = null;
        this.options.review?.prepare?.(this.all, keep ?? undefined);
      } catch {
        // the per-entry review below still judges every skill (fail closed there)
      }
      this.applyToggles();
    });
    this.reviewMs += now() - tr;
  }

  /** Sort the entries by name (equal names keep precedence order) and index them by name and by real folder. */
  private index(all: CatalogEntry[], keys: string[]): void {
    const order: number[] = new Array<number>(all.length);
    for (let i = 0; i < all.length; i++) order[i] = i;
    order.sort((a, b) => {
      const ka = keys[a]!;
      const kb = keys[b]!;
      return ka < kb ? -1 : ka > kb ? 1 : a - b;
    });
    this.all = order.map((i) => all[i]!);
    for (let i = 0; i < all.length; i++) this.keys.set(all[i]!, keys[i]!);
    this.groups = new Map();
    this.byDir = new Map();
    for (let i = 0; i < order.length;) {
      const key = keys[order[i]!]!;
      let j = i + 1;
      while (j < order.length && keys[order[j]!] === key) j++;
      this.groups.set(key, [i, j]);
      i = j;
    }
    for (const e of this.all) {
      const list = this.byDir.get(e.realDir);
      if (list) list.push(e);
      else this.byDir.set(e.realDir, [e]);
    }
  }

  /** Toggles and trust verdicts for `entries` (all by default), then who acts for their names (`names`, all by default). */
  private applyToggles(entries: CatalogEntry[] = this.all, names?: ReadonlySet<string>): void {
    this.reading(() => this.judge(entries));
    this.resolveShadowing(names);
  }

  /** Each entry's toggle and trust verdict (applyToggles). */
  private judge(entries: CatalogEntry[]): void {
    const toggles = this.toggles();
    const full = entries === this.all;
    if (full) this.checkingCount = 0;
    for (const e of entries) {
      if (!full && e.trust === 'checking') this.checkingCount--;
      const t = toggles instanceof Error ? false : toggles.get(e.manifest.name);
      e.enabled = t ?? true;
      let reason: Said | string | undefined =
        toggles instanceof Error
          ? say('skillOff.switchesUnreadable', { error: toggles.message })
          : t === false
            ? say('skillOff.user')
            : undefined;
      let verdict: ReturnType<ReviewHook>;
      try {
        verdict = this.options.review?.(e);
      } catch (err) {
        // Fail closed: a skill the trust layer could not review is not used.
        const words = say('skillOff.reviewFailed', { error: (err as Error).message });
        verdict = { enabled: false, reason: english(words), words };
      }
      delete e.trust;
      if (verdict && verdict.enabled === false) {
        e.enabled = false;
        // A hook that gives only English (tests) is shown as that English.
        reason = verdict.words ?? verdict.reason;
        if (verdict.trust) e.trust = verdict.trust;
      }
      if (e.trust === 'checking') this.checkingCount++;
      this.reasons.set(e, reason);
    }
  }

  /**
   * A review pass's store reads (toggles, stored audits, accepted permissions, trust) in one read transaction
   * (Store.reading): one lock for thousands of lookups. A store that cannot begin one is read statement by statement.
   */
  private reading(fn: () => void): void {
    const store = this.options.store;
    if (!store) return fn();
    const at: { state: 'before' | 'running' | 'done' } = { state: 'before' };
    try {
      store.reading(() => {
        at.state = 'running';
        fn();
        at.state = 'done';
      });
    } catch (e) {
      if (at.state === 'running') throw e;
      // Ending a read that is done cannot lose anything (writes step out of it); one that never began reads as before.
      if (at.state === 'before') fn();
    }
  }

  /**
   * The workspace's toggles: the store's (the last ones read when it cannot be read now, a locked or failing database),
   * an Error when it has never been read (every skill is then disabled: a switched-off skill never comes back on).
   */
  private toggles(): Map<string, boolean> | Error {
    if (!this.options.store) return this.memToggles;
    try {
      return (this.lastToggles = this.options.store.skills.toggles(this.workspaceKey));
    } catch (e) {
      return this.lastToggles ?? (e instanceof Error ? e : new Error(String(e)));
    }
  }

  /**
   * Who acts for each name (of `names`, or every name): the highest-precedence skill that is not held for trust. A held
   * skill (refused, pending, checking) shadows nobody — a cloned repository's `git-commit` folder does not switch off
   * the built-in one — and says which skill it would shadow once trusted. `this.all` is sorted by name, then precedence.
   */
  private resolveShadowing(names?: ReadonlySet<string>): void {
    if (!names) {
      const winners = new Map<string, CatalogEntry>();
      for (const [key, r] of this.groups) winners.set(key, this.resolveGroup(r[0], r[1]));
      this.winners = winners;
      return;
    }
    // A few names (verdicts arriving): only their groups, the other winners stand.
    for (const key of names) {
      const r = this.groups.get(key);
      if (r) this.winners.set(key, this.resolveGroup(r[0], r[1]));
    }
  }

  /** Who acts among the entries of one name (this.all[start, end), in precedence order); marks the others. */
  private resolveGroup(start: number, end: number): CatalogEntry {
    let win = this.all[start]!;
    for (let i = start; i < end; i++) {
      if (!this.all[i]!.trust) {
        win = this.all[i]!;
        break;
      }
    }
    let after = false;
    for (let i = start; i < end; i++) {
      const e = this.all[i]!;
      delete e.shadowedBy;
      delete e.wouldShadow;
      const reason = this.reasons.get(e);
      setReason(e, reason);
      if (e === win) {
        after = true;
        continue;
      }
      if (after) e.shadowedBy = { tier: win.tier, file: win.file };
      else {
        // Held and above the one that acts: it would take that one's place once trusted.
        e.wouldShadow = { tier: win.tier, file: win.file, name: win.manifest.name };
        const at = { hold: say(HOLD_WORDS[e.trust!]), tier: say(`shadowTier.${win.tier}`), name: win.manifest.name };
        setReason(
          e,
          say(reason ? 'skillOff.wouldShadowWhy' : 'skillOff.wouldShadow', { ...at, ...(reason ? { reason } : {}) }),
        );
      }
    }
    return win;
  }

  /** The highest-precedence skill of that name held for trust (refused, pending, checking), if any: what `trust NAME` means. */
  held(name: string): CatalogEntry | undefined {
    const key = nameKey(name);
    return this.all.find((e) => e.trust && nameKey(e.manifest.name) === key);
  }
}

/**
 * Found files in precedence order, as groups: higher tier first; within a tier `.workbuddy` before `.agents`, then
 * discovery order. Found files come grouped by tier folder, so ordering the (at most five) groups orders every file.
 */
function precedenceGroups(
  found: FoundSkill[],
): { start: number; end: number; tier: Tier; source: FoundSkill['source'] }[] {
  const groups: { start: number; end: number; tier: Tier; source: FoundSkill['source'] }[] = [];
  for (let i = 0; i < found.length; i++) {
    const f = found[i]!;
    const g = groups.at(-1);
    if (g && g.tier === f.tier && g.source === f.source) g.end = i + 1;
    else groups.push({ start: i, end: i + 1, tier: f.tier, source: f.source });
  }
  return groups.sort(
    (a, b) => TIER_RANK[b.tier] - TIER_RANK[a.tier] || (a.source === b.source ? 0 : a.source === 'workbuddy' ? -1 : 1),
  );
}

/** A parsed file's diagnostics, naming the file as found (not its real path). */
function diagnosticsOf(f: FoundSkill, row: FileRow): Diagnostic[] {
  const diags = row[5];
  return diags ? diags.map((d) => (d.file === f.realFile ? { ...d, file: f.file } : d)) : [];
}

/** A found skill's entry: disabled until the toggles and the trust review have judged it (applyToggles). */
function entryOf(f: FoundSkill, row: FileRow, manifest: SkillManifest): CatalogEntry {
  const diagnostics = diagnosticsOf(f, row);
  const mm = folderMismatch(manifest.name, f.dir.slice(f.dir.lastIndexOf(sep) + 1), f.file, false, row[6] || undefined);
  if (mm) diagnostics.push(mm);
  return {
    manifest,
    tier: f.tier,
    source: f.source,
    dir: f.dir,
    realDir: f.realDir,
    file: f.file,
    // Disabled until the toggles and the trust review have judged it (applyToggles), whatever fails on the way.
    size: f.size,
    mtimeMs: f.mtimeMs,
    ctimeMs: f.ctimeMs,
    diagnostics,
    enabled: false,
  };
}

/** `e` comes after `win`, of the same name: shadowed by it (a warning when both are of one tier). */
function shadowedAt(e: CatalogEntry, win: CatalogEntry): void {
  e.shadowedBy = { tier: win.tier, file: win.file };
  if (win.tier === e.tier) {
    const words = say('diag.nameDuplicate', {
      tier: say(`shadowTier.${e.tier}`),
      name: e.manifest.name,
      file: win.file,
    });
    e.diagnostics.push({
      severity: 'warning',
      code: 'name.duplicate',
      file: e.file,
      field: 'name',
      message: english(words),
      words,
    });
  }
}

const HOLD_WORDS: Record<TrustHold, WordCode> = {
  refused: 'hold.refused',
  pending: 'hold.pending',
  checking: 'hold.checking',
};

/** The entry's disabled reason: its words, and their English for the CLI and the model. */
function setReason(e: CatalogEntry, words: Said | string | undefined): void {
  delete e.disabledReason;
  delete e.disabledWords;
  if (typeof words === 'string') e.disabledReason = words;
  else if (words) {
    e.disabledReason = english(words);
    e.disabledWords = words;
  }
}

/** Build the catalog for a workspace (cold or warm from the store's cache). See the header for the API. */
export async function openCatalog(options: CatalogOptions): Promise<Catalog> {
  const catalog = new Catalog(options);
  await catalog.refresh();
  return catalog;
}

/** The cache of a found file's tier folder (roots have distinct tier + source). */
function rootLookup(roots: TierRoot[], caches: Map<TierRoot, RootCache>): (f: FoundSkill) => RootCache {
  let last: { tier: Tier; source: string; cache: RootCache } | undefined;
  return (f) => {
    if (last && last.tier === f.tier && last.source === f.source) return last.cache;
    const r = roots.find((x) => x.tier === f.tier && x.source === f.source)!;
    last = { tier: r.tier, source: r.source, cache: caches.get(r)! };
    return last.cache;
  };
}
