// The desktop service: the contract implemented on top of the core (workspace, catalog, trust/install, tools,
// policy, agent). Electron and serve mode bind its handlers and forward its events; it never knows which transport.
//
//   const service = new KnackService({ paths, transport: 'serve', version });
//   await service.openWorkspace('/path/to/project');
//   service.events.on((name, payload) => socket.send(…));
//   const result = await dispatch(service.handlers, 'skills.list', {});
import { realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { EventHub, ServiceError, type Handlers } from './dispatch.js';
import type { Dialogs, KeyStore, ServiceContext } from './context.js';
import { skillHandlers } from './skills.js';
import { toolHandlers } from './tools.js';
import { settingsHandlers } from './settings.js';
import { ChatBinding } from './chat.js';
import { addRecent, listRecent } from './recent.js';
import { auditOf, auditState, skillView } from './views.js';
import { openWorkspace, type KnackWorkspace, type WorkspaceOptions } from '../workspace.js';
import { loadMcpConfig } from '../mcp/config.js';
import type { KnackPaths } from '../config/paths.js';
import { formatDiagnostic, type Diagnostic } from '../base/diagnostics.js';
import type { Store } from '../store/index.js';
import type { SpawnHost } from '../sandbox/spawn.js';

export interface ServiceOptions {
  paths: KnackPaths;
  transport: 'electron' | 'serve';
  version: string;
  /** Native dialogs (Electron); without them the dialog methods answer `unsupported`. */
  dialogs?: Dialogs;
  /** Where API keys are kept (Electron: safeStorage). Default: the providers file, readable only by the user. */
  keyStore?: KeyStore;
  /** Electron's utilityProcess host for skill scripts; plain Node forks. */
  spawnHost?: SpawnHost;
  /** Provider choice from the command line (serve --provider/--model/--base-url); wins over providers.json. */
  provider?: { provider?: string; model?: string; baseURL?: string };
  /** Environment for key lookup (tests pass their own). */
  env?: NodeJS.ProcessEnv;
  /** Workspace options for tests (e.g. MCP backoff). */
  workspaceOptions?: Partial<Omit<WorkspaceOptions, 'paths' | 'workspace'>>;
  /** Where internal failures are logged (default: console.error). */
  log?: (message: string, err?: unknown) => void;
  /**
   * Conversations kept open in memory (default 16): past it, the least recently used idle one is closed; it reopens
   * from the store when next used.
   */
  liveSessions?: number;
}

/** A problem of a settings file (the ones a ceiling saved in Settings can change). */
const fromSettings = (d: Diagnostic): boolean => d.code.startsWith('settings.');

export class KnackService {
  readonly events: EventHub;
  readonly handlers: Handlers;
  private ws: KnackWorkspace | undefined;
  private wsDiagnostics: Diagnostic[] = [];
  private opening: Promise<unknown> = Promise.resolve();
  private readonly chat: ChatBinding;
  private closed = false;

  /** Conversations open in memory: at most `liveSessions`, more only while the extra ones are running or waiting. */
  get openConversations(): number {
    return this.chat.liveCount;
  }

  constructor(readonly options: ServiceOptions) {
    const log = options.log ?? ((m: string, e?: unknown) => console.error(`knack: ${m}`, e ?? ''));
    this.events = new EventHub((p) => log(p));
    const ctx: ServiceContext = {
      paths: options.paths,
      events: this.events,
      workspace: () => {
        if (!this.ws) throw new ServiceError('no_workspace', 'open a workspace folder first');
        return this.ws;
      },
      store: (): Store => {
        const store = ctx.workspace().store;
        if (!store) throw new ServiceError('unavailable', `the database in ${options.paths.dataDir} could not be opened; this needs it`);
        return store;
      },
      settingsView: () => {
        // The Settings page also lists the open workspace's settings problems (a workspace file that tries to widen the
        // ceiling, a bad key), one line each, as `knack` prints them.
        const view = this.chat.settingsView();
        const own = this.wsDiagnostics.filter(fromSettings).map(formatDiagnostic);
        return own.length ? { ...view, warnings: [...view.warnings, ...own] } : view;
      },
    };
    this.chat = new ChatBinding(ctx, options);
    const dialogs = options.dialogs;
    const noDialogs = () => {
      throw new ServiceError('unsupported', 'native dialogs exist in the desktop app only; type the path instead');
    };
    this.handlers = {
      'app.info': () => ({
        version: options.version,
        transport: options.transport,
        platform: process.platform,
        nativeDialogs: !!dialogs,
        workspace: this.ws ? this.info() : null,
      }),
      'workspace.open': async ({ path, reload }) => {
        await this.openWorkspace(path, { reload: reload === true });
        return this.info();
      },
      'workspace.current': () => (this.ws ? this.info() : null),
      'workspace.recent': () => ({ items: listRecent(options.paths.dataDir) }),
      'dialog.pickWorkspace': async () => (dialogs ? { path: await dialogs.pickFolder() } : noDialogs()),
      'dialog.pickSkillSource': async ({ kind }) => (dialogs ? { path: await dialogs.pickSkillSource(kind) } : noDialogs()),
      ...skillHandlers(ctx),
      ...toolHandlers(ctx),
      ...settingsHandlers(ctx, options, () => this.applyCeiling()),
      ...this.chat.handlers(),
    };
  }

  /** The open workspace, if any. */
  get workspace(): KnackWorkspace | undefined {
    return this.ws;
  }

  /**
   * Open (or switch to) a workspace folder. Opening one at a time: a second call waits for the first. The folder that
   * is already open stays as it is (its conversations go on) unless `reload` asks to read it again.
   */
  openWorkspace(path: string, opts: { reload?: boolean } = {}): Promise<void> {
    const next = this.opening.catch(() => {}).then(() => this.doOpen(path, opts.reload === true));
    this.opening = next;
    return next;
  }

  private async doOpen(path: string, reload: boolean): Promise<void> {
    if (this.closed) throw new ServiceError('unavailable', 'the service is shutting down');
    let real: string;
    try {
      real = realpathSync.native(path);
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
    } catch (e) {
      throw new ServiceError('not_found', `cannot open ${path} as a workspace: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (e as Error).message}`, { path });
    }
    const o = this.options;
    if (!reload && this.ws?.workspace === real) {
      // Going back to the open folder (the window's picker, a recent entry) must not stop its running conversations.
      addRecent(o.paths.dataDir, real);
      return;
    }
    const diagnostics: Diagnostic[] = [];
    const mcp = loadMcpConfig(o.paths.dataDir, real, { trustWorkspace: false });
    diagnostics.push(...mcp.diagnostics);
    const next = await openWorkspace({
      paths: o.paths,
      workspace: real,
      watch: true,
      mcpServers: mcp.servers,
      ...(o.spawnHost ? { spawnHost: o.spawnHost } : {}),
      onDiagnostic: (d) => diagnostics.push(d),
      ...o.workspaceOptions,
    });
    const previous = this.ws;
    await this.chat.detach();
    this.ws = next;
    this.wsDiagnostics = diagnostics;
    next.catalog.on('change', (c: { added: string[]; removed: string[]; changed: string[] }) => {
      if (this.ws !== next) return;
      this.events.emit('catalog.changed', { workspace: next.workspace, added: c.added, removed: c.removed, changed: c.changed });
      // New or edited skills were audited again: their verdicts (or `checking`, until it finishes) go out one by one.
      for (const name of [...c.added, ...c.changed]) {
        const e = next.catalog.get(name);
        if (!e || e.tier === 'builtin') continue;
        const report = auditOf(e, next.trust);
        this.events.emit('audit.verdict', { name: e.manifest.name, audit: auditState(e, report, next.store), skill: skillView(e, next.catalog.entries(), report, next.store) });
      }
    });
    this.chat.attach(next);
    await previous?.close();
    addRecent(o.paths.dataDir, real);
    this.events.emit('workspace.changed', { workspace: this.info() });
  }

  /**
   * The ceiling changed in the user's settings: the open workspace (after one being opened) takes it in place — its
   * conversations stay open and a running turn goes on under the new ceiling. A workspace reload is not needed.
   */
  private async applyCeiling(): Promise<void> {
    await this.opening.catch(() => {});
    const ws = this.ws;
    if (!ws) return;
    const diagnostics = await ws.reloadCeiling();
    if (this.ws !== ws) return;
    const keep = this.wsDiagnostics.filter((d) => !fromSettings(d));
    const said = (ds: Diagnostic[]): string => JSON.stringify(ds.filter(fromSettings));
    const changed = said(this.wsDiagnostics) !== said(diagnostics);
    this.wsDiagnostics = [...keep, ...diagnostics];
    // The workspace's info carries its settings warnings (a workspace file that tries to widen the ceiling, say): when
    // the new ceiling changes them, the window hears it; the workspace itself stays open as it is.
    if (changed) this.events.emit('workspace.changed', { workspace: this.info() });
  }

  private info() {
    const ws = this.ws!;
    const entries = ws.catalog.entries().filter((e) => !e.shadowedBy);
    return {
      path: ws.workspace,
      name: basename(ws.workspace) || ws.workspace,
      skills: { total: entries.length, enabled: entries.filter((e) => e.enabled).length, broken: ws.catalog.broken().length },
      diagnostics: this.wsDiagnostics,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.opening.catch(() => {});
    await this.chat.detach();
    await this.ws?.close();
    this.ws = undefined;
  }
}
