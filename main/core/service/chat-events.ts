// The agent's events (AgentEvent) → the contract's events and transcript items: stream deltas, tool-call cards,
// approval requests with their "always" preview, skills loaded, notices, the context meter, turn ends.
import type {
  EventName,
  EventPayload,
  GateDecisionFields,
  ToolCallCard,
  TranscriptItem,
} from '../../../preload/contract.js';
import {
  RETRYABLE_ENDS,
  type AgentEvent,
  type ChatSession,
  type PendingApproval,
  type TurnEndReason,
} from '../agent/index.js';
import { displaySafe, displaySafeLines } from '../policy/index.js';
import { english, say, type Said } from '../base/index.js';
import type { DecisionFields } from '../policy/index.js';

type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

const MAX_OUTPUT = 4000;

/**
 * Control, bidi and invisible characters made visible (the one shared helper, preload/display.ts), so a summary shows
 * what the call really contains; line breaks and tabs of multi-line output stay.
 */
function visible(text: string): string {
  return text.split('\t').map(displaySafeLines).join('\t');
}

/** The gate's decision fields for the approval card, every string escaped. */
function visibleDecision(f: DecisionFields | undefined): GateDecisionFields | undefined {
  if (!f || Object.keys(f).length === 0) return undefined;
  const out: GateDecisionFields = {};
  if (f.rule !== undefined) out.rule = displaySafe(f.rule);
  if (f.ruleId !== undefined) out.ruleId = displaySafe(f.ruleId);
  if (f.scope !== undefined) out.scope = displaySafe(f.scope);
  // Words cross as they are: the window escapes what it says from them (a parameter may hold any text).
  if (f.ruleWords) out.ruleWords = f.ruleWords;
  if (f.scopeWords) out.scopeWords = f.scopeWords;
  if (f.skill) {
    out.skill = {
      name: displaySafe(f.skill.name),
      dir: displaySafe(f.skill.dir),
      ...(f.skill.tier ? { tier: displaySafe(f.skill.tier) } : {}),
      ...(f.skill.hash ? { hash: displaySafe(f.skill.hash) } : {}),
    };
  }
  if (f.paths) out.paths = { read: f.paths.read.map(displaySafe), write: f.paths.write.map(displaySafe) };
  return out;
}

function argsOf(v: unknown): Record<string, unknown> {
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  if (typeof v === 'string') {
    try {
      const parsed = JSON.parse(v) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // not JSON: shown as raw text below
    }
    return { raw: v };
  }
  return {};
}

/** One line for the approval card: the command, the paths, the host — else the arguments as JSON. */
function callSummary(tool: string, args: Record<string, unknown>): string {
  const pick = ['command', 'path', 'file_path', 'url', 'pattern', 'query'].find((k) => typeof args[k] === 'string');
  const text = pick ? `${tool}: ${String(args[pick])}` : `${tool} ${JSON.stringify(args)}`;
  return visible(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}

/** A turn's end as the window names it (the inspector's `offline` is a message no model answered: no_model). */
function turnEndReason(r: TurnEndReason): EventPayload<'chat.turnEnd'>['reason'] {
  switch (r) {
    case 'end_turn':
      return 'done';
    case 'cancelled':
      return 'stopped';
    case 'interrupted':
      return 'interrupted';
    case 'timeout':
      return 'timeout';
    case 'max_steps':
    case 'max_tokens':
      return 'limit';
    case 'offline':
      return 'no_model';
    default:
      return 'error';
  }
}

/** What the window is told when a message finds no model: why, when the provider could not be made, else the default. */
export const NO_MODEL: Said = say('noModel');

/** The error that ends a turn, said with that end: its English, and its words when it has them. */
type TurnError = { kind: string; message: string; words?: Said; unsent?: string };

/** A stored or live error event as the turn's end says it. */
const noModelError = (words: Said): TurnError => ({ kind: 'no_model', message: english(words), words });

const turnErrorOf = (e: { kind: string; message: string; words?: Said; unsent?: string }): TurnError => ({
  kind: e.kind,
  message: e.message,
  ...(e.words ? { words: e.words } : {}),
  ...(e.unsent !== undefined ? { unsent: e.unsent } : {}),
});

/**
 * An error event the transcript shows as a line of its own: one that does not end the turn (a skill that could not be
 * matched or loaded). Every other error ends its turn, and is said once, with that end.
 */
const noticeError = (kind: string): boolean => kind === 'skill';

const truncate = (s: string) =>
  s.length > MAX_OUTPUT ? `${s.slice(0, MAX_OUTPUT)}… (${s.length - MAX_OUTPUT} more characters)` : s;

/** The approval card's payload for an open approval (every shown string escaped). */
export function approvalOf(sessionId: string, e: PendingApproval): EventPayload<'chat.approval'> {
  const args = argsOf(e.args);
  const decision = visibleDecision(e.decision);
  return {
    sessionId,
    approvalId: e.approvalId,
    tool: e.tool,
    args,
    actor: { kind: 'agent', activeSkills: e.activeSkills },
    reason: visible(e.reason),
    ...(e.words ? { words: e.words } : {}),
    summary: callSummary(e.tool, args),
    alwaysPreview: e.alwaysPreview.map(displaySafe), // one line each: a rule is one line
    ...(e.alwaysWords ? { alwaysWords: e.alwaysWords } : {}),
    ...(e.alwaysWidens ? { alwaysWidens: e.alwaysWidens } : {}),
    ...(e.risks
      ? {
          risks: e.risks.map((r) => ({
            code: r.code,
            params: Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, displaySafe(v)])),
          })),
        }
      : {}),
    ...(decision ? { decision } : {}),
  };
}

/** Maps one session's live events; keeps the tool cards so a later event updates the same card. */
export class EventMapper {
  private readonly cards = new Map<string, ToolCallCard>();
  private lastError: TurnError | undefined;
  constructor(
    private readonly emit: Emit,
    private readonly turnId: () => string,
    /** Why there is no model (the provider that could not be made), for a message no model answered. */
    private readonly noModel: () => Said = () => NO_MODEL,
    /** Whether the session can take its last turn up again (chat.retry), once its end is recorded. */
    private readonly canRetry: () => boolean = () => false,
  ) {}

  private card(sessionId: string, callId: string, patch: Partial<ToolCallCard> & { tool?: string }): void {
    const prev = this.cards.get(callId) ?? { callId, tool: patch.tool ?? '?', args: {}, status: 'pending' as const };
    const next: ToolCallCard = { ...prev, ...patch };
    this.cards.set(callId, next);
    this.emit('chat.toolCall', { sessionId, turnId: this.turnId(), card: next });
  }

  /** A line of its own in the transcript, as words (and their English). */
  private notice(sessionId: string, level: 'info' | 'warning', kind: string, words: Said): void {
    this.emit('chat.notice', { sessionId, level, kind, text: english(words), words });
  }

  map(e: AgentEvent): void {
    const s = e.sessionId;
    // A new turn: nothing of an earlier turn's error (whose end may not have been shown) belongs to its end.
    if (e.type === 'user_message') this.lastError = undefined;
    switch (e.type) {
      case 'model_retry':
        return this.emit('chat.retrying', { sessionId: s, turnId: this.turnId(), attempt: e.attempt, of: e.of });
      case 'text_delta':
        return this.emit('chat.delta', { sessionId: s, turnId: this.turnId(), kind: 'text', text: e.text });
      case 'tool_call_started':
        return this.card(s, e.callId, { tool: e.name, status: 'pending' });
      case 'tool_call':
        return this.card(s, e.callId, { tool: e.name, args: argsOf(e.args ?? e.arguments), status: 'running' });
      case 'gate_decision':
        if (e.verdict === 'deny')
          return this.card(s, e.callId, { tool: e.tool, status: 'denied', output: visible(e.reason) });
        if (e.verdict === 'ask') return this.card(s, e.callId, { tool: e.tool, status: 'awaiting-approval' });
        return;
      case 'approval_requested':
        return this.emit('chat.approval', approvalOf(s, e));
      case 'approval_answered':
        if (e.answer === 'deny') {
          const card = [...this.cards.values()].find((c) => c.status === 'awaiting-approval');
          if (card)
            this.card(s, card.callId, { status: 'denied', ...(e.message ? { output: visible(e.message) } : {}) });
        }
        return;
      case 'tool_result':
        return this.card(s, e.callId, {
          tool: e.name,
          status: e.ok ? 'ok' : 'error',
          output: truncate(e.content),
          durationMs: e.durationMs,
          ...(e.code ? { errorCode: e.code } : {}),
          ...(e.words ? { words: e.words } : {}),
        });
      case 'skill_loaded':
        return this.emit('chat.skillLoaded', {
          sessionId: s,
          turnId: this.turnId(),
          skill: e.name,
          tier: e.tier,
          reason: `${e.reason}: ${e.why}`,
          ...(e.words ? { words: e.words } : {}),
          tokens: e.tokens,
        });
      case 'skill_unloaded':
        return this.notice(s, 'info', 'skill_unloaded', unloadedWords(e.name, e.reason));
      case 'compaction':
        return this.notice(
          s,
          'info',
          'compaction',
          say('noticeCompacted', { messages: e.compactedMessages, before: e.tokensBefore, after: e.tokensAfter }),
        );
      case 'recovered':
        return this.notice(
          s,
          'warning',
          'recovered',
          say('noticeRecovered', { approvals: e.pendingApprovals, calls: e.unfinishedCalls }),
        );
      case 'skill_offer':
        return this.notice(s, 'info', 'skill_offer', say('noticeSkillOffer', { calls: e.toolCalls }));
      case 'error':
        if (noticeError(e.kind))
          return this.emit('chat.notice', {
            sessionId: s,
            level: 'error',
            kind: e.kind,
            text: e.message,
            ...(e.words ? { words: e.words } : {}),
          });
        // Said once, with the turn's end (and its Retry).
        this.lastError = turnErrorOf(e);
        return;
      case 'context':
        return this.emit('context.changed', {
          sessionId: s,
          total: e.sections.total,
          contextWindow: e.sections.window,
        });
      case 'turn_end': {
        const reason = turnEndReason(e.reason);
        const err = reason === 'no_model' ? noModelError(this.noModel()) : this.lastError;
        this.lastError = undefined;
        const says = reason === 'error' || reason === 'interrupted' || reason === 'timeout' || reason === 'no_model';
        return this.emit('chat.turnEnd', {
          sessionId: s,
          turnId: this.turnId(),
          reason,
          ...(says && err
            ? { error: { code: err.kind, message: err.message, ...(err.words ? { words: err.words } : {}) } }
            : {}),
          ...(err?.unsent !== undefined ? { unsent: err.unsent } : {}),
          ...(this.canRetry() ? { retryable: true } : {}),
        });
      }
      default:
        return;
    }
  }
}

/** A stored session's events as the transcript shows them (assistant text joined per reply). */
export function transcriptOf(
  events: AgentEvent[],
  noModel: Said = NO_MODEL,
  versions: ReturnType<ChatSession['versions']> = [],
): TranscriptItem[] {
  let turn = -1;
  const items: TranscriptItem[] = [];
  // The error that ends a turn is said once, with its end; `lastEnd` is the latest turn's, which alone can be retried.
  let turnError: TurnError | undefined;
  let lastEnd: Extract<TranscriptItem, { kind: 'end' }> | undefined;
  const cards = new Map<string, Extract<TranscriptItem, { kind: 'tool' }>>();
  let reply: Extract<TranscriptItem, { kind: 'assistant' }> | undefined;
  for (const e of events) {
    const id = String(e.seq);
    switch (e.type) {
      case 'user_message':
        reply = undefined;
        turnError = undefined;
        lastEnd = undefined;
        turn++;
        {
          const v = versions.find((x) => x.turn === turn);
          items.push({
            kind: 'user',
            id,
            text: e.text,
            ...(e.attachments?.length
              ? { attachments: e.attachments.map((a) => ({ kind: a.kind, name: a.name, mime: a.mime, size: a.size })) }
              : {}),
            ...(v
              ? {
                  versions: { ...(v.message ? { message: v.message } : {}), ...(v.answer ? { answer: v.answer } : {}) },
                }
              : {}),
            at: e.at,
          });
        }
        break;
      case 'retry':
        // The turn goes on: its earlier end is no longer the one to retry.
        reply = undefined;
        turnError = undefined;
        if (lastEnd) lastEnd.retryable = false;
        lastEnd = undefined;
        break;
      case 'turn_end': {
        const reason = turnEndReason(e.reason);
        if (reason === 'done') {
          turnError = undefined;
          break;
        }
        const err = reason === 'no_model' ? noModelError(noModel) : turnError;
        turnError = undefined;
        reply = undefined;
        const says = reason === 'error' || reason === 'interrupted' || reason === 'timeout' || reason === 'no_model';
        lastEnd = {
          kind: 'end',
          id,
          reason,
          ...(says && err ? { code: err.kind, message: err.message, ...(err.words ? { words: err.words } : {}) } : {}),
          retryable: RETRYABLE_ENDS.includes(e.reason) && !(err && 'unsent' in err && err.unsent !== undefined),
          at: e.at,
        };
        items.push(lastEnd);
        break;
      }
      case 'assistant_start':
        reply = undefined;
        break;
      case 'text_delta':
        if (!reply) items.push((reply = { kind: 'assistant', id, text: '', at: e.at }));
        reply.text += e.text;
        break;
      case 'tool_call': {
        reply = undefined;
        const item = {
          kind: 'tool' as const,
          id,
          at: e.at,
          card: {
            callId: e.callId,
            tool: e.name,
            args: argsOf(e.args ?? e.arguments),
            status: 'running' as ToolCallCard['status'],
          },
        };
        cards.set(e.callId, item);
        items.push(item);
        break;
      }
      case 'gate_decision': {
        const c = cards.get(e.callId);
        if (c && e.verdict === 'deny') c.card = { ...c.card, status: 'denied', output: visible(e.reason) };
        break;
      }
      case 'approval_requested': {
        // As the live card says (its result, once there, says what came of it).
        const c = cards.get(e.callId);
        if (c) c.card = { ...c.card, status: 'awaiting-approval' };
        break;
      }
      case 'tool_result': {
        const c = cards.get(e.callId);
        if (c)
          c.card = {
            ...c.card,
            status: e.ok ? 'ok' : 'error',
            output: truncate(e.content),
            durationMs: e.durationMs,
            ...(e.code ? { errorCode: e.code } : {}),
            ...(e.words ? { words: e.words } : {}),
          };
        break;
      }
      case 'skill_loaded':
        items.push({
          kind: 'skill',
          id,
          skill: e.name,
          reason: `${e.reason}: ${e.why}`,
          ...(e.words ? { words: e.words } : {}),
          at: e.at,
        });
        break;
      case 'error':
        if (noticeError(e.kind))
          items.push({
            kind: 'notice',
            id,
            level: 'error',
            text: e.message,
            ...(e.words ? { words: e.words } : {}),
            at: e.at,
          });
        else turnError = turnErrorOf(e);
        break;
      case 'compaction': {
        const words = say('noticeCompactedShort', { messages: e.compactedMessages });
        items.push({ kind: 'notice', id, level: 'info', text: english(words), words, at: e.at });
        break;
      }
      case 'recovered': {
        const words = say('noticeRecoveredShort');
        items.push({ kind: 'notice', id, level: 'warning', text: english(words), words, at: e.at });
        break;
      }
      default:
        break;
    }
  }
  // Only the latest turn's end can be retried, and only when nothing came after it.
  for (const it of items) if (it.kind === 'end' && it !== lastEnd) it.retryable = false;
  return items;
}

/** A skill taken out of the conversation, as words: by the user, or because it could not be loaded again. */
function unloadedWords(skill: string, reason: string): Said {
  return reason === 'unloaded by the user'
    ? say('noticeUnloadedByYou', { skill })
    : say('noticeUnloaded', { skill, reason });
}
