// One open workspace: settings, store, the trust-reviewed skill catalog, the live policy gate, the matcher, the
// tool box (built-ins, skill tools, run_skill_script, MCP) and the script sandbox — wired once, for the CLI and the app.
import { join } from 'node:path';
import { loadSettings, type Settings } from './config/settings.js';
import { userSkillDirs, type KnackPaths } from './config/paths.js';
import { Store } from './store/index.js';
import { openCatalog, type Catalog } from './skills/catalog/catalog.js';
import { createTrustReview } from './skills/trust/trust.js';
import { watchCatalog, type CatalogWatcher } from './skills/catalog/watch.js';
import { SkillMatcher } from './skills/use/matcher.js';
import { SkillLoader } from './skills/use/loader.js';
import { skillTools } from './skills/use/skill-tools.js';
import type { CatalogEntry } from './skills/format/types.js';
import type { Diagnostic } from './base/diagnostics.js';
import { buildGate } from './skills/use/gate-setup.js';
import type { Actor, Gate, ToolCall } from './policy/types.js';
import { crossLanguageExpander } from './search/expand.js';
import type { Expander } from './search/text-index.js';
import { openToolbox, type Toolbox } from './toolbox.js';
import type { Approver } from './tools/executor.js';
import type { ImportedCatalog } from './tools/catalog-import.js';
import type { BackoffOptions } from './mcp/connection.js';
import type { McpServerConfig } from './mcp/config.js';
import { createScriptRunner, type ScriptRunner } from './sandbox/runner.js';
import { limitsFromSettings } from './sandbox/limits.js';
import { registryLookup, type ApproveHook, type ToolLookup } from './sandbox/capabilities.js';
import { catalogSkillFinder, createRunSkillScriptTool } from './sandbox/tool.js';
import type { SpawnHost } from './sandbox/spawn.js';

export interface WorkspaceOptions {
  paths: KnackPaths;
  /** The open folder (project tier, workspace root of the ceiling). */
  workspace: string;
  /** Answers the gate's `ask` for tool calls (CLI: the terminal; app: the approval dialog). None: ask = no. */
  approver?: Approver;
  /** Answers `ask` for a skill script's capability calls (its wall clock is held while asking). */
  approveScript?: ApproveHook;
  /** MCP servers to connect when the tool box opens. */
  mcpServers?: McpServerConfig[];
  mcpBackoff?: BackoffOptions;
  /** Imported tool catalogs (deferred, searchable). */
  toolCatalogs?: ImportedCatalog[];
  /** Electron passes its utilityProcess host here; plain Node forks. */
  spawnHost?: SpawnHost;
  /** Watch the skill folders and refresh the catalog on change (hot reload). */
  watch?: boolean;
  /** Settings/tool/catalog diagnostics worth showing the user. */
  onDiagnostic?: (d: Diagnostic) => void;
  /** Throw instead of continuing without the store when the database cannot be opened. */
  requireStore?: boolean;
}

/**
 * A gate that always judges with the current catalog: rebuilt (lazily) when skills are added, edited, removed or
 * toggled, so a manifest change takes effect at the next call, never later.
 */
class LiveGate implements Gate {
  private current: Gate | undefined;
  constructor(private readonly build: () => Gate) {}
  invalidate(): void {
    this.current = undefined;
  }
  authorize(call: ToolCall, actor: Actor) {
    this.current ??= this.build();
    return this.current.authorize(call, actor);
  }
}

export class KnackWorkspace {
  readonly settings: Settings;
  readonly expander: Expander;
  private readonly liveGate: LiveGate;
  private matcherCache: SkillMatcher | undefined;
  private toolboxPromise: Promise<Toolbox> | undefined;
  private runnerCache: ScriptRunner | undefined;
  private readonly runners: ScriptRunner[] = [];
  private watcher: CatalogWatcher | undefined;
  private closed = false;

  private constructor(
    readonly options: WorkspaceOptions,
    readonly store: Store | undefined,
    readonly catalog: Catalog,
    settings: Settings,
  ) {
    this.settings = settings;
    this.expander = crossLanguageExpander({ cacheDir: join(options.paths.dataDir, 'cache') });
    this.liveGate = new LiveGate(() => this.gateWith());
    catalog.on('change', () => {
      this.liveGate.invalidate();
      this.matcherCache = undefined;
    });
  }

  static async open(options: WorkspaceOptions): Promise<KnackWorkspace> {
    const report = options.onDiagnostic ?? (() => {});
    const { settings, diagnostics } = loadSettings(options.paths.dataDir, options.workspace);
    for (const d of diagnostics) report(d);
    let store: Store | undefined;
    try {
      store = Store.openIn(options.paths.dataDir);
    } catch (e) {
      const message = `cannot open the database in ${options.paths.dataDir}: ${(e as Error).message}`;
      if (options.requireStore) throw new Error(message);
      report({ severity: 'warning', code: 'store.open', file: options.paths.dataDir, message: `${message}; continuing without the cache, toggles, rules and trust decisions` });
    }
    // Trust review: discovered P0 skills are disabled, P1 ones until the user trusts them (skills/trust/trust.ts).
    let catalog: Catalog;
    try {
      catalog = await openCatalog({
        paths: options.paths,
        workspace: options.workspace,
        settings,
        ...(store ? { store } : {}),
        review: createTrustReview(store),
      });
    } catch (e) {
      store?.close(); // never leak the database handle on a failed open
      throw e;
    }
    const ws = new KnackWorkspace(options, store, catalog, settings);
    if (options.watch) ws.watcher = watchCatalog(catalog);
    return ws;
  }

  get workspace(): string {
    return this.options.workspace;
  }

  get paths(): KnackPaths {
    return this.options.paths;
  }

  /** The policy gate for this workspace: ceiling ∩ acting skills' manifests, the user's rules; follows the catalog. */
  get gate(): Gate {
    return this.liveGate;
  }

  /** Skills that act (not shadowed), enabled or not. */
  actingSkills(): CatalogEntry[] {
    return this.catalog.entries().filter((e) => !e.shadowedBy);
  }

  /** Trigger matcher over the enabled catalog; rebuilt after the catalog changes. */
  matcher(): SkillMatcher {
    return (this.matcherCache ??= new SkillMatcher(this.catalog.enabled()));
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
    // knack.callTool reaches the registered tools; the tool box opens on the first such call only.
    let lookup: Promise<ToolLookup> | undefined;
    const tools = (): Promise<ToolLookup> => (lookup ??= this.toolbox().then((box) => registryLookup(box.registry)));
    const runner = createScriptRunner({
      gate,
      workspace: this.workspace,
      limits: limitsFromSettings(this.settings.sandbox),
      tools: {
        get: async (name) => (await tools()).get(name),
        problems: async (name, args) => (await tools()).problems?.(name, args),
      },
      ...(this.options.approveScript ? { approve: this.options.approveScript } : {}),
      ...(this.options.spawnHost ? { spawn: this.options.spawnHost } : {}),
    });
    this.runners.push(runner);
    return runner;
  }

  /** A gate over the catalog's acting skills plus `first`, which bind their names before any catalog skill. */
  gateWith(first: Pick<CatalogEntry, 'file' | 'realDir' | 'manifest'>[] = []): Gate {
    return buildGate({
      settings: this.settings,
      workspace: this.workspace,
      ...(this.store ? { store: this.store } : {}),
      skills: [...first, ...this.actingSkills()],
      paths: this.options.paths,
    }).gate;
  }

  /**
   * Every tool the agent can use: built-ins, the skill tools (Skill, SkillSearch, list_skills, read_skill_resource,
   * create_skill), run_skill_script, MCP connectors and imported catalogs; ToolSearch and DeferExecuteTool on top.
   */
  toolbox(): Promise<Toolbox> {
    this.toolboxPromise ??= (async () => {
      const o = this.options;
      const loader = this.newLoader();
      const skill = skillTools({
        catalog: this.catalog,
        loader,
        userSkillsDir: userSkillDirs(o.paths.home).workbuddy,
        searchOptions: { cacheDir: join(o.paths.dataDir, 'cache') },
        onCreated: () => void this.catalog.refresh(),
      });
      const script = createRunSkillScriptTool({ runner: this.scriptRunner(), findSkill: catalogSkillFinder(this.catalog) });
      return openToolbox({
        workspace: this.workspace,
        settings: this.settings,
        gate: this.gate,
        ...(o.approver ? { approver: o.approver } : {}),
        extraTools: [
          { tools: skill, source: 'skill' },
          { tools: [script], source: 'builtin' },
        ],
        ...(o.mcpServers ? { mcpServers: o.mcpServers } : {}),
        ...(o.mcpBackoff ? { backoff: o.mcpBackoff } : {}),
        ...(o.toolCatalogs ? { catalogs: o.toolCatalogs } : {}),
        expander: this.expander,
        ...(o.onDiagnostic ? { onDiagnostic: o.onDiagnostic } : {}),
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
    (this.catalog as { close?: () => void }).close?.();
    this.store?.close();
  }
}

export function openWorkspace(options: WorkspaceOptions): Promise<KnackWorkspace> {
  return KnackWorkspace.open(options);
}
