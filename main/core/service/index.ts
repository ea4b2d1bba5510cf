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
import { sourceHandlers } from './sources.js';
import { mcpView, toolHandlers } from './tools.js';
import { mcpHandlers, mcpServersOf } from './mcp.js';
import { settingsHandlers } from './settings.js';
import { fileHandlers } from './files.js';
import { ChatBinding } from './chat.js';
import { addRecent, listRecent } from './recent.js';
import { auditOf, auditState, skillView } from './views.js';
import { openWorkspace, type KnackWorkspace, type WorkspaceOptions } from '../workspace.js';
import type { KnackPaths } from '../config/index.js';
import { SETTINGS_FILE, settingsFiles } from '../config/index.js';
import { watchFiles, type FileWatcher } from '../config/index.js';
import { providersFilePath } from '../agent/index.js';
import { formatDiagnostic, type Diagnostic } from '../base/index.js';
import { english, fsWords, readRegularFile, say, type Said } from '../base/index.js';
import { WatchProblems } from './watch-problems.js';
import type { Store, StoreDamage } from '../store/index.js';
import type { SpawnHost } from '../sandbox/index.js';

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
  /**
   * Watch the settings files (the user's settings.json and providers.json, the open workspace's settings.json) and
   * apply a hand edit as a Settings-page save does (default true).
   */
  watchSettings?: boolean;
}

/** A problem of a settings file (the ones a ceiling saved in Settings can change). */
const fromSettings = (d: Diagnostic): boolean => d.code.startsWith('settings.');

/**
 * What a settings file holds now, to tell a real change from an event about nothing (and from our own save): its text,
 * or why there is none. Opened non-blocking and checked to be a file, as the settings reader does (a pipe never blocks).
 */
function stampOf(file: string): string {
  try {
    return `=${readRegularFile(file)}`;
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
}

function parses(stamp: string): boolean {
  if (!stamp.startsWith('=')) return stamp === '!ENOENT';
  try {
    JSON.parse(stamp.slice(1));
    return true;
  } catch {
    return false;
  }
}

/** The database's state for the window's banner, when it is not sound (a damaged file set aside, or no database). */
function storeState(ws: KnackWorkspace): {
  store?: { damaged: Omit<StoreDamage, 'id'>[]; problem?: string; problemWords?: Said };
} {
  let damaged: Omit<StoreDamage, 'id'>[];
  try {
    damaged = (ws.store?.damage() ?? []).map(({ file, movedTo, reason, words, at }) => ({
      file,
      movedTo,
      reason,
      ...(words ? { words } : {}),
      at,
    }));
  } catch (e) {
    const problemWords = say('store.cannotRead', { error: (e as Error).message });
    return { store: { damaged: [], problem: english(problemWords), problemWords } };
  }
  const problem = ws.storeProblem;
  const problemWords = ws.storeProblemWords;
  return damaged.length || problem
    ? { store: { damaged, ...(problem ? { problem } : {}), ...(problemWords ? { problemWords } : {}) } }
    : {};
}

export class KnackService {
  readonly events: EventHub;
  readonly handlers: Handlers;
  private ws: KnackWorkspace | undefined;
  private wsDiagnostics: Diagnostic[] = [];
  private opening: Promise<unknown> = Promise.resolve();
  private readonly chat: ChatBinding;
  private closed = false;
  /** The open workspace's settings files, watched; and what each held when last applied. */
  private settingsWatch: FileWatcher | undefined;
  private readonly stamps = new Map<string, string>();
  /** The open workspace's skill folders that are not watched (their changes are not followed). */
  private watchProblems: WatchProblems | undefined;
  private settingsReload: Promise<void> = Promise.resolve();
  /** Run at close: temporary clones of skill sources still open or kept for an update. */
  private readonly cleanups: (() => Promise<void>)[] = [];

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
        if (!this.ws) throw new ServiceError('no_workspace', say('workspace.none'));
        return this.ws;
      },
      store: (): Store => {
        const store = ctx.workspace().store;
        if (!store) throw new ServiceError('unavailable', say('store.needed', { dir: options.paths.dataDir }));
        return store;
      },
      settingsView: () => {
        // The Settings page also lists the open workspace's settings problems (a workspace file that tries to widen the
        // ceiling, a bad key), one line each, as `knack` prints them, said in the window's language.
        const view = this.chat.settingsView();
        const own = this.wsDiagnostics.filter(fromSettings);
        return own.length ? { ...view, problems: own } : view;
      },
    };
    this.chat = new ChatBinding(ctx, options);
    const dialogs = options.dialogs;
    const noDialogs = () => {
      throw new ServiceError('unsupported', say('dialog.desktopOnly'));
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
      'dialog.pickSkillSource': async ({ kind }) =>
        dialogs ? { path: await dialogs.pickSkillSource(kind) } : noDialogs(),
      'dialog.showSkillFile': async ({ file }) => {
        // Only a file the catalog knows (a skill's SKILL.md, or one that could not be read): the window names no other.
        const cat = ctx.workspace().catalog;
        const known = cat.entries().some((e) => e.file === file) || cat.broken().some((b) => b.file === file);
        if (!known) throw new ServiceError('not_found', say('workspace.notSkillFile', { file }), { file });
        if (!dialogs?.showInFolder) return noDialogs();
        await dialogs.showInFolder(file);
        return { shown: true };
      },
      'store.acknowledge': ({ movedTo }) => {
        const store = ctx.store();
        const seen = new Set(movedTo);
        const unseen = store.damage().filter((d) => !seen.has(d.movedTo));
        const acknowledged = store.acknowledgeDamage(movedTo);
        const workspace = this.info();
        this.events.emit('workspace.changed', { workspace });
        if (unseen.length)
          throw new ServiceError(
            'conflict',
            say('store.moreSetAside', { paths: unseen.map((d) => d.movedTo).join(', ') }),
            { workspace },
          );
        return { acknowledged, workspace };
      },
      // Started as a tool call starts it: available only once a command really ran inside it.
      'sandbox.status': async () => (await ctx.workspace().wall()).status(),
      ...skillHandlers(ctx),
      ...sourceHandlers(ctx, (f) => this.cleanups.push(f)),
      ...toolHandlers(ctx),
      ...mcpHandlers(ctx),
      ...fileHandlers(ctx),
      ...settingsHandlers(ctx, options, () => this.applyCeiling()),
      ...this.ownProviderWrites(this.chat.handlers()),
    };
  }

  /**
   * The Settings page's provider and key changes write providers.json and apply themselves: the file watcher need not
   * apply them a second time (which would close the idle conversations again).
   */
  private ownProviderWrites(h: ReturnType<ChatBinding['handlers']>): ReturnType<ChatBinding['handlers']> {
    const file = providersFilePath(this.options.paths.dataDir);
    const noted = <F extends (...a: never[]) => unknown>(f: F): F =>
      ((...a: Parameters<F>) => {
        const out = f(...a);
        if (this.stamps.has(file)) this.stamps.set(file, stampOf(file));
        return out;
      }) as F;
    return {
      ...h,
      'settings.setProvider': noted(h['settings.setProvider']),
      'settings.setKey': noted(h['settings.setKey']),
      'settings.clearKey': noted(h['settings.clearKey']),
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
    if (this.closed) throw new ServiceError('unavailable', say('service.closing'));
    // The CLI prints the file system's own message; the window says why in its language (fsWords).
    const cannotOpen = (message: string, why: Said) =>
      new ServiceError(
        'not_found',
        say('workspace.cannotOpen', { path, why }),
        { path },
        `cannot open ${path} as a workspace: ${message}`,
      );
    let real: string;
    let folder: boolean;
    try {
      real = realpathSync.native(path);
      folder = statSync(real).isDirectory();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT')
        throw cannotOpen('no such folder', say('workspace.noSuchFolder'));
      throw cannotOpen((e as Error).message, fsWords(e));
    }
    if (!folder) throw cannotOpen('not a folder', say('workspace.notFolder'));
    const o = this.options;
    if (!reload && this.ws?.workspace === real) {
      // Going back to the open folder (the window's picker, a recent entry) must not stop its running conversations.
      addRecent(o.paths.dataDir, real);
      return;
    }
    const diagnostics: Diagnostic[] = [];
    // What the settings files hold as the workspace reads them: a later edit is told apart from an event about nothing.
    const watched = this.watchedFiles(real);
    const stamps = new Map(watched.map((f) => [f, stampOf(f)]));
    const mcp = mcpServersOf(o.paths.dataDir, real);
    diagnostics.push(...mcp.diagnostics);
    // Skill folders that cannot be watched: one line in the log per kind of failure, and the window's warning.
    const opened: { ws?: KnackWorkspace } = {};
    const watchProblems = new WatchProblems((fresh) => {
      for (const d of fresh) this.log(d.message);
      if (opened.ws && this.ws === opened.ws) this.events.emit('workspace.changed', { workspace: this.info() });
    });
    const next = await openWorkspace({
      paths: o.paths,
      workspace: real,
      watch: true,
      // The window runs commands: its sandbox loads and starts now, not in the middle of the first answer.
      startWall: true,
      mcpServers: mcp.servers,
      // Each server's state as it changes (started, connected, down): the window shows it live.
      onMcpStatus: (servers) => {
        if (this.ws?.workspace === real) this.events.emit('tools.mcpChanged', { servers: servers.map(mcpView) });
      },
      ...(o.spawnHost ? { spawnHost: o.spawnHost } : {}),
      onDiagnostic: (d) => {
        diagnostics.push(d);
        // A damaged or unopenable database is named in the log too, in its one line.
        if (d.code === 'store.damaged' || d.code === 'store.open') this.log(formatDiagnostic(d));
      },
      ...o.workspaceOptions,
      onWatchError: watchProblems.add,
      onWatched: watchProblems.watched,
    });
    opened.ws = next;
    const previous = this.ws;
    await this.chat.detach();
    this.ws = next;
    this.wsDiagnostics = diagnostics;
    this.watchProblems?.close();
    this.watchProblems = watchProblems;
    next.catalog.on('change', (c: { added: string[]; removed: string[]; changed: string[] }) => {
      if (this.ws !== next) return;
      this.events.emit('catalog.changed', {
        workspace: next.workspace,
        added: c.added,
        removed: c.removed,
        changed: c.changed,
      });
      // New or edited skills were audited again: their verdicts (or `checking`, until it finishes) go out one by one.
      for (const name of [...c.added, ...c.changed]) {
        const e = next.catalog.get(name);
        if (!e || e.tier === 'builtin') continue;
        const report = auditOf(e, next.trust);
        this.events.emit('audit.verdict', {
          name: e.manifest.name,
          audit: auditState(e, report, next.store),
          skill: skillView(e, next.catalog.entries(), report, next.store),
        });
      }
    });
    this.chat.attach(next);
    await this.settingsWatch?.close();
    this.settingsWatch = undefined;
    this.stamps.clear();
    if (o.watchSettings !== false) {
      for (const [f, st] of stamps) this.stamps.set(f, st);
      this.settingsWatch = watchFiles(watched, () => void this.settingsEdited(next), {
        onError: (e) => this.log('watching the settings files', e),
      });
      // chokidar hears nothing before its first scan (of a few folders, filtered to the files).
      await this.settingsWatch.ready;
    }
    await previous?.close();
    addRecent(o.paths.dataDir, real);
    this.events.emit('workspace.changed', { workspace: this.info() });
    // An edit made while the folder was opening (before the watcher started) is applied now.
    if (this.settingsWatch) void this.settingsEdited(next);
  }

  /** The files whose hand edits apply live: the user's settings.json, the workspace's, providers.json. */
  private watchedFiles(workspace: string): string[] {
    return [...settingsFiles(this.options.paths.dataDir, workspace), providersFilePath(this.options.paths.dataDir)];
  }

  /**
   * A watched settings file saw an event: what really changed is applied as a Settings-page save applies it — the
   * ceiling (live gate, tool box, settings problems; a broken file keeps the ceiling in force), the provider (idle
   * conversations take it on their next turn) — and the window hears `workspace.changed`. One at a time, in order.
   */
  private settingsEdited(ws: KnackWorkspace): Promise<void> {
    const run = async (): Promise<void> => {
      await this.opening.catch(() => {});
      if (this.ws !== ws || this.closed) return;
      const moved = (f: string): boolean => this.stamps.get(f) !== stampOf(f);
      const settingsMoved = settingsFiles(this.options.paths.dataDir, ws.workspace).some(moved);
      const providers = providersFilePath(this.options.paths.dataDir);
      const providerStamp = stampOf(providers);
      const providersMoved = this.stamps.get(providers) !== providerStamp;
      if (!settingsMoved && !providersMoved) return;
      if (providersMoved) {
        this.stamps.set(providers, providerStamp);
        // A providers.json that is not JSON keeps the provider in use; the Settings page shows why (its warnings).
        if (parses(providerStamp)) this.chat.resetAgent();
      }
      if (settingsMoved) await this.applyCeiling({ announce: true });
      else if (this.ws === ws) this.events.emit('workspace.changed', { workspace: this.info() });
    };
    const next = this.settingsReload.then(run).catch((e: unknown) => this.log('applying the edited settings files', e));
    this.settingsReload = next;
    return next;
  }

  private log(message: string, err?: unknown): void {
    (this.options.log ?? ((m: string, e?: unknown) => console.error(`knack: ${m}`, e ?? '')))(message, err);
  }

  /**
   * The ceiling changed in the user's settings: the open workspace (after one being opened) takes it in place — its
   * conversations stay open and a running turn goes on under the new ceiling. A workspace reload is not needed.
   */
  private async applyCeiling(opts: { announce?: boolean } = {}): Promise<void> {
    // What the files hold as they are read below: the watcher's event about this same content changes nothing more.
    // Taken at once, before waiting: a watcher's check already queued must not apply a Settings-page save again.
    for (const [f] of this.stamps) if (basename(f) === SETTINGS_FILE) this.stamps.set(f, stampOf(f));
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
    // the new ceiling changes them, the window hears it; the workspace itself stays open as it is. A file edited by hand
    // (`announce`) may have changed the ceiling the Settings page shows: the window hears that too.
    if (changed || opts.announce) this.events.emit('workspace.changed', { workspace: this.info() });
  }

  private info() {
    const ws = this.ws!;
    const entries = ws.catalog.entries().filter((e) => !e.shadowedBy);
    return {
      path: ws.workspace,
      name: basename(ws.workspace) || ws.workspace,
      skills: {
        total: entries.length,
        enabled: entries.filter((e) => e.enabled).length,
        broken: ws.catalog.broken().length,
      },
      diagnostics: [...this.wsDiagnostics, ...(this.watchProblems?.diagnostics() ?? [])],
      ...storeState(ws),
    };
  }

  async close(): Promise<void> {
    for (const f of this.cleanups.splice(0)) await f().catch(() => undefined);
    if (this.closed) return;
    this.closed = true;
    await this.opening.catch(() => {});
    await this.settingsWatch?.close();
    this.settingsWatch = undefined;
    await this.settingsReload;
    await this.chat.detach();
    this.watchProblems?.close();
    await this.ws?.close();
    this.ws = undefined;
  }
}

export { type KeyStore } from './context.js';
export { dispatch, type EventHub, type Handlers } from './dispatch.js';
