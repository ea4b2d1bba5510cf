// One open workspace: settings, store, the trust-reviewed skill catalog, the live policy gate, the matcher, the
// tool box (built-ins, skill tools, run_skill_script, MCP) and the script sandbox — wired once, for the CLI and the app.
import { join, resolve } from 'node:path';
import { blocksCeilingChange, loadSettings, narrowCeiling, type CeilingMemory, type Settings } from './config/index.js';
import { userSkillDirs, type KnackPaths } from './config/index.js';
import { Store, type StoreDamage } from './store/index.js';
import { openCatalog, type Catalog, type CatalogChange } from './skills/catalog/index.js';
import { createTrustReview, sweepHeldAtOpen, type TrustReview, type TrustReviewOptions } from './skills/trust/index.js';
import { watchCatalog, type CatalogWatcher, type WatchOptions } from './skills/catalog/index.js';
import { SkillMatcher } from './skills/use/index.js';
import { SkillLoader } from './skills/use/index.js';
import { SkillSearch } from './skills/use/index.js';
import { WorkspaceSession } from './skills/use/index.js';
import { createMarketplaceTool, skillTools } from './skills/use/index.js';
import type { CatalogEntry } from './skills/format/index.js';
import type { Diagnostic, Said } from './base/index.js';
import { english, realRoot, say, sha256Hex } from './base/index.js';
import { buildGate } from './policy/index.js';
import { CatalogGate } from './skills/use/index.js';
import { skillPolicyOf } from './skills/format/index.js';
import type { Gate } from './policy/index.js';
import { crossLanguageExpander } from './search/index.js';
import type { Expander } from './search/index.js';
import { openToolbox, type Toolbox } from './toolbox.js';
import type { Approver, ExecutorOptions } from './tools/index.js';
import type { ImportedCatalog } from './tools/index.js';
import type { BackoffOptions, ConnectionStatus } from './mcp/index.js';
import type { McpServerConfig } from './mcp/index.js';
import { createScriptRunner, type ScriptRunner } from './sandbox/index.js';
import { limitsFromSettings } from './sandbox/index.js';
import type { ToolRunner } from './sandbox/index.js';
import { ToolExecutor } from './tools/index.js';
import { catalogSkillFinder, createRunSkillScriptTool } from './sandbox/index.js';
import type { SpawnHost } from './sandbox/index.js';
import { describeWall, Wall, WallError, wallSeen } from './contain/index.js';
import { sourceWall, wallPlaceOf } from './source-wall.js';
import type { WallView } from './policy/index.js';

export interface WorkspaceOptions {
  paths: KnackPaths;
  /**
   * Start the OS sandbox as the workspace opens, without waiting for it (the window's workspace, a chat's): loading and
   * starting it is done before the first command, which waits for it if it is not. Else it starts on first use.
   */
  startWall?: boolean;
  /** The open folder (project tier, workspace root of the ceiling). */
  workspace: string;
  /** Answers the gate's `ask` for tool calls (CLI: the terminal; app: the approval dialog). None: ask = no. */
  approver?: Approver;
  /** Answers `ask` for a skill script's capability and tool calls, once | always | deny (its wall clock is held meanwhile). */
  approveScript?: Approver;
  /** MCP servers to connect when the tool box opens. */
  mcpServers?: McpServerConfig[];
  mcpBackoff?: BackoffOptions;
  /** Every MCP server's state, each time one changes. */
  onMcpStatus?: (servers: ConnectionStatus[]) => void;
  /** Imported tool catalogs (deferred, searchable). */
  toolCatalogs?: ImportedCatalog[];
  /** Electron passes its utilityProcess host here; plain Node forks. */
  spawnHost?: SpawnHost;
  /** Watch the skill folders and refresh the catalog on change (hot reload). */
  watch?: boolean;
  /** A skill folder that cannot be watched (its changes are not followed), or a hot reload that failed (no `dir`). */
  onWatchError?: (err: Error, dir?: string) => void;
  /** A folder said through `onWatchError` that is watched now, or gone; no `dir`: a walk succeeded after a failed one. */
  onWatched?: (dir?: string) => void;
  /** How one folder's watch is made (tests: one that fails as the system can); node:fs `watch` by default. */
  watchFolder?: WatchOptions['watch'];
  /** Every gate decision of the workspace's tool calls (and, for an `ask`, the answer): for logs and session records. */
  onDecision?: ExecutorOptions['onDecision'];
  /** Settings/tool/catalog diagnostics worth showing the user. */
  onDiagnostic?: (d: Diagnostic) => void;
  /** Throw instead of continuing without the store when the database cannot be opened. */
  requireStore?: boolean;
  /** How discovered skills are audited (default: in the background, the catalog answering at once). */
  audit?: TrustReviewOptions['background'];
}

/** A settings file read again while open that does not read cleanly: what still applies. */
const KEPT_LIVE = say('settings.keptLive');

/** The store's record of the last good ceiling of each settings scope (none without a store). */
function ceilingMemory(store: Store | undefined): CeilingMemory | undefined {
  return store
    ? { last: (scope) => store.state.lastCeiling(scope), save: (scope, c) => store.state.saveCeiling(scope, c) }
    : undefined;
}

/** The one line that names a damaged database set aside, where it is now, and what that means until acknowledged. */
export function damageDiagnostic(d: StoreDamage): Diagnostic {
  return {
    severity: 'error',
    code: 'store.damaged',
    file: d.file,
    message: `the database was damaged (${d.reason}) and was set aside whole as ${d.movedTo}; a new one took its place. Your rules were in it: every tool call asks until you run "knack store acknowledge"`,
  };
}

export class KnackWorkspace {
  private currentSettings: Settings;
  readonly expander: Expander;
  private readonly liveGate: CatalogGate;
  private matcherCache: SkillMatcher | undefined;
  private searchCache: SkillSearch | undefined;
  private searchStale = false;
  private toolboxPromise: Promise<Toolbox> | undefined;
  private runnerCache: ScriptRunner | undefined;
  private readonly runners: ScriptRunner[] = [];
  private watcher: CatalogWatcher | undefined;
  private closed = false;
  private wallPromise: Promise<Wall> | undefined;
  private wallOpen: Wall | undefined;
  /** The held copies removed when this workspace opened (no approval waited for them): the window says so once. */
  heldRemoved: readonly string[] = [];

  private constructor(
    readonly options: WorkspaceOptions,
    readonly store: Store | undefined,
    readonly catalog: Catalog,
    settings: Settings,
    /** The catalog's trust review: each skill's verdict and the audit report behind it (views read it, never audit). */
    readonly trust: TrustReview,
    /** Why the database could not be opened (then there is no store), as words, or undefined. */
    private readonly storeProblemSaid?: Said,
  ) {
    const storeProblem = storeProblemSaid;
    this.currentSettings = settings;
    this.expander = crossLanguageExpander({ cacheDir: join(options.paths.dataDir, 'cache') });
    this.liveGate = new CatalogGate({
      settings,
      workspace: options.workspace,
      ...(store ? { store } : {}),
      catalog,
      paths: options.paths,
      // create_skill (save-as-skill) writes the user tier: a write root, protected, so it always asks.
      userSkillsDir: userSkillDirs(options.paths.home).workbuddy,
      // Asked at every call: the damage may be acknowledged meanwhile (`knack store acknowledge`, another process).
      rulesUnreadable: () => {
        if (!store) return storeProblem ?? say('store.none');
        const d = store.damage()[0];
        return d ? say('store.setAside', { path: d.movedTo }) : undefined;
      },
      wall: () => this.wallView(),
    });
    catalog.on('change', (change: CatalogChange) => {
      this.liveGate.changed(change);
      this.matcherCache = undefined;
      this.searchStale = true;
    });
  }

  static async open(options: WorkspaceOptions): Promise<KnackWorkspace> {
    // One identity for the folder, whoever opens it: its real path, as the ceiling and the gate resolve it. An
    // "always" rule, a toggle or a session stored under a symlink's spelling was never found again.
    options = { ...options, workspace: realRoot(resolve(options.workspace)) };
    const report = options.onDiagnostic ?? (() => {});
    let store: Store | undefined;
    let storeProblem: Said | undefined;
    try {
      store = Store.openIn(options.paths.dataDir);
      for (const d of store.damage()) report(damageDiagnostic(d));
    } catch (e) {
      storeProblem = say('store.cannotOpen', { dir: options.paths.dataDir, error: (e as Error).message });
      if (options.requireStore) throw new Error(english(storeProblem));
      report({
        severity: 'warning',
        code: 'store.open',
        file: options.paths.dataDir,
        message: `${english(storeProblem)}; continuing without the cache, toggles, rules and trust decisions: every tool call asks`,
      });
    }
    // Held copies of skills no approval waits for any more are removed, and said once (skills/trust/held.ts).
    let heldRemoved: string[] = [];
    if (store) {
      const swept = sweepHeldAtOpen(options.paths.dataDir, store);
      heldRemoved = swept.removed;
      if (swept.diagnostic) report(swept.diagnostic);
    }
    // The store first: a settings file that does not parse narrows to the last good ceiling kept there.
    const { settings, diagnostics } = loadSettings(options.paths.dataDir, options.workspace, ceilingMemory(store));
    for (const d of diagnostics) report(d);
    // Trust review: discovered P0 skills are disabled, P1 ones until the user trusts them (skills/trust/trust.ts).
    let catalog: Catalog;
    // Audits run in the background: a big folder answers at once, unaudited skills are `checking` until their verdict.
    const trust = createTrustReview(store, { background: options.audit ?? true });
    /** The workspace, once made: its wall says which protected paths a running command may be creating. */
    const self: { ws?: KnackWorkspace } = {};
    try {
      catalog = await openCatalog({
        paths: options.paths,
        workspace: options.workspace,
        settings,
        hidden: () => self.ws?.wallOpen?.guarded() ?? [],
        ...(store ? { store } : {}),
        review: trust,
      });
    } catch (e) {
      await trust.close();
      store?.close(); // never leak the database handle on a failed open
      throw e;
    }
    const ws = new KnackWorkspace(options, store, catalog, settings, trust, storeProblem);
    ws.heldRemoved = heldRemoved;
    self.ws = ws;
    if (options.watch)
      ws.watcher = watchCatalog(catalog, {
        ...(options.onWatchError ? { onError: options.onWatchError } : {}),
        ...(options.onWatched ? { onWatched: options.onWatched } : {}),
        ...(options.watchFolder ? { watch: options.watchFolder } : {}),
      });
    // Never rejects but once closed; its state (available or why not) is what the first command meets.
    if (options.startWall) ws.wall().catch(() => undefined);
    return ws;
  }

  get workspace(): string {
    return this.options.workspace;
  }

  /** Why the database could not be opened (there is no store), or undefined. */
  get storeProblem(): string | undefined {
    return this.storeProblemSaid && english(this.storeProblemSaid);
  }

  /** storeProblem as words, said in the window's language. */
  get storeProblemWords(): Said | undefined {
    return this.storeProblemSaid;
  }

  /** Settings as read when the workspace opened, with the policy ceiling as it is now (reloadCeiling). */
  get settings(): Settings {
    return this.currentSettings;
  }

  /**
   * Read the policy ceiling again (the user changed it in Settings, or edited a settings file by hand) and apply it to
   * this open workspace: the live gate judges the very next tool call by it — of every conversation, a running turn's
   * included — and the tool box offers what it offers. Nothing is closed or stopped. A file that does not read cleanly
   * where the ceiling is concerned (not JSON, a policy key of the wrong type or unknown) may only narrow it: what the
   * files ask beyond the ceiling in force is not applied until the file is fixed (a `settings.kept` warning says so),
   * while a permission taken away — in the Settings page or in another file — is taken away at once (a broken
   * workspace file, or a typo in the user's own, must not hold the user's narrowing back). Returns the settings files'
   * diagnostics.
   */
  async reloadCeiling(): Promise<Diagnostic[]> {
    // A settings file a running command may have planted (its folder was missing when the command started) is not
    // read until the command has ended and the sweep has moved it aside.
    const { settings, diagnostics } = loadSettings(
      this.options.paths.dataDir,
      this.options.workspace,
      ceilingMemory(this.store),
      this.wallOpen?.guarded() ?? [],
    );
    const broken = [...new Set(diagnostics.filter(blocksCeilingChange).map((d) => d.file))];
    let policy = settings.policy;
    if (broken.length) {
      // The ceiling in force, narrowed by what was read (widenings dropped; their warnings are the `kept` lines).
      policy = {
        ...this.currentSettings.policy,
        ceiling: narrowCeiling(this.currentSettings.policy.ceiling, settings.policy.ceiling, broken[0]!, []),
      };
      // One `kept` line per file: the one for a live edit says what applies now.
      for (let i = diagnostics.length - 1; i >= 0; i--)
        if (diagnostics[i]!.code === 'settings.kept' && broken.includes(diagnostics[i]!.file)) diagnostics.splice(i, 1);
      diagnostics.push(
        ...broken.map((file): Diagnostic => ({
          severity: 'warning',
          code: 'settings.kept',
          file,
          message: english(KEPT_LIVE),
          words: KEPT_LIVE,
        })),
      );
    }
    this.currentSettings = { ...this.currentSettings, policy };
    this.liveGate.setCeiling(this.currentSettings);
    (await this.toolboxPromise?.catch(() => undefined))?.setCeiling(policy.ceiling);
    return diagnostics;
  }

  get paths(): KnackPaths {
    return this.options.paths;
  }

  /**
   * The policy gate for this workspace: ceiling ∩ acting skills' manifests, the user's rules; follows the catalog
   * (a change re-reads only the skills it names).
   */
  get gate(): Gate {
    return this.liveGate;
  }

  /** Skills that act (not shadowed), enabled or not. */
  actingSkills(): CatalogEntry[] {
    return this.catalog.entries().filter((e) => !e.shadowedBy);
  }

  /**
   * The OS sandbox every program of this workspace runs in (core/contain), started once (the tool box waits for it).
   * Its state never throws: unavailable is a status with a reason and a hint.
   */
  wall(): Promise<Wall> {
    // A closed workspace starts nothing: a runtime started now would have no close to end it.
    if (this.closed)
      return Promise.reject(
        new WallError(`the workspace ${this.workspace} is closed: its sandbox does not start again`),
      );
    this.wallPromise ??= Wall.open(
      {
        ...wallPlaceOf(this.options.paths, this.workspace, this.settings),
        // Skills that may act now: their scripts run through bash, so their folders are readable (contain/profile.ts).
        skillFolders: () => this.actingSkills().flatMap((e) => (e.enabled && !e.trust ? [e.realDir] : [])),
      },
      this.settings.sandbox.mode,
    ).then((w) => {
      this.wallOpen = w;
      // A project skill Knack installed while a command ran was left out of the catalog until the command ended.
      w.onSettled(() => {
        this.catalog.refresh().catch((e: unknown) =>
          this.options.onDiagnostic?.({
            severity: 'warning',
            code: 'catalog.refresh',
            file: this.workspace,
            message: `the skills were not read again after a command ended: ${(e as Error).message}`,
          }),
        );
      });
      const s = w.status();
      if (!s.available && s.mode !== 'off')
        this.options.onDiagnostic?.({
          severity: 'warning',
          code: 'sandbox.unavailable',
          file: this.workspace,
          message: describeWall(s),
        });
      return w;
    });
    return this.wallPromise;
  }

  /** Whether the sandbox has been asked to start (at open with `startWall`, else by the first use). */
  get wallStarted(): boolean {
    return this.wallPromise !== undefined;
  }

  /**
   * What the gate knows of the wall now, from the wall bash runs commands in (contain's wallSeen): closed with the
   * workspace; still starting; its state once it has answered. Nothing before it is asked to start (every command asks).
   */
  private wallView(): WallView | undefined {
    const mode = this.settings.sandbox.mode;
    if (!this.wallPromise && !this.closed && mode !== 'off') return undefined;
    return wallSeen(this.wallOpen, mode, this.closed);
  }

  /** Trigger matcher over the enabled catalog; rebuilt after the catalog changes. */
  matcher(): SkillMatcher {
    return (this.matcherCache ??= new SkillMatcher(this.catalog.enabled()));
  }

  /** SkillSearch over the enabled catalog (cross-language, with the workspace's cache); updated after the catalog changes. */
  skillSearch(): SkillSearch {
    if (this.searchCache && this.searchStale) this.searchCache.update(this.catalog.enabled());
    this.searchStale = false;
    const cacheDir = join(this.options.paths.dataDir, 'cache');
    return (this.searchCache ??= new SkillSearch(this.catalog.enabled(), {
      cacheDir,
      // One kept index per workspace (its catalog): loaded while its skills are the same, else built and kept.
      indexCache: join(cacheDir, `skill-search-${sha256Hex(this.workspace).slice(0, 16)}.idx`),
    }));
  }

  /**
   * A new conversation over this workspace: its own loaded skills (and projection) and discovered tools, and the model
   * acting with exactly the skills it loaded as active (see skills/use/session.ts). Opens the tool box if needed.
   */
  async newSession(
    opts: { approver?: Approver; onDecision?: ExecutorOptions['onDecision']; gate?: Gate } = {},
  ): Promise<WorkspaceSession> {
    const box = await this.toolbox();
    const approver = opts.approver ?? this.options.approver;
    const onDecision = opts.onDecision ?? this.options.onDecision;
    return new WorkspaceSession({
      workspace: this.workspace,
      registry: box.registry,
      index: box.index,
      // A conversation may judge with a stricter gate over the live one (the agent's plan mode is read-only).
      gate: opts.gate ?? this.gate,
      ...(approver ? { approver } : {}),
      ...(this.store ? { rules: this.store.policy } : {}),
      ...(onDecision ? { onDecision } : {}),
      skills: this.skillToolDeps(),
    });
  }

  private skillToolDeps() {
    return {
      catalog: this.catalog,
      userSkillsDir: userSkillDirs(this.options.paths.home).workbuddy,
      searchOptions: { cacheDir: join(this.options.paths.dataDir, 'cache') },
      onCreated: () => void this.catalog.refresh(),
    };
  }

  /** A loader for one conversation (it keeps that conversation's context projection). */
  newLoader(): SkillLoader {
    return new SkillLoader((n) => this.catalog.get(n));
  }

  /** The sandbox runner for skill scripts: the live gate, the tool box for knack.callTool, settings' limits. */
  scriptRunner(): ScriptRunner {
    return (this.runnerCache ??= this.newScriptRunner(this.gate));
  }

  /**
   * A runner judged by `gate` instead of the live one — for a skill that is not in the catalog
   * (`knack sandbox run --skill DIR`): build it with `gateWith([thatSkill])`. Closed with the workspace.
   */
  newScriptRunner(gate: Gate): ScriptRunner {
    // knack.callTool takes the tool pipeline (executor) over the registered tools, judged by this runner's gate;
    // the tool box opens on the first such call only.
    let executor: Promise<ToolExecutor> | undefined;
    const rules = this.store?.policy;
    const tools: ToolRunner = {
      execute: async (name, args, ctx, over) => {
        executor ??= this.toolbox().then(
          (box) => new ToolExecutor({ registry: box.registry, gate, ...(rules ? { rules } : {}) }),
        );
        return (await executor).execute(name, args, ctx, over);
      },
    };
    const runner = createScriptRunner({
      gate,
      workspace: this.workspace,
      limits: limitsFromSettings(this.settings.sandbox),
      executor: tools,
      ...(rules ? { rules } : {}),
      ...(this.options.approveScript ? { approve: this.options.approveScript } : {}),
      ...(this.options.spawnHost ? { spawn: this.options.spawnHost } : {}),
    });
    this.runners.push(runner);
    return runner;
  }

  /** A gate over the catalog's acting skills plus `first`, which bind their names before any catalog skill. */
  gateWith(first: Pick<CatalogEntry, 'realDir' | 'manifest'>[] = []): Gate {
    return buildGate({
      settings: this.settings,
      workspace: this.workspace,
      ...(this.store ? { store: this.store } : {}),
      skills: [...first, ...this.actingSkills()].map(skillPolicyOf),
      paths: this.options.paths,
      wall: () => this.wallView(),
    }).gate;
  }

  /**
   * Every tool the agent can use: built-ins, the skill tools (Skill, SkillSearch, list_skills, read_skill_resource,
   * create_skill), run_skill_script, MCP connectors and imported catalogs; ToolSearch and DeferExecuteTool on top.
   */
  toolbox(): Promise<Toolbox> {
    this.toolboxPromise ??= (async () => {
      const o = this.options;
      // Started now, not waited for: a new chat's first turn must not wait for the sandbox's probe command. A command's
      // decision waits for it (bounded: bash's ready), and the tools that run programs wait for it themselves.
      const wall = this.wall();
      // The tool box's own Skill tool loads into a loader of its own: the one-shot CLI calls (`knack tools call`).
      // Conversations get theirs from newSession().
      const skill = skillTools({ ...this.skillToolDeps(), loader: this.newLoader() });
      const script = createRunSkillScriptTool({
        runner: this.scriptRunner(),
        findSkill: catalogSkillFinder(this.catalog),
      });
      // Reads the configured marketplaces (git inside this workspace's wall) and proposes installs; installs nothing.
      const marketplace = createMarketplaceTool({
        dataDir: o.paths.dataDir,
        workspace: this.workspace,
        wall: sourceWall(() => this.wall()),
      });
      return openToolbox({
        workspace: this.workspace,
        settings: this.settings,
        gate: this.gate,
        ...(o.approver ? { approver: o.approver } : {}),
        ...(this.store ? { rules: this.store.policy } : {}),
        ...(o.onDecision ? { onDecision: o.onDecision } : {}),
        extraTools: [
          { tools: skill, source: 'skill' },
          { tools: [script, marketplace], source: 'builtin' },
        ],
        ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
        ...(o.mcpBackoff ? { backoff: o.mcpBackoff } : {}),
        ...(o.onMcpStatus ? { onMcpStatus: o.onMcpStatus } : {}),
        ...(o.toolCatalogs ? { catalogs: o.toolCatalogs } : {}),
        expander: this.expander,
        ...(o.onDiagnostic ? { onDiagnostic: o.onDiagnostic } : {}),
        wall,
      });
    })();
    return this.toolboxPromise;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.close();
    await Promise.all(this.runners.map((r) => r.close()));
    if (this.toolboxPromise) await (await this.toolboxPromise.catch(() => undefined))?.close();
    await this.catalog.close();
    await (await this.wallPromise)?.close();
    this.store?.close();
  }
}

export function openWorkspace(options: WorkspaceOptions): Promise<KnackWorkspace> {
  return KnackWorkspace.open(options);
}
