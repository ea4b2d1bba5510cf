// Contract handlers for chat, sessions, the context view and the provider settings, bound to the agent
// (main/core/agent): one Agent per open workspace, live ChatSessions by id, their events mapped to contract events.
import { english, fsWords, readRegularFile, say, type Said } from '../base/index.js';
import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import type { ServiceContext } from './context.js';
import type { ServiceOptions } from './index.js';
import { approvalOf, EventMapper, NO_MODEL, transcriptOf } from './chat-events.js';
import type { KnackWorkspace } from '../workspace.js';
import { loadSettings } from '../config/index.js';
import {
  Agent,
  AttachmentError,
  PRESETS,
  ProviderError,
  findPreset,
  providersFilePath,
  readProvidersFile,
  writeProvidersFile,
  type AgentEvent,
  type Attachment,
  type ChatSession,
  type ContextSections,
  type KeyStore as AgentKeyStore,
  type ModelGroup,
  type ProjectionEntry,
  type SessionRow,
  type Usage,
} from '../agent/index.js';
import { checkConnection, keySourceOf, resolveProvider } from '../agent/index.js';
import { draftSkill, NoStepsError } from '../agent/index.js';
import { auditDraft } from '../skills/trust/index.js';
import { reportView } from './views.js';
import type { KeyStore } from './context.js';
import { CONTEXT_SECTIONS, type ContextView, type SessionMeta, type SettingsView } from '../../../preload/contract.js';

type ChatHandlers = Pick<
  Handlers,
  | 'chat.send'
  | 'chat.stop'
  | 'chat.regenerate'
  | 'chat.switchVersion'
  | 'chat.retry'
  | 'chat.answer'
  | 'chat.setPlanMode'
  | 'chat.unloadSkill'
  | 'chat.models'
  | 'chat.setModel'
  | 'chat.draftSkill'
  | 'sessions.list'
  | 'sessions.open'
  | 'sessions.export'
  | 'sessions.delete'
  | 'sessions.search'
  | 'sessions.rename'
  | 'sessions.remember'
  | 'sessions.remembered'
  | 'context.get'
  | 'settings.get'
  | 'settings.setProvider'
  | 'settings.setKey'
  | 'settings.clearKey'
  | 'settings.testProvider'
>;

interface Live {
  chat: ChatSession;
  off: () => void;
  turn: number;
  /** Its turn's end waits to be said (until the session is idle); what follows it waits too. */
  ending: boolean;
}

/** Conversations kept open by default; each holds its events, loaded skills and tool session in memory. */
const LIVE_SESSIONS = 16;

/**
 * Keys in providers.json (mode 600), where serve mode and the CLI keep them when no OS keychain is at hand. A file
 * others can read gives no key, as resolveProvider would not take one from it: readProvidersFile's warning says why
 * (chmod 600), and the Settings page shows it.
 */
export function fileKeyStore(dataDir: string): KeyStore {
  return {
    kind: 'file',
    get: (id) => {
      const { file, keysUsable } = readProvidersFile(dataDir);
      return keysUsable ? file.providers[id]?.apiKey : undefined;
    },
    set: (id, key) => updateProvidersFile(dataDir, id, (_json, entry) => void (entry.apiKey = key)),
    delete: (id) => updateProvidersFile(dataDir, id, (_json, entry) => void delete entry.apiKey),
  };
}

/** The conversations' database failed: its own message, verbatim, behind the words' lead. */
function storeFailed(e: unknown): ServiceError {
  const message = (e as Error).message;
  const words = (e as { words?: Said }).words ?? say('store.cannotRead', { error: message });
  return new ServiceError('unavailable', words, undefined, message);
}

/**
 * The key store failed to save or remove a key (the OS keychain with no encryption, a file that cannot be written):
 * its own message, verbatim, behind the words' lead. A providers.json refused as it is read keeps its own words.
 */
function keyStoreFailed(e: unknown, code: 'keys.cannotSave' | 'keys.cannotClear'): ServiceError {
  if (e instanceof ServiceError) return e;
  const message = (e as Error).message;
  return new ServiceError('unavailable', say(code, { detail: message }), undefined, message);
}

/**
 * An agent's refusal, its message as it came and its words for the window to say. A failure with no words is no
 * refusal: it goes on as it is, and dispatch says which request failed, its message verbatim.
 */
const refusal = (code: ServiceError['code'], e: unknown, details: unknown): unknown => {
  const words = (e as { words?: Said }).words;
  return words ? new ServiceError(code, words, details, (e as Error).message) : e;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON.parse's "at position N" as the line and column of `text` (1-based), when its message gives a position. */
function jsonPlace(text: string, message: string): { line: number; column: number } | undefined {
  const m = /at position (\d+)/.exec(message);
  if (!m) return undefined;
  const before = text.slice(0, Math.min(Number(m[1]), text.length));
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

/**
 * Change the entry `id` of providers.json (and the file's other fields through `json`) as the file is on disk: every
 * field and provider Knack does not know about is kept, and an entry is not created empty. A file that cannot be read
 * as a JSON object whose `providers` (and entry `id`) are objects is never overwritten: a `conflict` names the file and
 * the line to fix first (as writeUserCeiling does for settings.json).
 */
function updateProvidersFile(
  dataDir: string,
  id: string,
  fn: (json: Record<string, unknown>, entry: Record<string, unknown>) => void,
): void {
  const path = providersFilePath(dataDir);
  // The CLI prints the file system's or the parser's own message; the window says why in its language.
  const refuse = (why: Said, message = english(why)) =>
    new ServiceError(
      'conflict',
      say('providersFile.refused', { path, why }),
      undefined,
      `${path}: ${message}; fix it (or move it away) first: it was not changed`,
    );
  let text = '';
  try {
    text = readRegularFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = (e as Error).message;
    if (code === undefined)
      throw refuse(message === 'not a regular file' ? say('providersFile.notFile') : fsWords(e), message);
    if (code !== 'ENOENT')
      throw refuse(say('providersFile.unreadable', { error: fsWords(e) }), `cannot read it (${message})`);
  }
  let json: Record<string, unknown> = {};
  if (text.trim() !== '') {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      const detail = (e as Error).message;
      const at = jsonPlace(text, detail);
      throw refuse(at ? say('providersFile.badJsonAt', { ...at, detail }) : say('providersFile.badJson', { detail }));
    }
    if (!isObject(raw)) throw refuse(say('providersFile.notJsonObject'));
    json = raw;
  }
  json.providers ??= {};
  if (!isObject(json.providers)) throw refuse(say('providersFile.providersNotObject'));
  const providers = json.providers;
  const existed = providers[id] !== undefined;
  if (existed && !isObject(providers[id])) throw refuse(say('providersFile.entryNotObject', { id }));
  const entry = (existed ? providers[id] : {}) as Record<string, unknown>;
  fn(json, entry);
  if (existed || Object.keys(entry).length) providers[id] = entry;
  writeProvidersFile(dataDir, json as unknown as Parameters<typeof writeProvidersFile>[1]);
}

const SECTION_OF: Record<ProjectionEntry['kind'], keyof Omit<ContextSections, 'total' | 'window'>> = {
  instructions: 'instructions',
  catalog: 'catalog',
  skill: 'skills',
  resource: 'skills',
  tool: 'tools',
  compaction: 'history',
};

/**
 * The conversation's tokens and cost so far on the branch on screen (the totals of its last usage event), once a
 * call has been made; once it has branched, every branch's too (`spentAll`).
 */
function spentOf(chat: ChatSession): Pick<ContextView, 'spent' | 'spentAll'> {
  const priced = (u: Usage, cost: number | undefined) => ({
    ...u,
    ...(cost !== undefined && Number.isFinite(cost) ? { costUsd: cost } : {}),
  });
  const u = chat.usage();
  const none = u.inputTokens + u.outputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0) === 0;
  const all = chat.spentAllBranches();
  return {
    ...(none ? {} : { spent: priced(u, chat.cost()) }),
    ...(all ? { spentAll: priced(all, all.cost) } : {}),
  };
}

export class ChatBinding {
  private ws: KnackWorkspace | undefined;
  private agentCache: Agent | undefined;
  private agentProblem: ProviderError | undefined;
  /** Open conversations, least recently used first. */
  private readonly live = new Map<string, Live>();
  /** The last turn number of each conversation closed to save memory: its turn ids go on where they were. */
  private readonly turns = new Map<string, number>();
  private readonly keys: KeyStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: ServiceOptions,
  ) {
    this.keys = options.keyStore ?? fileKeyStore(options.paths.dataDir);
  }

  attach(ws: KnackWorkspace): void {
    this.ws = ws;
    this.agentCache = undefined;
  }

  async detach(): Promise<void> {
    const all = [...this.live.values()];
    this.live.clear();
    this.turns.clear();
    for (const l of all) l.off();
    await Promise.all(all.map((l) => l.chat.close().catch(() => undefined)));
    this.ws = undefined;
    this.agentCache = undefined;
  }

  /** The agent for the open workspace; a provider that cannot be resolved leaves it offline with the reason kept. */
  private agent(): Agent {
    if (this.agentCache) return this.agentCache;
    const ws = this.ctx.workspace();
    const keyStore: AgentKeyStore = { get: (id) => this.keys.get(id) };
    const common = { keyStore, ...(this.options.env ? { env: this.options.env } : {}) };
    try {
      this.agentCache = Agent.create(ws, {
        ...common,
        ...(this.options.provider ? { provider: this.options.provider } : {}),
      });
      this.agentProblem = undefined;
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      this.agentProblem = e;
      this.agentCache = Agent.create(ws, { ...common, offline: true });
    }
    return this.agentCache;
  }

  /** Why a message finds no model: the provider that could not be made (its one line), else none is set up. */
  private noModel(): Said {
    return this.agentProblem ? say('noModelBecause', { why: this.agentProblem.words }) : NO_MODEL;
  }

  /** Provider settings changed: new sessions use the new provider; idle live sessions are reopened on next use. */
  resetAgent(): void {
    this.agentCache = undefined;
    for (const [id, l] of this.live) {
      if (!l.chat.busy) this.closeLive(id, l);
    }
  }

  /** Close an open conversation in memory (everything of it is in the store; session() reopens it, turn ids going on). */
  private closeLive(id: string, l: Live): void {
    this.live.delete(id);
    this.turns.set(id, l.turn);
    l.off();
    void l.chat.close().catch(() => undefined);
  }

  /** How many conversations are open in memory. */
  get liveCount(): number {
    return this.live.size;
  }

  /** A new conversation; with no database to keep it (it could not be opened), refused in words, not failed. */
  private started(planMode: boolean | undefined): ChatSession {
    try {
      return this.agent().newSession(planMode ? { planMode } : {});
    } catch (e) {
      throw refusal('unavailable', e, undefined);
    }
  }

  private bind(chat: ChatSession): Live {
    const live: Live = { chat, off: () => {}, turn: this.turns.get(chat.id) ?? 0, ending: false };
    this.turns.delete(chat.id);
    const mapper = new EventMapper(
      (n, p) => this.ctx.events.emit(n, p),
      () => `${chat.id}:${live.turn}`,
      () => this.noModel(),
      // Asked as the turn's end is said, when the session has let the turn go.
      () => chat.cannotRetry() === undefined,
    );
    // Events after a turn's end that wait for it to be said (the skill offer): in order, after it.
    let afterEnd: AgentEvent[] | undefined;
    const handle = (e: AgentEvent): void => {
      if (afterEnd) {
        afterEnd.push(e);
        return;
      }
      if (e.type === 'turn_end') {
        // Said once the session has let the turn go: a window that sends again on turnEnd (or reopens the conversation)
        // must find it idle, not busy for a few more microtasks.
        afterEnd = [];
        live.ending = true;
        const said = (): void => {
          live.ending = false;
          mapper.map(e);
          this.ctx.events.emit('session.updated', { session: this.meta(chat) });
          const later = afterEnd ?? [];
          afterEnd = undefined;
          later.forEach(handle);
        };
        void chat.idle().then(said, said);
        return;
      }
      mapper.map(e);
      if (e.type === 'user_message' || e.type === 'plan_mode')
        this.ctx.events.emit('session.updated', { session: this.meta(chat) });
    };
    live.off = chat.on(handle);
    this.live.set(chat.id, live);
    this.closeIdle(chat.id);
    return live;
  }

  /**
   * Past the limit, close the least recently used conversations that are idle (no turn running or ending, no approval
   * waiting): everything of theirs is in the store, and session() reopens one when it is used again. Without this,
   * every New chat of a long-running window stayed in memory.
   */
  private closeIdle(keep: string): void {
    let over = this.live.size - (this.options.liveSessions ?? LIVE_SESSIONS);
    for (const [id, l] of this.live) {
      if (over <= 0) return;
      if (id === keep || l.chat.busy || l.ending || l.chat.pendingApprovals().length) continue;
      this.closeLive(id, l);
      over--;
    }
  }

  /** A turn has started: if it fails, it ends with an error event (and a message the store did not take goes back). */
  private turnStarted(live: Live, turnId: string, started: Promise<unknown>): { sessionId: string; turnId: string } {
    started.catch((e: unknown) => {
      // The store took nothing of the turn (not even its error): the message, not stored, goes back to the user.
      const unsent = (e as { unsent?: unknown }).unsent;
      this.ctx.events.emit('chat.turnEnd', {
        sessionId: live.chat.id,
        turnId,
        reason: 'error',
        error: { code: 'internal', message: (e as Error).message },
        ...(typeof unsent === 'string' ? { unsent } : {}),
      });
    });
    this.ctx.events.emit('session.updated', { session: this.meta(live.chat) });
    return { sessionId: live.chat.id, turnId };
  }

  private session(id: string): Live {
    const found = this.live.get(id);
    if (found) {
      // Most recently used last.
      this.live.delete(id);
      this.live.set(id, found);
      return found;
    }
    let chat: ChatSession;
    try {
      chat = this.agent().openSession(id);
    } catch (e) {
      throw refusal('not_found', e, { id });
    }
    // A conversation goes on only in its own folder: under another one its tools would act on that folder's files.
    const home = this.agent().sessionRow(chat.id)?.workspace;
    if (home !== undefined && home !== this.ctx.workspace().workspace) {
      void chat.close().catch(() => undefined);
      throw new ServiceError('not_found', say('chat.otherFolder', { id: chat.id, folder: home }), {
        id,
        workspace: home,
      });
    }
    return this.live.get(chat.id) ?? this.bind(chat);
  }

  private meta(chat: ChatSession, row?: SessionRow): SessionMeta {
    const r = row ?? this.agent().sessionRow(chat.id);
    return {
      id: chat.id,
      title: r?.title || chat.title || 'New chat',
      workspace: r?.workspace ?? this.ctx.workspace().workspace,
      createdAt: r?.createdAt ?? Date.now(),
      updatedAt: r?.updatedAt ?? Date.now(),
      messages: r?.messages ?? 0,
      provider: r?.provider ?? chat.provider?.id ?? null,
      model: r?.model ?? chat.provider?.model ?? null,
      planMode: chat.planMode,
      running: chat.busy,
      waiting: chat.pendingApprovals().length > 0,
    };
  }

  private rowMeta(row: SessionRow): SessionMeta {
    const l = this.live.get(row.id);
    if (l) return this.meta(l.chat, row);
    return {
      id: row.id,
      title: row.title || 'New chat',
      workspace: row.workspace,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      messages: row.messages,
      provider: row.provider,
      model: row.model,
      planMode: false,
      running: false,
    };
  }

  /** Answer the conversation with `model` of `provider` (default: the conversation's) from its next turn on. */
  private switchModel(chat: ChatSession, model: string, provider?: string): void {
    let next;
    try {
      next = this.agent().providerFor(model, provider ?? chat.provider?.id);
    } catch (e) {
      throw refusal('unavailable', e, { model, ...(provider ? { provider } : {}) });
    }
    try {
      chat.useProvider(next.provider, next.price);
    } catch (e) {
      throw refusal('conflict', e, { model, ...(provider ? { provider } : {}) });
    }
  }

  /** The provider's part of the Settings page (the service's view adds the workspace's settings problems: ctx.settingsView). */
  settingsView(): SettingsView {
    const settings = this.ws?.settings ?? loadSettings(this.options.paths.dataDir).settings;
    const { file, keysUsable, warnings } = readProvidersFile(this.options.paths.dataDir);
    const env = this.options.env ?? process.env;
    // What the provider settings would use (resolveProvider's own lookup; an --api-key given at start comes before it).
    const keyOf = (
      p: (typeof PRESETS)[number],
    ): { keySource: 'key-store' | 'env' | 'file' | 'none'; keyEnv?: string } => {
      const { keySource, keyEnv } = keySourceOf(p.id, {
        user: file.providers[p.id],
        preset: p,
        keysUsable,
        env,
        keyStore: this.keys,
      });
      return keySource === 'option' ? { keySource: 'none' } : { keySource, ...(keyEnv ? { keyEnv } : {}) };
    };
    let provider: SettingsView['provider'] = null;
    // One line each: the agent's warnings are providers.json's, as read when it was made (the same lines, or ones
    // from before the file changed).
    // The same line once (the file read here and as the agent read it), by its English.
    const problems = new Map(warnings.map((w) => [english(w), w]));
    if (this.ws) {
      const agent = this.agent();
      const c = agent.providerConfig;
      if (c)
        provider = {
          preset: c.id,
          model: c.model,
          baseUrl: c.baseURL ?? null,
          contextWindow: c.contextWindow,
          hasKey: c.keySource !== 'none',
          keySource: c.keySource,
        };
      for (const w of agent.warnings) problems.set(english(w), w);
    }
    const providerProblem = this.ws ? this.agentProblem?.words : undefined;
    return {
      provider,
      presets: PRESETS.map((p) => {
        const key = keyOf(p);
        return {
          id: p.id,
          label: p.label,
          kind: p.kind,
          baseUrl: p.baseURL ?? null,
          defaultModel: p.defaultModel,
          contextWindow: p.contextWindow,
          keyOptional: p.keyOptional === true,
          hasKey: key.keySource !== 'none',
          ...key,
        };
      }),
      ceiling: settings.policy.ceiling,
      warnings: [...problems.keys()],
      warningWords: [...problems.values()],
      ...(providerProblem ? { providerProblem } : {}),
      keyStorage: this.keys.kind,
    };
  }

  handlers(): ChatHandlers {
    const dataDir = this.options.paths.dataDir;
    const known = (preset: string): string => {
      const p = findPreset(preset);
      if (p) return p.id;
      if (readProvidersFile(dataDir).file.providers[preset]) return preset;
      throw new ServiceError(
        'not_found',
        say('providersFile.unknown', { id: preset, presets: PRESETS.map((x) => x.id).join(', ') }),
      );
    };
    return {
      'chat.send': async ({ sessionId, text, planMode, model, provider, attachments, edit, keepFiles }) => {
        if (edit !== undefined && !sessionId) throw new ServiceError('invalid_input', say('chat.editNeedsSession'));
        if (keepFiles && edit === undefined) throw new ServiceError('invalid_input', say('chat.keepNeedsEdit'));
        const live = sessionId ? this.session(sessionId) : this.bind(this.started(planMode));
        if (live.chat.busy) throw new ServiceError('conflict', say('chat.busy'));
        if (model && (model !== live.chat.provider?.model || (provider && provider !== live.chat.provider.id)))
          this.switchModel(live.chat, model, provider);
        // Files are checked for the model that will read them before anything of the turn is stored.
        let files: Attachment[] = [];
        try {
          files = attachments?.length ? live.chat.checkFiles(attachments) : [];
        } catch (e) {
          if (!(e instanceof AttachmentError)) throw e;
          throw new ServiceError('refused', e.words, { file: e.file });
        }
        if (planMode !== undefined && sessionId) live.chat.setPlanMode(planMode);
        live.turn++;
        const turnId = `${live.chat.id}:${live.turn}`;
        // An edit branches the conversation at that message first (refused, with nothing changed, if it cannot).
        let started: Promise<unknown>;
        try {
          started = edit !== undefined ? live.chat.edit(edit, text, files, keepFiles) : live.chat.send(text, files);
        } catch (e) {
          live.turn--;
          if (e instanceof AttachmentError) throw new ServiceError('refused', e.words, { file: e.file });
          throw refusal('conflict', e, { sessionId: live.chat.id });
        }
        return this.turnStarted(live, turnId, started);
      },
      'chat.retry': ({ sessionId }) => {
        const live = this.session(sessionId);
        const why = live.ending ? say('chat.ending') : live.chat.cannotRetry();
        if (why) throw new ServiceError('conflict', why, { sessionId });
        const started = live.chat.retry();
        live.turn++;
        return this.turnStarted(live, `${live.chat.id}:${live.turn}`, started);
      },
      'chat.regenerate': ({ sessionId, turn }) => {
        const live = this.session(sessionId);
        if (live.ending) throw new ServiceError('conflict', say('chat.ending'), { sessionId });
        let started: Promise<unknown>;
        try {
          started = live.chat.regenerate(turn);
        } catch (e) {
          throw refusal('conflict', e, { sessionId });
        }
        live.turn++;
        return this.turnStarted(live, `${live.chat.id}:${live.turn}`, started);
      },
      'chat.switchVersion': ({ sessionId, turn, which, index }) => {
        const live = this.session(sessionId);
        if (live.ending) throw new ServiceError('conflict', say('chat.ending'), { sessionId });
        try {
          live.chat.switchVersion(turn, which, index);
        } catch (e) {
          throw refusal('conflict', e, { sessionId, turn });
        }
        return { items: transcriptOf(live.chat.events(), this.noModel(), live.chat.versions()) };
      },
      'chat.stop': ({ sessionId }) => {
        const l = this.session(sessionId);
        const was = l.chat.busy;
        l.chat.stop();
        return { stopped: was };
      },
      'chat.answer': ({ sessionId, approvalId, answer, message, rules }) => {
        const ok = this.session(sessionId).chat.answer(approvalId, {
          kind: answer,
          ...(message ? { message } : {}),
          ...(answer === 'always' && rules ? { only: rules } : {}),
        });
        if (!ok) throw new ServiceError('not_found', say('chat.noApproval', { id: approvalId }));
        return { ok };
      },
      'chat.setPlanMode': ({ sessionId, on }) => {
        const l = this.session(sessionId);
        l.chat.setPlanMode(on);
        return { planMode: l.chat.planMode };
      },
      'chat.unloadSkill': async ({ sessionId, name }) => {
        const chat = this.session(sessionId).chat;
        if (!(await chat.unloadSkill(name)))
          throw new ServiceError('not_found', say('chat.notLoaded', { name }), { name });
        const sections = await chat.contextSections();
        this.ctx.events.emit('context.changed', {
          sessionId: chat.id,
          total: sections.total,
          contextWindow: sections.window,
        });
        return { unloaded: true };
      },
      'chat.models': async ({ sessionId }) => {
        const agent = this.agent();
        const chat = sessionId ? this.session(sessionId).chat : undefined;
        const inUse = chat ? chat.provider : agent.provider;
        const current = inUse?.model ?? null;
        const provider = inUse?.id ?? null;
        // Every configured provider's models, the conversation's first, its model first in its group.
        const all = await agent.modelGroups();
        const found = all.find((g) => g.provider === provider);
        // The model in use reads images as its provider object says (the session's, after a switch too).
        const noImages = [
          ...(current && inUse && !inUse.vision ? [current] : []),
          ...(found?.noImages ?? []).filter((m) => m !== current),
        ];
        const own: ModelGroup | undefined =
          provider && current
            ? {
                ...(found ?? { provider, label: provider, source: 'preset' as const }),
                models: [current, ...(found?.models ?? []).filter((m) => m !== current)],
                noImages,
              }
            : found;
        if (own && !own.noImages?.length) delete own.noImages;
        const groups = [...(own ? [own] : []), ...all.filter((g) => g !== found)];
        return {
          provider,
          current,
          models: own?.models ?? [],
          source: own?.source ?? 'preset',
          ...(own?.error ? { error: own.error } : {}),
          ...(own?.errorWords ? { errorWords: own.errorWords } : {}),
          groups,
        };
      },
      'chat.draftSkill': async ({ sessionId }) => {
        const l = this.session(sessionId);
        if (l.chat.busy || l.ending) throw new ServiceError('conflict', say('draft.busy'));
        const provider = l.chat.provider;
        if (!provider) throw new ServiceError('unavailable', say('draft.noModel'));
        let draft;
        try {
          draft = await draftSkill(provider, l.chat.messages(), this.ctx.workspace().workspace);
        } catch (e) {
          if (e instanceof NoStepsError) throw new ServiceError('conflict', e.words);
          // The window leads with "could not draft"; its words are why: the draft's, the provider's, else as it came.
          const message = (e as Error).message;
          const why = (e as { words?: Said }).words ?? say('draft.other', { error: message });
          throw new ServiceError('unavailable', why, undefined, `the skill could not be drafted: ${message}`);
        }
        const { text, calls } = draft;
        return { text, calls, report: reportView(auditDraft(this.options.paths.dataDir, text)) };
      },
      'chat.setModel': ({ sessionId, model, provider }) => {
        const l = this.session(sessionId);
        if (l.chat.busy) throw new ServiceError('conflict', say('chat.busyModel'));
        this.switchModel(l.chat, model, provider);
        const session = this.meta(l.chat);
        this.ctx.events.emit('session.updated', { session });
        // Images sent earlier that this model does not read: the window says so (they go to it as notes).
        const imagesUnseen = l.chat.provider?.vision
          ? 0
          : l.chat
              .messages()
              .reduce(
                (n, m) => n + (m.role === 'user' ? (m.attachments ?? []).filter((f) => f.kind === 'image').length : 0),
                0,
              );
        return imagesUnseen ? { session, imagesUnseen } : { session };
      },
      'sessions.list': () => {
        try {
          return {
            sessions: this.agent()
              .listSessions()
              .map((r) => this.rowMeta(r)),
          };
        } catch (e) {
          throw storeFailed(e);
        }
      },
      'sessions.open': ({ id, at }) => {
        const l = this.session(id);
        // A turn whose start is still held (its request on the way) is in the log before the log is read.
        l.chat.commitHeldStart();
        if (at !== undefined) {
          try {
            l.chat.showEvent(at, l.ending ? say('chat.ending') : undefined);
          } catch (e) {
            const notHere = (e as { words?: Said }).words?.code === 'store.noEvent';
            throw refusal(notHere ? 'not_found' : 'conflict', e, { id, at });
          }
        }
        // A turn still running, or waiting for an answer (asked again after a restart): the window shows its open
        // approvals and joins its coming events (they carry this turn id) to the reply it shows.
        const approvals = l.chat.pendingApprovals().map((p) => approvalOf(l.chat.id, p));
        const turnId = l.chat.busy || approvals.length ? `${l.chat.id}:${l.turn}` : undefined;
        return {
          session: this.meta(l.chat),
          items: transcriptOf(l.chat.events(), this.noModel(), l.chat.versions()),
          approvals,
          ...(turnId ? { turnId } : {}),
        };
      },
      'sessions.export': ({ id, format }) => {
        const l = this.session(id);
        const content = this.agent().exportSession(l.chat.id, format === 'markdown' ? 'md' : 'json');
        const ext = format === 'markdown' ? 'md' : 'json';
        return {
          filename: `knack-session-${l.chat.id.slice(0, 8)}.${ext}`,
          mime: format === 'markdown' ? 'text/markdown' : 'application/json',
          content,
        };
      },
      'sessions.delete': async ({ id }) => {
        const live = this.live.get(id);
        if (live) {
          live.off();
          await live.chat.close();
          this.live.delete(id);
        }
        this.turns.delete(id);
        let deleted: boolean;
        try {
          deleted = this.agent().deleteSession(id);
        } catch (e) {
          throw refusal('not_found', e, { id });
        }
        if (deleted) this.ctx.events.emit('session.deleted', { id });
        return { deleted };
      },
      'sessions.search': ({ query }) => {
        let hits;
        try {
          hits = this.agent().searchSessions(query);
        } catch (e) {
          throw storeFailed(e);
        }
        return {
          hits: hits.map((h) => ({
            session: this.rowMeta(h.session),
            in: h.in,
            ...(h.seq !== undefined ? { seq: h.seq } : {}),
            snippet: h.snippet,
          })),
        };
      },
      'sessions.rename': ({ id, title }) => {
        if (!title.trim()) throw new ServiceError('invalid_input', say('sessions.emptyTitle'), { id });
        let row: SessionRow;
        try {
          row = this.agent().renameSession(id, title);
        } catch (e) {
          throw refusal('not_found', e, { id });
        }
        const session = this.rowMeta(row);
        this.ctx.events.emit('session.updated', { session });
        return { session };
      },
      'sessions.remember': ({ id }) => {
        const workspace = this.ctx.workspace().workspace;
        const store = this.ctx.store();
        if (id !== null && !store.sessions.get(id))
          throw new ServiceError('not_found', say('sessions.none', { id }), { id });
        store.sessions.rememberOpen(workspace, id ?? undefined);
        return { remembered: id !== null };
      },
      'sessions.remembered': () => ({
        id: this.ctx.store().sessions.rememberedOpen(this.ctx.workspace().workspace) ?? null,
      }),
      'context.get': async ({ sessionId }) => {
        const chat = this.session(sessionId).chat;
        const [sections, projection] = await Promise.all([chat.contextSections(), chat.projection()]);
        return {
          sessionId: chat.id,
          contextWindow: sections.window,
          total: sections.total,
          sections: CONTEXT_SECTIONS.map((section) => ({
            section,
            tokens: sections[section],
            items: projection
              .filter((p) => SECTION_OF[p.kind] === section)
              .map((p) => ({
                label: p.path ? `${p.name}/${p.path}` : p.name,
                tokens: p.tokens,
                note: p.reason,
                ...(p.words ? { words: p.words } : {}),
              })),
          })),
          loadedSkills: chat.loadedSkills().map((s) => ({
            name: s.name,
            tier: s.tier as 'builtin' | 'user' | 'project',
            version: s.version,
            reason: `${s.reason}: ${s.why}`,
            ...(s.words ? { words: s.words } : {}),
            tokens: s.tokens,
            resources: projection
              .filter((p) => p.kind === 'resource' && p.path && p.name.toLowerCase() === s.name.toLowerCase())
              .map((p) => ({ path: p.path!, tokens: p.tokens })),
          })),
          leftOut: projection.find((p) => p.kind === 'catalog')?.leftOut ?? [],
          ...spentOf(chat),
        };
      },
      'settings.get': () => this.ctx.settingsView(),
      'settings.setProvider': ({ preset, model, baseUrl }) => {
        const id = known(preset);
        // A file that does not read is refused, never replaced (the user's other providers are in it).
        updateProvidersFile(dataDir, id, (json, entry) => {
          if (model) entry.model = model;
          if (baseUrl) entry.baseURL = baseUrl;
          json.default = id;
        });
        this.resetAgent();
        return this.ctx.settingsView();
      },
      'settings.setKey': ({ preset, key }) => {
        const id = known(preset);
        try {
          this.keys.set(id, key);
        } catch (e) {
          throw keyStoreFailed(e, 'keys.cannotSave');
        }
        this.resetAgent();
        return { hasKey: true };
      },
      'settings.testProvider': async () => {
        // The provider a message would use now (the same lookup as the agent's): its key never leaves this function.
        const env = this.options.env ?? process.env;
        let r: ReturnType<typeof resolveProvider>;
        try {
          r = resolveProvider(this.options.provider ?? {}, { dataDir, env, keyStore: this.keys });
        } catch (e) {
          if (!(e instanceof ProviderError)) throw e;
          return { ok: false, kind: e.kind, message: e.message, words: e.words };
        }
        if (!r.config) return { ok: false, kind: 'config', message: english(NO_MODEL), words: NO_MODEL };
        const c = r.config;
        const checked = await checkConnection(c, r.apiKey);
        return { provider: c.id, model: c.model, baseUrl: c.baseURL ?? null, ...checked };
      },
      'settings.clearKey': ({ preset }) => {
        const id = known(preset);
        try {
          this.keys.delete(id);
        } catch (e) {
          throw keyStoreFailed(e, 'keys.cannotClear');
        }
        this.resetAgent();
        // A key the provider would still find (the environment, providers.json's keyEnv) is not taken away.
        const { file, keysUsable } = readProvidersFile(dataDir);
        const env = this.options.env ?? process.env;
        return {
          hasKey:
            keySourceOf(id, { user: file.providers[id], preset: findPreset(id), keysUsable, env, keyStore: this.keys })
              .keySource !== 'none',
        };
      },
    };
  }
}
