// The agent's public API (what service.ts, the CLI and serve mode call): an Agent per open workspace resolves the
// provider and keys, and creates, reopens, lists, exports and deletes chat sessions; events are typed (types.ts).
//
//   const agent = Agent.create(workspace, { provider: { provider: 'anthropic' } });
//   const chat = agent.newSession();                  // or agent.openSession(id) after a restart
//   chat.on((ev) => …);                                // AgentEvent: text_delta, tool_call, approval_requested, …
//   await chat.send('帮我提交代码');                    // resolves at the end of the turn
//   chat.answer(approvalId, { kind: 'once' | 'always' | 'deny', message });   chat.stop();   chat.setPlanMode(true);
import { Refusal, say, type Said } from '../base/index.js';
import { ChatSession, requireStore, sessionNamed, type AgentHost, type SessionOptions } from './session.js';
import {
  createProvider,
  keySourceOf,
  readProvidersFile,
  resolveProvider,
  type KeyStore,
  type ProviderChoice,
  type ProviderConfig,
} from './providers/settings.js';
import { ProviderError } from './providers/errors.js';
import { priceFor, type Price } from './providers/pricing.js';
import { modelList, type ModelGroup } from './providers/models.js';
import { findPreset, PRESETS } from './providers/presets.js';
import type { ModelProvider } from './providers/types.js';
import { exportSession, type ExportFormat } from './export.js';
export { describeUsage, addTurnUsage, type TurnUsage } from './export.js';
import type { AgentEvent, AgentEventBody } from './types.js';
import { sessionTitle, type SessionHit, type SessionRow } from '../store/index.js';

export { ChatSession } from './session.js';
export { slashSkills } from './session-skills.js';
export { AttachmentError, type Attachment } from './attachments.js';
export type { AgentHost, SessionOptions, TurnResult } from './session.js';
export type * from './types.js';
export { RETRYABLE_ENDS } from './types.js';
export { ProviderError } from './providers/errors.js';
export { PRESETS, findPreset } from './providers/presets.js';
export { resolveProvider, readProvidersFile, writeProvidersFile, providersFilePath } from './providers/settings.js';
export type { KeyStore, ProviderChoice } from './providers/settings.js';
export type { ModelProvider, Usage } from './providers/types.js';
export type { ModelGroup } from './providers/models.js';
export { priceFor, costOf, formatCost } from './providers/pricing.js';
export type { SessionRow } from '../store/index.js';

export interface AgentOptions extends Omit<SessionOptions, 'provider'> {
  /** Which provider/model/base URL (and optionally key); default: providers.json's default, else a key in the env. */
  provider?: ProviderChoice;
  /** A ready provider (tests, custom transports) instead of resolving one. */
  providerInstance?: ModelProvider;
  /** Where keys come from besides the environment (the Electron app: safeStorage). */
  keyStore?: KeyStore;
  env?: NodeJS.ProcessEnv;
  /** Per-request timeout (default 120 s) and SDK retries (default 2). */
  timeoutMs?: number;
  maxRetries?: number;
  /** A reply with no bytes for this long ends as timed out (default: the `agent.stallSeconds` setting, 90 s; 0: never). */
  stallMs?: number;
  /** Never talk to a model, even when one is configured (the offline inspector). */
  offline?: boolean;
}

export class Agent {
  private constructor(
    readonly host: AgentHost,
    readonly provider: ModelProvider | undefined,
    readonly providerConfig: ProviderConfig | undefined,
    /** One line each, as words: a world-readable providers.json, a field that cannot be used. */
    readonly warnings: Said[],
    private readonly opts: AgentOptions,
    /** The provider's key, for a provider of another model (the picker) and its model list; never shown. */
    private readonly apiKey?: string,
  ) {}

  /** Resolve the provider (throws ProviderError with one clear line: unknown provider, missing key). */
  static create(host: AgentHost, opts: AgentOptions = {}): Agent {
    if (opts.providerInstance) return new Agent(host, opts.providerInstance, undefined, [], opts);
    if (opts.offline) return new Agent(host, undefined, undefined, [], opts);
    const r = resolveProvider(opts.provider ?? {}, {
      dataDir: host.paths.dataDir,
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.keyStore ? { keyStore: opts.keyStore } : {}),
    });
    const provider = r.config
      ? createProvider(r.config, r.apiKey, {
          ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
          ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
          stallMs: opts.stallMs ?? (host.settings.agent?.stallSeconds ?? 90) * 1000,
        })
      : undefined;
    return new Agent(host, provider, r.config, r.warnings, opts, r.apiKey);
  }

  private providerOptions() {
    return {
      ...(this.opts.timeoutMs ? { timeoutMs: this.opts.timeoutMs } : {}),
      ...(this.opts.maxRetries !== undefined ? { maxRetries: this.opts.maxRetries } : {}),
      stallMs: this.opts.stallMs ?? (this.host.settings.agent?.stallSeconds ?? 90) * 1000,
    };
  }

  /**
   * The providers the picker offers, the one in use first: providers.json's default and its own providers, and every
   * preset whose key is at hand (key store, environment, providers.json). A local preset (no key needed) counts only
   * when providers.json names it.
   */
  configuredProviders(): string[] {
    if (!this.providerConfig) return this.provider ? [this.provider.id] : [];
    const { file, keysUsable } = readProvidersFile(this.host.paths.dataDir);
    const env = this.opts.env ?? process.env;
    const withKey = PRESETS.filter(
      (p) =>
        !p.keyOptional &&
        keySourceOf(p.id, {
          user: file.providers[p.id],
          preset: p,
          keysUsable,
          env,
          ...(this.opts.keyStore ? { keyStore: this.opts.keyStore } : {}),
        }).keySource !== 'none',
    ).map((p) => p.id);
    const named = [...(file.default ? [file.default] : []), ...Object.keys(file.providers)];
    return [...new Set([this.providerConfig.id, ...named, ...withKey])];
  }

  /**
   * Each configured provider's models (configuredProviders), asked of them all at once: its own list, else its
   * preset's. A provider that cannot be set up (no key, no model) is a group with no models and the reason.
   */
  async modelGroups(): Promise<ModelGroup[]> {
    return Promise.all(
      this.configuredProviders().map(async (id): Promise<ModelGroup> => {
        const label = findPreset(id)?.label ?? id;
        let resolved;
        try {
          resolved = this.resolveOther(id);
        } catch (e) {
          const why = e instanceof ProviderError ? { errorWords: e.words } : {};
          return { provider: id, label, models: [], source: 'preset', error: (e as Error).message, ...why };
        }
        if (!resolved.config) return { provider: id, label, models: [], source: 'preset' };
        return { provider: id, label, ...(await modelList(resolved.config, resolved.apiKey)) };
      }),
    );
  }

  /** A configured provider's settings and key: the one in use as it was resolved (options included), another afresh. */
  private resolveOther(id: string): { config?: ProviderConfig; apiKey?: string } {
    if (this.providerConfig?.id === id)
      return { config: this.providerConfig, ...(this.apiKey ? { apiKey: this.apiKey } : {}) };
    return resolveProvider(
      { provider: id },
      {
        dataDir: this.host.paths.dataDir,
        ...(this.opts.env ? { env: this.opts.env } : {}),
        ...(this.opts.keyStore ? { keyStore: this.opts.keyStore } : {}),
      },
    );
  }

  /**
   * The provider in use, or another configured one (`providerId`, with its own key and base URL), speaking to `model`,
   * with that model's price when known. Throws when there is no such provider to make one from.
   */
  providerFor(model: string, providerId?: string): { provider: ModelProvider; price: Price | undefined } {
    const id = providerId ?? this.providerConfig?.id ?? this.provider?.id;
    if (this.provider?.model === model && this.provider.id === id)
      return { provider: this.provider, price: this.price };
    if (!this.providerConfig) throw new Refusal(say('model.noProvider'));
    if (!id || !this.configuredProviders().includes(id))
      throw new Refusal(
        say('model.notConfigured', { id: String(id), configured: this.configuredProviders().join(', ') }),
      );
    const { config: base, apiKey } = this.resolveOther(id);
    if (!base) throw new Refusal(say('model.notSetUp', { id }));
    const price = priceFor(base.id, model, readProvidersFile(this.host.paths.dataDir).file.prices);
    const config = { ...base, model, ...(price ? { price } : {}) };
    if (!price) delete config.price;
    return { provider: createProvider(config, apiKey, this.providerOptions()), price };
  }

  /** True when no model is configured: sessions run as the offline inspector. */
  get offline(): boolean {
    return !this.provider;
  }

  private sessionOptions(): SessionOptions {
    const {
      provider: _p,
      providerInstance: _i,
      keyStore: _k,
      env: _e,
      timeoutMs: _t,
      maxRetries: _r,
      stallMs: _s,
      offline: _o,
      ...rest
    } = this.opts;
    return { ...rest, provider: this.provider, price: this.price };
  }

  /** The model's price per million tokens, when known (providers.json's prices over the built-in table). */
  get price() {
    if (this.opts.price !== undefined) return this.opts.price;
    if (this.providerConfig) return this.providerConfig.price;
    if (!this.provider) return undefined;
    return (this.priceCache ??= {
      v: priceFor(this.provider.id, this.provider.model, readProvidersFile(this.host.paths.dataDir).file.prices),
    }).v;
  }

  private priceCache: { v: ReturnType<typeof priceFor> } | undefined;

  newSession(opts: { planMode?: boolean } = {}): ChatSession {
    return ChatSession.create(this.host, { ...this.sessionOptions(), ...opts });
  }

  /**
   * Reopen a session by id (or a unique prefix of at least 4 characters), recovering it after a crash. A session whose
   * model was chosen in it (the picker) goes on with that model, when its provider is still configured; any other
   * follows the configured model.
   */
  openSession(id: string): ChatSession {
    const opts = this.sessionOptions();
    const sessions = requireStore(this.host).sessions;
    const chosen = sessions.chosenModel(id);
    const same = chosen && chosen.provider === this.provider?.id && chosen.model === this.provider?.model;
    if (chosen && this.provider && !same) {
      try {
        const { provider, price } = this.providerFor(chosen.model, chosen.provider ?? undefined);
        return ChatSession.open(this.host, id, { ...opts, provider, price });
      } catch {
        // The model cannot be spoken to any more (no such provider configured): the provider in use answers.
      }
    }
    const chat = ChatSession.open(this.host, id, opts);
    // Not chosen in the conversation: it follows the configured model, and its row says which one answers now.
    const row = chosen ? undefined : sessions.get(chat.id);
    if (row && this.provider && (row.provider !== this.provider.id || row.model !== this.provider.model))
      sessions.update(chat.id, { provider: this.provider.id, model: this.provider.model });
    return chat;
  }

  listSessions(opts: { allWorkspaces?: boolean; limit?: number } = {}): SessionRow[] {
    return listSessions(this.host, opts);
  }

  /** One session's row by its exact id (a lookup, where listSessions reads every session's). */
  sessionRow(id: string): SessionRow | undefined {
    return requireStore(this.host).sessions.get(id);
  }

  exportSession(id: string, format: ExportFormat): string {
    return exportSessionOf(this.host, id, format);
  }

  deleteSession(id: string): boolean {
    return deleteSession(this.host, id);
  }

  /** This workspace's sessions holding every word of `query` (title, messages, answers), best first. */
  searchSessions(query: string, opts: { allWorkspaces?: boolean; limit?: number } = {}): SessionHit[] {
    return searchSessions(this.host, query, opts);
  }

  renameSession(id: string, title: string): SessionRow {
    return renameSession(this.host, id, title);
  }
}

/** Find a session by id or unique prefix. */
export function findSession(host: AgentHost, id: string): SessionRow {
  return sessionNamed(requireStore(host), id);
}

export function listSessions(host: AgentHost, opts: { allWorkspaces?: boolean; limit?: number } = {}): SessionRow[] {
  return requireStore(host).sessions.list({
    ...(opts.allWorkspaces ? {} : { workspace: host.workspace }),
    ...(opts.limit ? { limit: opts.limit } : {}),
  });
}

export function sessionEvents(host: AgentHost, id: string): AgentEvent[] {
  const row = findSession(host, id);
  return requireStore(host)
    .sessions.events(row.id)
    .map((e) => ({ ...(e.data as AgentEventBody), seq: e.seq, at: e.at, sessionId: row.id }));
}

/** The session's cost in USD so far, from its last usage event; undefined when a call could not be priced or none was made. */
export function sessionCost(host: AgentHost, id: string): number | undefined {
  const last = requireStore(host).sessions.lastOfType(id, 'usage')?.data.totalCost;
  return typeof last === 'number' && Number.isFinite(last) ? last : undefined;
}

export function exportSessionOf(host: AgentHost, id: string, format: ExportFormat): string {
  const row = findSession(host, id);
  return exportSession(row, sessionEvents(host, row.id), format);
}

export function searchSessions(
  host: AgentHost,
  query: string,
  opts: { allWorkspaces?: boolean; limit?: number } = {},
): SessionHit[] {
  return requireStore(host).sessions.search(query, {
    ...(opts.allWorkspaces ? {} : { workspace: host.workspace }),
    ...(opts.limit ? { limit: opts.limit } : {}),
  });
}

/** Give a session a title of the user's (one line, at most 80 characters); an empty one is refused. */
export function renameSession(host: AgentHost, id: string, title: string): SessionRow {
  const row = findSession(host, id);
  const clean = sessionTitle(title);
  if (!clean) throw new Refusal(say('sessions.emptyTitle'));
  requireStore(host).sessions.update(row.id, { title: clean });
  return requireStore(host).sessions.get(row.id)!;
}

export function deleteSession(host: AgentHost, id: string): boolean {
  const row = findSession(host, id);
  return requireStore(host).sessions.delete(row.id);
}

export { keySourceOf } from './providers/settings.js';
export { checkConnection } from './providers/check.js';

export {
  type AgentEvent,
  type ContextSections,
  type PendingApproval,
  type ProjectionEntry,
  type TurnEndReason,
} from './types.js';
export { draftSkill, NoStepsError, lastTaskCalls, leastPermissions } from './skill-draft.js';
