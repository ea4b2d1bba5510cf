// A conversation's event log as it is written: every event committed to SQLite, applied to the conversation's state
// and only then shown; text deltas coalesced; a turn's start held until its request has gone out and committed in
// one transaction (see hold()). The state is the log's projection; the session reads it.
import { performance } from 'node:perf_hooks';
import type { Store } from '../store/index.js';
import type { AppendRow } from '../store/index.js';
import { applyEvent, emptyState, type SessionState } from './state.js';
import type { AgentEvent, AgentEventBody, AgentListener, ContextSections } from './types.js';

/**
 * How long a turn's start waits, from the moment its request is handed to the SDK (on the socket within about a
 * millisecond), to be committed with the model's first event (one commit for both) before it is committed on its own
 * while the request is in flight. Kept short: it is how long a `kill -9` can lose a message the provider has seen.
 */
const IN_FLIGHT_MS = 3;

/** An event of a turn's start held until the request has gone out (see hold()): a row as the store takes it. */
interface HeldEvent {
  type: string;
  data: AgentEventBody;
  at: number;
}

export class SessionLog {
  /** The conversation as its log on the current branch says (held events included). */
  readonly state: SessionState = emptyState();
  private readonly listeners = new Set<AgentListener>();
  private pendingText = '';
  private lastFlush = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Events held between the user's message and the request's dispatch: one commit for all, shown after it (see hold()). */
  private held: HeldEvent[] | undefined;
  /** The context of a held turn start, whose event (its token counts) is recorded once that start is shown. */
  private contextAfterStart: ContextSections | undefined;
  private heldTimer: NodeJS.Timeout | undefined;
  /** The in-flight window's end, while a turn's start is held: it is committed then without waiting for the model. */
  private inFlightTimer: NodeJS.Timeout | undefined;
  /** The in-flight commit of a turn's start failed: the turn ends with this error before any model output is shown. */
  releaseFailure: unknown;
  /** The user's message of a turn start whose commit failed: the turn's error gives it back (TurnResult, error event). */
  unsent: string | undefined;
  /** The branch of the conversation this session is on (its events are appended to it). */
  private branch = 0;

  /** `startLost`: the held start of a turn could not be committed while its request was in flight (abort the turn). */
  constructor(
    private readonly store: Store,
    private readonly id: string,
    private readonly startLost: () => void,
  ) {}

  /** Subscribe to events (already committed when delivered). Returns the unsubscribe function. */
  on(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A turn's start is being held (hold()). */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** A reply starts: its first text delta is committed and shown at once. */
  replyStarts(): void {
    this.lastFlush = -Infinity;
  }

  /** The context's token counts: recorded now, or, for a held turn start, right after that start is shown. */
  context(sections: ContextSections): void {
    if (this.held) this.contextAfterStart = sections;
    else this.record({ type: 'context', sections });
  }

  /** The request went out: a held turn start is committed when the in-flight window ends (IN_FLIGHT_MS). */
  startInFlight(): void {
    if (this.held) this.inFlightTimer = setTimeout(this.releaseInFlight, IN_FLIGHT_MS);
  }

  clearInFlight(): void {
    if (this.inFlightTimer) clearTimeout(this.inFlightTimer);
    this.inFlightTimer = undefined;
  }

  /**
   * Commit a turn's held start now, for a reader of the log. A failure ends the turn with its error and the message
   * given back, as in flight.
   */
  commitHeldStart(): void {
    if (this.held) this.releaseInFlight();
  }

  /** Deltas are coalesced (one event per 25 ms); the first of each reply is committed and shown at once. */
  textDelta(text: string): void {
    this.pendingText += text;
    const now = performance.now();
    if (now - this.lastFlush >= 25) this.flushText();
    else this.flushTimer ??= setTimeout(() => this.flushText(), 25);
  }

  flushText(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pendingText) return;
    const text = this.pendingText;
    this.pendingText = '';
    this.lastFlush = performance.now();
    this.commit({ type: 'text_delta', text });
  }

  /**
   * Commit an event to SQLite, apply it to the state, then show it to the listeners. (The session's title and
   * last-used time are read from its log: no event write updates the session's row.)
   */
  record(body: AgentEventBody): void {
    if (this.pendingText) this.flushText();
    this.commit(body);
  }

  private commit(body: AgentEventBody): void {
    const at = Date.now();
    if (this.held) {
      // Applied now (matching, loading and assembly read the state); committed and shown by release().
      applyEvent(this.state, body);
      this.held.push({ type: body.type, data: body, at });
      return;
    }
    const seq = this.store.sessions.append(this.id, body.type, body as unknown as Record<string, unknown>, {
      at,
      branch: this.branch,
    });
    applyEvent(this.state, body);
    this.show({ ...body, seq, at, sessionId: this.id } as AgentEvent);
  }

  private show(ev: AgentEvent): void {
    for (const l of this.listeners) {
      try {
        l(ev);
      } catch {
        /* a failing listener never breaks the session */
      }
    }
  }

  /**
   * Hold the events of a turn's start — the user's message, auto-loaded skills, the context and the reply's start —
   * until the model's request has gone out: they are committed in one transaction (one commit instead of one each),
   * with the model's first event or while the request is in flight (modelStep), and only then shown, always before any
   * model output, so every event is still committed before it is shown. The request is sent before its turn is in the
   * log: a kill -9 in that window (at most IN_FLIGHT_MS after the request is handed to the SDK) loses the message (the provider
   * saw a request the log does not).
   * A turn that waits (the tool box still opening, a compaction) releases them first, after at most 20 ms, so the
   * user's message never waits on it.
   */
  hold(timer: boolean): void {
    this.held ??= [];
    // With the tools open, nothing before the request waits on another event (a compaction releases first).
    if (!this.heldTimer && timer) {
      this.heldTimer = setTimeout(() => this.releaseInFlight(), 20);
      this.heldTimer.unref();
    }
  }

  /**
   * The held start of a turn, committed while the request is in flight (or by the hold timer). If that commit fails,
   * the request is aborted at once and the turn ends with the error (runTurn), before any model output is shown.
   */
  private readonly releaseInFlight = (): void => {
    this.inFlightTimer = undefined;
    try {
      this.release();
    } catch (e) {
      this.releaseFailure = e;
      this.startLost();
    }
  };

  /** A stream that ended without any event: the turn's start is committed (now, if it is not yet) and shown. */
  releaseBeforeOutput(): void {
    this.throwReleaseFailure();
    this.release();
  }

  /** A held start whose commit failed in the background (in flight, or by the hold timer) ends the turn with its error (runTurn clears it). */
  throwReleaseFailure(): void {
    if (this.releaseFailure !== undefined) throw this.releaseFailure;
  }

  release(): void {
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = undefined;
    const held = this.held;
    this.held = undefined;
    const sections = this.contextAfterStart;
    this.contextAfterStart = undefined;
    if (!held?.length) {
      if (sections) this.record({ type: 'context', sections });
      return;
    }
    let seqs: number[];
    try {
      // The held events are the rows as they are (type, body, time).
      seqs = this.store.sessions.appendMany(this.id, held as AppendRow[], this.branch);
    } catch (e) {
      // Nothing of it was stored (one transaction) nor shown: the state goes back to what the store holds, and the
      // user's message, not stored, is given back by the turn's error (runTurn).
      const user = held.find((h) => h.type === 'user_message')?.data as { text: string } | undefined;
      if (user) this.unsent = user.text;
      try {
        this.replay();
      } catch {
        /* the store cannot be read either: the error below says why */
      }
      throw e;
    }
    // Each held body was made for this turn alone: it becomes its shown event as it is (no copy of each on the path to
    // the first token).
    for (let i = 0; i < held.length; i++) {
      const e = held[i]!.data as AgentEvent;
      e.seq = seqs[i]!;
      e.at = held[i]!.at;
      e.sessionId = this.id;
      this.show(e);
    }
    // The context meter's counts come after the turn's start (and the reply's first event) is on screen.
    if (sections) this.record({ type: 'context', sections });
  }

  /** The conversation's state, rebuilt from the stored events of its branch (a reopened session; a rolled-back commit). */
  replay(): void {
    Object.assign(this.state, emptyState());
    this.branch = this.store.sessions.currentBranch(this.id);
    for (const ev of this.store.sessions.events(this.id)) applyEvent(this.state, ev.data as AgentEventBody);
  }
}
