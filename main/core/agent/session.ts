// A chat session: match → auto-load → assemble → stream → tool calls through the one pipeline and the gate →
// observations → repeat; approvals pause the turn; every event is committed to SQLite before it is shown.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Settings } from '../config/index.js';
import type { KnackPaths } from '../config/index.js';
import type { SessionRow, Store } from '../store/index.js';
import type { SpentRow } from '../store/index.js';
import type { Catalog } from '../skills/catalog/index.js';
import { english, Refusal, say, type Said, type WordCode } from '../base/index.js';
import type { SkillMatcher } from '../skills/use/index.js';
import type { WorkspaceSession } from '../skills/use/index.js';
import type { Gate } from '../policy/index.js';
import { decisionFields } from '../policy/index.js';
import { TOOL } from '../policy/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { ToolSearchIndex } from '../tools/index.js';
import type { Approver, ExecutorOptions } from '../tools/index.js';
import type { ToolResult } from '../tools/index.js';
import type { ModelProvider, StreamEvent, ToolCallPart, Usage } from './providers/types.js';
import { costOf, type Price } from './providers/pricing.js';
import { ProviderError, redact, redactWords } from './providers/errors.js';
import { unresolvedCalls, type SessionState } from './state.js';
import type { AssembledPrompt } from './prompt.js';
import { FolderInstructions, SessionPrompt } from './session-prompt.js';
import { Branches, type Versions } from './session-branches.js';
import { planModeGate } from './session-tools.js';
import { checkAttachments, type Attachment } from './attachments.js';
import { Approvals } from './session-approvals.js';
import { compactionBoundary, summarize } from './compaction.js';
import { SessionLog } from './session-log.js';
import { SessionSkills } from './session-skills.js';
import { recoverSession } from './session-recover.js';
import type {
  AgentEvent,
  AgentEventBody,
  AgentListener,
  ApprovalAnswer,
  ContextSections,
  PendingApproval,
  ProjectionEntry,
  SkillLoadReason,
  TurnEndReason,
} from './types.js';
import { RETRYABLE_ENDS } from './types.js';

/** What the agent needs of an open workspace (KnackWorkspace provides it). */
export interface AgentHost {
  readonly workspace: string;
  readonly settings: Settings;
  readonly store: Store | undefined;
  readonly catalog: Catalog;
  readonly gate: Gate;
  readonly paths: KnackPaths;
  matcher(): SkillMatcher;
  /** The workspace's tools (registry with deferral, the deferred-tool index). */
  toolbox(): Promise<{ registry: ToolRegistry; index: ToolSearchIndex }>;
  /**
   * A conversation over the workspace (KnackWorkspace.newSession): its own skill loader (what the gate sees as the
   * model's active skills), discovered tools, and one executor whose "always" answers go to the workspace's rule store.
   */
  newSession(opts: {
    approver?: Approver;
    onDecision?: ExecutorOptions['onDecision'];
    gate?: Gate;
  }): Promise<WorkspaceSession>;
}

export interface SessionOptions {
  /** No provider: the offline inspector (matching, loading and prompt assembly without a model). */
  provider?: ModelProvider | undefined;
  /** The model's price (providers/pricing.ts): usage events carry a cost only when it is known. */
  price?: Price | undefined;
  /** Model calls per user turn before the turn stops (default 25). */
  maxSteps?: number;
  /** Reply budget per model call (default 8192). */
  maxTokens?: number;
  /** Compact old turns when the prompt passes this share of the context window (default 0.8). */
  compactAt?: number;
  /** Answer every `ask` with allow-once (`--yes`); `deny` stays deny. */
  autoApprove?: boolean;
  /** Longest tool result passed back to the model, in characters (default 30000). */
  maxResultChars?: number;
  /** Most skills auto-loaded from one message (default 3). */
  maxAutoLoad?: number;
  /** A finished task with at least this many tool calls is offered as a new skill (default 3). */
  offerSkillAfter?: number;
}

export interface TurnResult {
  reason: TurnEndReason;
  /** The final assistant text of the turn. */
  text: string;
  steps: number;
  toolCalls: number;
  /** `unsent`: the user's message, when the turn failed before it could be stored (see the `error` event): give it back. */
  error?: { kind: string; message: string; words?: Said; unsent?: string };
}

const META_TOOLS = new Set<string>([
  TOOL.Skill,
  TOOL.SkillSearch,
  TOOL.ToolSearch,
  TOOL.list_skills,
  TOOL.read_skill_resource,
]);
const key = (n: string): string => n.normalize('NFKC').toLowerCase();

/** How a turn that cannot be retried ended, in words (retry.ended). */
const ENDED = {
  end_turn: 'retry.how.end_turn',
  max_steps: 'retry.how.max_steps',
  max_tokens: 'retry.how.max_tokens',
  cancelled: 'retry.how.cancelled',
  offline: 'retry.how.offline',
} as const satisfies Partial<Record<TurnEndReason, WordCode>>;

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export class ChatSession {
  private readonly log: SessionLog;
  private readonly state: SessionState;
  private readonly skills: SessionSkills;
  private readonly prompt: SessionPrompt;
  private readonly folderInstructions: FolderInstructions;
  private readonly branches: Branches;
  private readonly approvals: Approvals;
  private tools: Promise<WorkspaceSession> | undefined;
  private workspaceSession: WorkspaceSession | undefined;
  private abort: AbortController | undefined;
  private nextAbort: AbortController | undefined = freshAbort();
  private running: Promise<TurnResult> | undefined;
  private currentCall: ToolCallPart | undefined;
  private turn = { steps: 0, toolCalls: 0, tools: [] as string[] };
  private closed = false;

  private constructor(
    private readonly host: AgentHost,
    private readonly store: Store,
    readonly id: string,
    private opts: SessionOptions,
  ) {
    this.log = new SessionLog(store, id, () => this.abort?.abort());
    this.state = this.log.state;
    this.skills = new SessionSkills({
      catalog: host.catalog,
      state: this.state,
      matcher: () => host.matcher(),
      workspaceSession: () => this.workspaceSession,
      maxAutoLoad: () => this.opts.maxAutoLoad ?? 3,
      record: (body) => this.record(body),
    });
    this.prompt = new SessionPrompt({
      workspace: host.workspace,
      catalog: host.catalog,
      settings: host.settings,
      state: this.state,
      contextWindow: () => this.opts.provider?.contextWindow ?? host.settings.catalog.contextWindow,
      vision: () => (this.opts.provider ? this.opts.provider.vision === true : true),
      loadedBodies: () => this.skills.loadedBodies(),
      gate: host.gate,
    });
    this.folderInstructions = new FolderInstructions(
      host.workspace,
      host.gate,
      () => host.settings.agent.projectInstructions,
    );
    this.branches = new Branches(store, id, () => this.events());
    this.approvals = new Approvals({
      workspace: host.workspace,
      networkAllowed: () => host.settings.policy.ceiling.network,
      autoApprove: () => this.opts.autoApprove === true,
      activeSkills: () => [...this.state.loaded.values()].map((s) => s.name),
      record: (body) => this.record(body),
    });
  }

  /** Start a new session (recorded in the store). */
  static create(host: AgentHost, opts: SessionOptions & { planMode?: boolean } = {}): ChatSession {
    const store = requireStore(host);
    const id = randomUUID();
    store.sessions.create({
      id,
      workspace: host.workspace,
      provider: opts.provider?.id ?? null,
      model: opts.provider?.model ?? null,
    });
    const s = new ChatSession(host, store, id, opts);
    s.record({
      type: 'session_started',
      workspace: host.workspace,
      provider: opts.provider?.id ?? null,
      model: opts.provider?.model ?? null,
      offline: !opts.provider,
    });
    if (opts.planMode) s.record({ type: 'plan_mode', on: true });
    s.openToolsEarly();
    return s;
  }

  /**
   * Reopen a session (after a restart or a crash): replay its events, reload its skills, keep a half-streamed
   * answer marked interrupted, close tool calls that were cut off, and ask pending approvals again.
   */
  static open(host: AgentHost, id: string, opts: SessionOptions = {}): ChatSession {
    const store = requireStore(host);
    const row = sessionNamed(store, id);
    const s = new ChatSession(host, store, row.id, opts);
    s.log.replay();
    s.recover();
    // Its tool session (the user's MCP servers among it) is not opened here: a chat reopened to be read or exported
    // never starts them. A turn opens it (send, an answer that resumes one), or ready() when the user starts typing.
    return s;
  }

  // ---- reading ----

  /** Subscribe to events (already committed when delivered). Returns the unsubscribe function. */
  on(listener: AgentListener): () => void {
    return this.log.on(listener);
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get provider(): ModelProvider | undefined {
    return this.opts.provider;
  }

  /**
   * Talk to another model (or provider) from the next turn on, with its price (no price: the session's cost becomes
   * unknown from its next call, never a guess). Recorded in the session's row, so a reopened session goes on with it;
   * each reply's assistant_start names the model that gave it. Refused while a turn runs.
   */
  useProvider(provider: ModelProvider, price: Price | undefined): void {
    if (this.busy) throw new Refusal(say('model.busy'));
    this.opts = { ...this.opts, provider, price };
    this.store.sessions.update(this.id, { provider: provider.id, model: provider.model, chosen: true });
  }

  get planMode(): boolean {
    return this.state.planMode;
  }

  get title(): string {
    return this.state.title;
  }

  /** Every stored event of this session, in order. */
  events(): AgentEvent[] {
    return this.store.sessions
      .events(this.id)
      .map((e) => ({ ...(e.data as AgentEventBody), seq: e.seq, at: e.at, sessionId: this.id }));
  }

  messages(): SessionState['messages'] {
    return this.state.messages;
  }

  loadedSkills(): {
    name: string;
    tier: string;
    reason: SkillLoadReason;
    why: string;
    words?: Said;
    tokens: number;
    version: string;
  }[] {
    return [...this.state.loaded.values()].map((s) => ({ ...s }));
  }

  pendingApprovals(): PendingApproval[] {
    return [...this.state.pending.values()];
  }

  usage(): Usage {
    return { ...this.state.usage };
  }

  /** What the session has cost so far in USD; undefined when the model's price is unknown. */
  cost(): number | undefined {
    return this.state.cost;
  }

  /**
   * Once the conversation has branched (an edit, a regenerated answer): the tokens and cost of every model call it
   * made, on every branch — usage() and cost() count the branch on screen only. Undefined before it branches.
   */
  spentAllBranches(): SpentRow | undefined {
    if (this.store.sessions.branches(this.id).length === 0) return undefined;
    return this.store.sessions.usageAllBranches(this.id);
  }

  /** Token counts per section of the next prompt. */
  async contextSections(): Promise<ContextSections> {
    return (await this.assemble()).sections;
  }

  /** What is in the model's context and why: catalog, loaded skills (with their reason), read resources, tools, compactions. */
  async projection(): Promise<ProjectionEntry[]> {
    return this.prompt.projection(await this.toolsReady());
  }

  // ---- acting ----

  /**
   * Check files for this conversation's model before a message carries them (attachments.ts checkAttachments): an
   * image for a model that does not read images, a binary file or files too large for the context throw an
   * AttachmentError naming the file; nothing is stored.
   */
  checkFiles(files: readonly Attachment[]): Attachment[] {
    const p = this.opts.provider;
    return checkAttachments(
      files,
      p ? { model: p.model, contextWindow: p.contextWindow, vision: p.vision === true } : undefined,
    );
  }

  /**
   * Send a user message, with files (checkFiles), and run the turn to its end (the events stream to listeners
   * meanwhile). The files are stored with the message and go to the model with it on every later request.
   */
  send(text: string, files: readonly Attachment[] = []): Promise<TurnResult> {
    if (this.closed) return Promise.reject(new Refusal(say('turn.closed')));
    if (this.running) return Promise.reject(new Refusal(say('turn.running')));
    if (!text.trim()) return Promise.reject(new Refusal(say('turn.emptyMessage')));
    let attachments: Attachment[];
    try {
      attachments = files.length ? this.checkFiles(files) : [];
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return this.runTurn(async (signal) => {
      // Approvals left from before a restart are dropped when the user moves on; their calls get a result first,
      // so the conversation the model reads stays valid (every tool call answered).
      if (this.state.pending.size)
        for (const p of [...this.state.pending.values()])
          this.record({
            type: 'approval_answered',
            approvalId: p.approvalId,
            answer: 'deny',
            message: 'the user sent a new message instead',
          });
      this.approvals.dropPreAnswered();
      this.closeUnresolved('not run: the user sent a new message instead');
      this.log.hold(!this.workspaceSession);
      this.record(attachments.length ? { type: 'user_message', text, attachments } : { type: 'user_message', text });
      if (!this.workspaceSession) await this.toolsReady(); // open (the usual case): no wait at all
      // The message was committed by the hold timer while the tools opened: if that commit failed, the turn ends here.
      this.log.throwReleaseFailure();
      this.skills.autoLoad(text);
      if (!this.opts.provider) {
        this.record({ type: 'context', sections: (await this.assemble()).sections });
        return 'offline';
      }
      return this.loop(signal);
    });
  }

  /**
   * Take up the last turn again after it ended interrupted (the connection lost, or Knack killed), failed or timed out:
   * its cut-off answer stays in the log (a `retry` event marks where), the model is sent the conversation up to the
   * turn's last complete message, and the turn runs from there as any turn does.
   */
  retry(): Promise<TurnResult> {
    const why = this.cannotRetry();
    if (why) return Promise.reject(new Refusal(why));
    const after = this.state.lastEnd!;
    return this.runTurn(async (signal) => {
      this.record({ type: 'retry', after });
      if (!this.workspaceSession) await this.toolsReady();
      return this.loop(signal);
    });
  }

  /** Why retry() would refuse now, in words (undefined: it can run). */
  cannotRetry(): Said | undefined {
    if (this.closed) return say('turn.closed');
    if (this.running) return say('turn.running');
    const after = this.state.lastEnd;
    if (!after) return say('retry.noEnded');
    if (!RETRYABLE_ENDS.includes(after)) return say('retry.ended', { how: say(ENDED[after as keyof typeof ENDED]) });
    if (!this.opts.provider) return say('retry.noModel');
    const last = this.state.messages.at(-1);
    if (!last || (last.role === 'assistant' && !last.interrupted)) return say('retry.complete');
    return undefined;
  }

  /** Cancel the running turn: the model stream, a pending approval and a running tool all stop; the turn ends cleanly. */
  stop(): void {
    this.abort?.abort();
    this.approvals.denyWaiting();
  }

  /**
   * Commit a turn's held start now, for a reader of the log (the conversation reopened in another view while its
   * request is on its way). A failure ends the turn with its error and the message given back, as in flight.
   */
  commitHeldStart(): void {
    this.log.commitHeldStart();
  }

  /** Wait for the running turn (if any). */
  async idle(): Promise<TurnResult | undefined> {
    return this.running;
  }

  /**
   * Answer an approval: `once` runs the call, `always` also stores the reusable rule shown in `alwaysPreview`,
   * `deny` refuses it (the optional message goes back to the model). False when the id is not pending.
   */
  answer(approvalId: string, answer: ApprovalAnswer): boolean {
    const pending = this.state.pending.get(approvalId);
    if (!pending) return false;
    // Asked before a restart: the call runs (or is refused) when the turn resumes.
    if (!this.approvals.answer(pending, answer) && this.state.pending.size === 0 && !this.running)
      void this.runTurn((signal) => this.loop(signal));
    return true;
  }

  setPlanMode(on: boolean): void {
    if (on !== this.state.planMode) this.record({ type: 'plan_mode', on });
  }

  /** Load a skill by hand (`/load NAME`), with its dependencies. */
  async loadSkill(name: string): Promise<{ ok: true; loaded: string[] } | { ok: false; message: string }> {
    await this.toolsReady();
    const r = this.skills.load(name, 'user', say('loadUser'));
    return r.ok ? { ok: true, loaded: r.loaded } : { ok: false, message: r.message };
  }

  async unloadSkill(name: string): Promise<boolean> {
    const ws = await this.toolsReady();
    const s = this.state.loaded.get(key(name));
    if (!s) return false;
    this.skills.bodies.delete(key(name));
    ws.loader.unload(s.name);
    this.record({ type: 'skill_unloaded', name: s.name, reason: 'unloaded by the user' });
    return true;
  }

  /**
   * Run a tool as the user (the inspector's `/run`, a UI action) through the same pipeline and gate; an `ask`
   * becomes an approval request like the model's. Not part of the conversation.
   */
  async runTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const tools = await this.toolsReady();
    this.currentCall = { id: `user-${randomUUID().slice(0, 8)}`, name, arguments: JSON.stringify(args) };
    try {
      return await tools.tools.call(name, args, { workspace: this.host.workspace, actor: { kind: 'user' } });
    } finally {
      this.currentCall = undefined;
    }
  }

  /** The tools in the next prompt and the deferred ones reachable through ToolSearch. */
  async toolList(): Promise<{ visible: { name: string; summary: string; discovered: boolean }[]; deferred: string[] }> {
    const tools = await this.toolsReady();
    return {
      visible: tools.tools.visibleTools().map((t) => ({
        name: t.def.name,
        summary: t.def.summary,
        discovered: this.state.discovered.includes(t.def.name),
      })),
      deferred: tools.tools.hiddenTools().map((t) => t.def.name),
    };
  }

  /**
   * Open the conversation's tools and resolve once they are open; rejects with the reason they could not be opened.
   * A new chat starts opening them when it is created; a reopened one only when it is used — call this when the user
   * starts typing in it. Sending does not need it: a turn waits for the tools itself.
   */
  async ready(): Promise<void> {
    await this.toolsReady();
  }

  async close(): Promise<void> {
    this.stop();
    await this.running?.catch(() => undefined);
    this.log.flushText();
    this.closed = true;
  }

  // ---- the loop ----

  private async runTurn(body: (signal: AbortSignal) => Promise<TurnEndReason>): Promise<TurnResult> {
    // A fresh controller each turn, made ready when the last turn ended (its signal costs a few µs to make).
    const ac = (this.abort = this.nextAbort ?? freshAbort());
    this.nextAbort = undefined;
    this.turn = { steps: 0, toolCalls: 0, tools: [] };
    // Nothing of an earlier turn's failure carries over (its message was given back with that turn's error).
    this.log.unsent = undefined;
    this.log.releaseFailure = undefined;
    const run = (async (): Promise<TurnResult> => {
      let reason: TurnEndReason;
      let error: TurnResult['error'];
      try {
        reason = await body(ac.signal);
        // A start still held (a turn with no model, or stopped while the tools opened) is committed here, where a
        // failure ends the turn like any other: with its error and the user's message given back.
        this.log.release();
      } catch (caught) {
        try {
          this.log.release();
        } catch (e) {
          // The turn's start could not be stored now either: the turn ends with that error (its message given back).
          this.log.releaseFailure ??= e;
        }
        // A failed commit of the turn's start aborted the request (releaseInFlight): the turn ends with that error,
        // not as cancelled by the abort it caused.
        const commitFailed = this.log.releaseFailure !== undefined;
        const e = commitFailed ? this.log.releaseFailure : caught;
        this.log.releaseFailure = undefined;
        const kind = e instanceof ProviderError ? e.kind : 'internal';
        const message = redact(e instanceof Error ? e.message.split('\n')[0]! : String(e));
        const words = e instanceof ProviderError ? { words: redactWords(e.words) } : {};
        const unsent = this.log.unsent;
        this.log.unsent = undefined;
        try {
          this.log.flushText();
          if (this.state.streaming)
            this.record({
              type: 'assistant_end',
              stopReason: kind === 'cancelled' || kind === 'interrupted' || kind === 'timeout' ? kind : 'error',
              interrupted: true,
            });
          if (kind !== 'cancelled' || unsent !== undefined) {
            error = { kind, message, ...words, ...(unsent !== undefined ? { unsent } : {}) };
            this.record({ type: 'error', kind, message, ...words, ...(unsent !== undefined ? { unsent } : {}) });
          }
        } catch (e) {
          // The store cannot take the error either: send() rejects with that, the user's message still given back.
          throw unsent !== undefined && e instanceof Error ? Object.assign(e, { unsent }) : e;
        }
        reason =
          kind === 'cancelled' || (ac.signal.aborted && !commitFailed)
            ? 'cancelled'
            : kind === 'interrupted' || kind === 'timeout'
              ? kind
              : 'error';
      }
      try {
        // Nothing is held here: the try above released the turn's start, or the catch did (or failed to, and said so).
        if (ac.signal.aborted && reason !== 'error') reason = 'cancelled';
        this.closeUnresolved(
          reason === 'cancelled' ? 'cancelled by the user before it ran' : 'not run: the turn ended first',
        );
        this.record({ type: 'turn_end', reason, steps: this.turn.steps, toolCalls: this.turn.toolCalls });
        const offer = this.opts.offerSkillAfter ?? 3;
        const real = this.turn.tools.filter((t) => !META_TOOLS.has(t));
        if (reason === 'end_turn' && real.length >= offer)
          this.record({ type: 'skill_offer', toolCalls: real.length, tools: [...new Set(real)] });
        // The turn's answer comes from one of its own model calls: a turn that made none never passes off an earlier reply.
        const last = this.turn.steps > 0 ? this.state.messages.at(-1) : undefined;
        return {
          reason,
          text: last?.role === 'assistant' ? last.text : '',
          steps: this.turn.steps,
          toolCalls: this.turn.toolCalls,
          ...(error ? { error } : {}),
        };
      } catch (e) {
        // Whatever fails after the turn's error was shown (storing the turn's end, say) still gives the message back.
        throw error?.unsent !== undefined && e instanceof Error ? Object.assign(e, { unsent: error.unsent }) : e;
      }
    })();
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
      this.abort = undefined;
      this.nextAbort = freshAbort();
    }
  }

  private async loop(signal: AbortSignal): Promise<TurnEndReason> {
    const maxSteps = this.opts.maxSteps ?? 25;
    for (;;) {
      if (signal.aborted) return 'cancelled';
      const open = unresolvedCalls(this.state);
      if (open.length) {
        for (const c of open) {
          if (signal.aborted) return 'cancelled';
          await this.execute(c, signal);
        }
        continue;
      }
      const last = this.state.messages.at(-1);
      if (last?.role === 'assistant') return last.interrupted ? 'interrupted' : 'end_turn';
      if (this.turn.steps >= maxSteps) return 'max_steps';
      this.turn.steps++;
      const stop = await this.modelStep(this.turn.steps, signal);
      if (stop === 'max_tokens' && unresolvedCalls(this.state).length === 0) return 'max_tokens';
    }
  }

  private async modelStep(step: number, signal: AbortSignal): Promise<string> {
    const provider = this.opts.provider!;
    // With the tools open (the usual turn) the prompt is assembled without waiting on anything.
    let prompt = this.workspaceSession ? this.prompt.assemble(this.workspaceSession) : await this.assemble();
    if (this.nearWindow(prompt) && (await this.compact(prompt, signal))) prompt = await this.assemble();
    // The context's token counts are not part of the request, nor of the reply: a held turn start records them right
    // after it is shown (with the model's first event, that is once the first text is on screen).
    this.log.context(prompt.sections);
    this.record({ type: 'assistant_start', step, provider: provider.id, model: provider.model });
    this.log.replyStarts();
    // The request goes out first. The held start of the turn (the user's message, auto-loaded skills, this reply's
    // start) is committed in one transaction, and only then shown: together with the model's first event when that
    // comes within IN_FLIGHT_MS (session-log.ts) of the request (a local server: one commit before the first token instead of two), or
    // else while the request is in flight, when that window ends (a remote provider: the commit costs the first token
    // nothing). No event is shown before it is committed, and no model output before the turn's start. One timer, and
    // nothing else of Knack's runs between the request and the reply (a local server's work shares this thread).
    this.log.startInFlight();
    this.stepStop = 'end_turn';
    try {
      // Each event comes straight from the SDK's stream (no async layer between it and the loop).
      await provider.run(
        {
          system: prompt.request.system,
          tools: prompt.request.tools,
          messages: prompt.request.messages,
          maxTokens: this.opts.maxTokens ?? 8192,
          signal,
        },
        this.onModelEvent,
      );
    } finally {
      this.log.clearInFlight();
    }
    const stop = this.stepStop;
    this.log.releaseBeforeOutput(); // a stream that ended without an event
    this.log.flushText();
    this.record({ type: 'assistant_end', stopReason: stop });
    return stop === 'max_tokens' || stop === 'length' ? 'max_tokens' : stop;
  }

  /** The stop reason of the model call in progress (set by its `stop` event). */
  private stepStop = 'end_turn';
  /** One event of the model's stream, straight from the SDK's loop (one handler per session, not a closure per call). */
  private readonly onModelEvent = (ev: StreamEvent): void => {
    this.log.throwReleaseFailure();
    if (this.log.holding) {
      this.handle(ev); // held too: committed with the turn's start, shown after it
      this.log.release();
    } else this.handle(ev);
    if (ev.type === 'stop') this.stepStop = ev.raw;
  };

  /** One event of the model's stream, committed and shown. */
  private handle(ev: StreamEvent): void {
    switch (ev.type) {
      case 'text':
        this.log.textDelta(ev.text);
        break;
      case 'tool_call_start':
        this.record({ type: 'tool_call_started', callId: ev.id, name: ev.name });
        break;
      case 'tool_call': {
        let args: unknown;
        try {
          args = JSON.parse(ev.call.arguments || '{}');
        } catch {
          args = undefined;
        }
        this.record({
          type: 'tool_call',
          callId: ev.call.id,
          name: ev.call.name,
          arguments: ev.call.arguments,
          ...(args !== undefined ? { args } : {}),
        });
        break;
      }
      case 'usage':
        {
          const cost = costOf(ev.usage, this.opts.price);
          const totalCost = cost !== undefined && this.state.cost !== undefined ? this.state.cost + cost : undefined;
          this.record({
            type: 'usage',
            usage: ev.usage,
            total: addUsage(this.state.usage, ev.usage),
            ...(cost !== undefined ? { cost } : {}),
            ...(totalCost !== undefined ? { totalCost } : {}),
          });
        }
        break;
      case 'retry':
        this.record({ type: 'model_retry', attempt: ev.attempt, of: ev.of });
        break;
      case 'stop':
        break;
    }
  }

  private async execute(call: ToolCallPart, signal: AbortSignal): Promise<void> {
    const t0 = performance.now();
    this.approvals.waitMs = 0;
    let args: unknown;
    try {
      args = JSON.parse(call.arguments || '{}');
    } catch (e) {
      this.recordResult(
        call,
        {
          ok: false,
          error: {
            code: 'tool.invalid_json',
            message: `the arguments for ${call.name} are not valid JSON (${(e as Error).message}); send a JSON object`,
          },
        },
        t0,
      );
      return;
    }
    const tools = await this.toolsReady();
    const discoveredBefore = new Set(tools.tools.discoveredNames());
    const loadsBefore = tools.loader.projection().length;
    this.currentCall = call;
    this.approvals.denyMessage = undefined;
    let result: ToolResult;
    try {
      // The Skill tool is answered here for a name the catalog does not have: its schema's enum of every skill
      // would otherwise come back as the error (thousands of names with a large catalog).
      const skillName =
        call.name === TOOL.Skill && args && typeof args === 'object' ? (args as { name?: unknown }).name : undefined;
      const entry = typeof skillName === 'string' ? this.host.catalog.get(skillName) : undefined;
      if (call.name === TOOL.Skill && (!entry || !entry.enabled)) {
        result = {
          ok: false,
          error: {
            code: entry ? 'skill.disabled' : 'skill.not_found',
            message: entry
              ? `skill "${entry.manifest.name}" is disabled in this workspace`
              : `no skill named "${String(skillName ?? '')}": find skills with SkillSearch`,
          },
        };
      } else {
        // The model acts as the workspace session's actor: the skills this conversation has loaded, as the gate sees them.
        const callArgs = entry ? { ...(args as object), name: entry.manifest.name } : args; // the catalog's spelling
        // A process group the call starts is stored with it before the command gets far: after a crash, recovery ends
        // what is left of it.
        result = await tools.call(call.name, callArgs, signal, (g) =>
          this.record({ type: 'tool_process', callId: call.id, ...g }),
        );
      }
    } finally {
      this.currentCall = undefined;
    }
    if (tools.loader.projection().length > loadsBefore) result = this.skills.modelLoaded(tools, loadsBefore, result);
    const folder = result.ok ? this.folderInstructions.after(call.name, args) : '';
    const denyMessage = this.approvals.denyMessage;
    if (!result.ok && result.error.code === 'tool.declined' && denyMessage) {
      const said = say('tool.declinedSays', { refusal: result.said ?? result.error.message, message: denyMessage });
      result = { ok: false, error: { ...result.error, message: english(said) }, said };
    }
    this.turn.toolCalls++;
    if (result.ok)
      this.turn.tools.push(
        call.name === TOOL.DeferExecuteTool && args && typeof args === 'object'
          ? String((args as { name?: unknown }).name)
          : call.name,
      );
    const found = tools.tools.discoveredNames().filter((n) => !discoveredBefore.has(n));
    if (found.length) this.record({ type: 'tools_discovered', names: found, via: call.name });
    if (result.ok && call.name === TOOL.read_skill_resource) {
      const c = result.content as { skill?: string; path?: string; tokens?: number };
      if (c.skill && c.path)
        this.record({ type: 'resource_read', skill: c.skill, path: c.path, tokens: c.tokens ?? 0 });
    }
    this.recordResult(call, result, t0, folder);
  }

  /** `after`: a subfolder's instructions, on lines of their own after the result (see FolderInstructions). */
  private recordResult(call: ToolCallPart, result: ToolResult, t0: number, after = ''): void {
    const max = this.opts.maxResultChars ?? 30_000;
    let content = JSON.stringify(result.ok ? result.content : { error: result.error }) ?? 'null';
    if (content.length > max) content = `${content.slice(0, max)}… [${content.length - max} more characters cut]`;
    if (after) content = `${content}\n${after}`;
    this.record({
      type: 'tool_result',
      callId: call.id,
      name: call.name,
      ok: result.ok,
      content,
      ...(result.ok ? {} : { code: result.error.code }),
      ...(!result.ok && result.said ? { words: result.said } : {}),
      durationMs: Math.max(0, Math.round(performance.now() - t0 - this.approvals.waitMs)),
    });
  }

  /** Tool calls left without a result (a cancelled or failed turn) get one, so the conversation stays valid. */
  private closeUnresolved(why: string): void {
    for (const c of unresolvedCalls(this.state)) {
      if ([...this.state.pending.values()].some((p) => p.callId === c.id)) continue;
      this.approvals.waitMs = 0;
      this.recordResult(c, { ok: false, error: { code: 'tool.not_run', message: why } }, performance.now());
    }
  }

  // ---- skills ----

  // ---- prompt, compaction ----

  /**
   * Start opening a new conversation's tool session now, in the background, as a user opens a new chat and then types
   * (as Claude Code readies its tools when a session starts): the first turn then finds it open. A failure is not lost
   * and never an unhandled rejection: the next use (the first turn, /tools) tries again and reports it.
   */
  private openToolsEarly(): void {
    this.toolsReady().catch(() => undefined);
  }

  /** The workspace session this chat runs on (a new chat starts opening it at creation, see openToolsEarly; it needs the tool box). */
  private toolsReady(): Promise<WorkspaceSession> {
    if (this.tools) return this.tools;
    this.tools = (async () => {
      const box = await this.host.toolbox();
      const ws = await this.host.newSession({
        // Plan mode is a read-only ceiling over the workspace gate.
        gate: planModeGate(this.host.gate, box.registry, () => this.state.planMode),
        approver: async (req) => {
          const a = await this.approvals.ask(req, this.currentCall?.id ?? '');
          return a.only ? { answer: a.kind, only: a.only } : a.kind;
        },
        onDecision: (call, d) => {
          if (d.verdict !== 'ask')
            this.record({
              type: 'gate_decision',
              callId: this.currentCall?.id ?? '',
              tool: call.tool,
              verdict: d.verdict,
              reason: d.reason,
              ...decisionFields(d),
            });
        },
      });
      ws.tools.discover(this.state.discovered);
      const have = new Set(ws.loader.loadedSkills());
      for (const sk of this.state.loaded.values())
        if (!have.has(key(sk.name))) ws.loader.load(sk.name, sk.reason === 'model' ? 'model' : 'user');
      this.workspaceSession = ws;
      this.skills.opened();
      // The prompt's tool list, its token count, the prompt's other parts that do not depend on the conversation, the
      // provider's SDK and its shape of the list are made ready now, as the chat opens, not on its first turn (they are
      // kept while the tools, the catalog and the loaded skills do not change).
      this.prompt.assemble(ws);
      this.opts.provider?.prepare?.(this.prompt.tools(ws).visible);
      return ws;
    })();
    // A failed open is not kept: the next use opens again (and reports the error if it fails again).
    const opening = this.tools;
    opening.catch(() => {
      if (this.tools === opening) this.tools = undefined;
    });
    return opening;
  }

  private async assemble(): Promise<AssembledPrompt> {
    return this.prompt.assemble(await this.toolsReady());
  }

  /** The prompt plus the reply budget passes `compactAt` of the window (a bound that counts nothing new says no first). */
  private nearWindow(p: AssembledPrompt): boolean {
    const limit = (this.opts.compactAt ?? 0.8) * this.opts.provider!.contextWindow;
    const reply = this.opts.maxTokens ?? 8192;
    return p.totalAtMost + reply > limit && p.sections.total + reply > limit;
  }

  /** Summarise the messages before the current request (the prompt nears the window). False when there is nothing to compact. */
  private async compact(p: AssembledPrompt, signal: AbortSignal): Promise<boolean> {
    const cut = compactionBoundary(this.state.messages);
    if (cut <= 0) return false;
    this.log.release(); // the user's message is committed before any model call
    const summary = await summarize(this.opts.provider!, this.state.messages.slice(0, cut), signal);
    const before = p.sections.total;
    const old = this.prompt.messageTokens.total(this.state.messages.slice(0, cut));
    this.record({
      type: 'compaction',
      summary,
      compactedMessages: cut,
      tokensBefore: before,
      tokensAfter: before - old.history - old.observations,
    });
    return true;
  }

  // ---- recording ----

  /** Commit an event (SessionLog.record): stored, applied to the state, then shown. */
  private record(body: AgentEventBody): void {
    this.log.record(body);
  }

  // ---- branches ----

  /** Where each of the user's messages (by turn) has versions: edits of the message, and regenerated answers. */
  versions(): Versions[] {
    return this.branches.versions();
  }

  /** Why an edit, a regenerate or a switch would be refused now, in words (undefined: it can run). */
  private cannotBranch(): Said | undefined {
    if (this.closed) return say('turn.closed');
    if (this.running) return say('branch.running');
    return undefined;
  }

  /**
   * Edit the user's message `turn` (0: the first): the conversation branches there, the new text is sent as that
   * message with the edited message's files (those at the indexes in `keep`; all when it is absent) and `files` after
   * them, and answered; the old branch stays in the log, reachable with switchVersion. Throws at once, with nothing
   * changed, when it cannot (a turn running, no such message, a file refused); the promise is the turn's.
   */
  edit(turn: number, text: string, files: readonly Attachment[] = [], keep?: readonly number[]): Promise<TurnResult> {
    const why = this.cannotBranch() ?? (!text.trim() ? say('turn.emptyMessage') : undefined);
    if (why) throw new Refusal(why);
    const t = this.branches.turnAt(turn);
    const all = this.branches.editFiles(t, turn, files, keep);
    // Kept files are checked again too: the model may have changed since they were sent.
    const checked = all.length ? this.checkFiles(all) : [];
    this.branches.forkAt(t.user.seq);
    this.rebuild();
    return this.send(text, checked);
  }

  /**
   * Answer the user's message `turn` again: a new version of its answer, beside the old one (switchVersion). Throws
   * at once, with nothing changed, when it cannot; the promise is the turn's.
   */
  regenerate(turn: number): Promise<TurnResult> {
    const why = this.cannotBranch() ?? (!this.opts.provider ? say('branch.noModel') : undefined);
    if (why) throw new Refusal(why);
    const t = this.branches.turnAt(turn);
    if (t.answerAt === undefined) throw new Refusal(say('branch.noAnswerToRegenerate', { n: turn + 1 }));
    this.branches.forkAt(t.answerAt);
    this.rebuild();
    return this.runTurn(async (signal) => {
      if (!this.workspaceSession) await this.toolsReady();
      return this.loop(signal);
    });
  }

  /** Show version `index` (0-based) of the user's message `turn` or of its answer: the conversation goes on from there. */
  switchVersion(turn: number, which: 'message' | 'answer', index: number): void {
    const why = this.cannotBranch();
    if (why) throw new Refusal(why);
    this.branches.switchTo(turn, which, index);
    this.rebuild();
  }

  /**
   * Show event `seq` (a search hit found on any branch): the conversation goes on from a branch holding it, the one on
   * screen when it does. Throws, with nothing changed, for an event not in this conversation, or when the event is
   * on another branch and a turn is running (or `busy`, the caller's reason it cannot change branch now).
   */
  showEvent(seq: number, busy?: Said): void {
    if (this.branches.show(seq, this.cannotBranch() ?? busy)) this.rebuild();
  }

  /**
   * After a change of branch: the state is the new branch's, its skills are loaded again (and the ones only the old
   * branch had leave the tool session, so the gate sees this branch's active skills), its found tools are found.
   */
  private rebuild(): void {
    this.log.replay();
    this.skills.bodies.clear();
    const ws = this.workspaceSession;
    if (ws) for (const k of ws.loader.loadedSkills()) if (!this.state.loaded.has(k)) ws.loader.unload(k);
    this.skills.reloadAll();
    ws?.tools.discover(this.state.discovered);
  }

  private recover(): void {
    this.skills.reloadAll();
    recoverSession(
      this.state,
      (body) => this.record(body),
      (call, message) =>
        this.recordResult(call, { ok: false, error: { code: 'tool.interrupted', message } }, performance.now()),
    );
  }
}

/** An AbortController with its signal made (Node makes the signal on first access). */
function freshAbort(): AbortController {
  const ac = new AbortController();
  void ac.signal;
  return ac;
}

/** The host's store; a workspace opened without one (it could not be opened) refuses every conversation in words. */
export function requireStore(host: AgentHost): Store {
  if (!host.store) throw new Refusal(say('sessions.needStore'));
  return host.store;
}

/** The conversation `id` names: its exact id, or a unique prefix of at least 4 characters. */
export function sessionNamed(store: Store, id: string): SessionRow {
  const exact = store.sessions.get(id);
  if (exact) return exact;
  const rows = id.length >= 4 ? store.sessions.findByPrefix(id) : [];
  if (rows.length === 1) return rows[0]!;
  if (rows.length > 1)
    throw new Refusal(say('sessions.ambiguous', { id, matches: rows.map((r) => r.id.slice(0, 8)).join(', ') }));
  throw new Refusal(say('sessions.noSuch', { id }));
}
