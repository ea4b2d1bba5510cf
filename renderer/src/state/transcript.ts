// The conversation on screen, built from the contract as it comes: a stored conversation's items (sessions.open,
// chat.switchVersion) and the chat events of a running turn. Tool cards and approvals keep the contract's shapes.
import type { AttachmentMeta, EventPayload, MethodOutput, Said, ToolCallCard } from '../../../preload/contract';

export type ChatApproval = EventPayload<'chat.approval'>;
export type Decision = 'once' | 'always' | 'deny';

/** The chat events the transcript follows, each with its contract name. */
export const CHAT_EVENTS = [
  'chat.delta',
  'chat.retrying',
  'chat.toolCall',
  'chat.approval',
  'chat.skillLoaded',
  'chat.notice',
  'context.changed',
  'chat.turnEnd',
] as const;
export type ChatEvent = {
  [E in (typeof CHAT_EVENTS)[number]]: { name: E } & EventPayload<E>;
}[(typeof CHAT_EVENTS)[number]];

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; card: ToolCallCard }
  | { kind: 'approval'; request: ChatApproval; answered?: Decision }
  | { kind: 'skill'; name: string; reason: string; words?: Said }
  | { kind: 'notice'; level: 'info' | 'warning' | 'error'; text: string; words?: Said };

/**
 * How an answer ended when it did not simply finish: interrupted (the connection lost mid-answer, or Knack stopped),
 * timed out (the reply stalled), failed (the provider's reason in `error`), at a limit, or no model set up.
 */
export type AnswerEnd = 'interrupted' | 'timeout' | 'failed' | 'limit' | 'no_model';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: ChatPart[];
  /** Files sent with a user's message (name, type, size; their content stays in main). */
  files?: AttachmentMeta[];
  /** Other versions of this message (edits) or answer (regenerated): which one is shown (0-based), of how many. */
  versions?: { index: number; count: number };
  /** The answer was stopped by the user. */
  stopped?: boolean;
  error?: string;
  /** `error` as words the window says in its language (the provider's own text inside them as it said it). */
  errorWords?: Said;
  /** How the answer ended, when it did not finish (its text so far is kept). */
  end?: AnswerEnd;
  /** Retry can take this answer up again (the latest turn, interrupted, failed or timed out). */
  retry?: boolean;
}

/** A turn's end as the answer shows it: stopped, or how it ended with the reason and whether Retry is offered. */
export function answerEnd(
  reason: EventPayload<'chat.turnEnd'>['reason'],
  message: string | undefined,
  retryable: boolean | undefined,
  words?: Said,
): Pick<ChatMessage, 'stopped' | 'error' | 'errorWords' | 'end' | 'retry'> {
  if (reason === 'done') return {};
  if (reason === 'stopped') return { stopped: true };
  return {
    end: reason === 'error' ? 'failed' : reason,
    ...(message ? { error: message } : {}),
    ...(words ? { errorWords: words } : {}),
    ...(retryable ? { retry: true } : {}),
  };
}

/** A stored conversation as transcript messages: user turns, and everything else grouped into the answer after them. */
export function toMessages(items: MethodOutput<'sessions.open'>['items']): ChatMessage[] {
  const out: ChatMessage[] = [];
  let current: ChatMessage | undefined;
  /** The versions of the answer to the last user's message (on that answer's first message). */
  let answers: ChatMessage['versions'];
  for (const it of items) {
    if (it.kind === 'user') {
      out.push({
        id: it.id,
        role: 'user',
        parts: [{ kind: 'text', text: it.text }],
        ...(it.attachments?.length ? { files: it.attachments } : {}),
        ...(it.versions?.message ? { versions: it.versions.message } : {}),
      });
      answers = it.versions?.answer;
      current = undefined;
      continue;
    }
    if (!current) {
      current = { id: `a-${it.id}`, role: 'assistant', parts: [], ...(answers ? { versions: answers } : {}) };
      answers = undefined;
      out.push(current);
    }
    if (it.kind === 'assistant') current.parts.push({ kind: 'text', text: it.text });
    else if (it.kind === 'tool') current.parts.push({ kind: 'tool', card: it.card });
    else if (it.kind === 'skill')
      current.parts.push({
        kind: 'skill',
        name: it.skill,
        reason: it.reason,
        ...(it.words ? { words: it.words } : {}),
      });
    else if (it.kind === 'end') {
      Object.assign(current, answerEnd(it.reason, it.message, it.retryable, it.words));
      // What follows (a retried answer) is an answer of its own.
      current = undefined;
    } else
      current.parts.push({ kind: 'notice', level: it.level, text: it.text, ...(it.words ? { words: it.words } : {}) });
  }
  return out;
}

/**
 * A conversation opened while its turn runs: the reply shown so far takes the turn's id, so the events still to come
 * join it rather than start a second reply, and the approvals still open are cards to answer.
 */
function withOpenTurn(messages: ChatMessage[], turnId: string | undefined, approvals: ChatApproval[]): ChatMessage[] {
  if (!turnId) return messages;
  const last = messages[messages.length - 1];
  const reply: ChatMessage =
    last && last.role === 'assistant'
      ? { ...last, id: turnId, parts: last.parts.slice() }
      : { id: turnId, role: 'assistant', parts: [] };
  for (const a of approvals) reply.parts.push({ kind: 'approval', request: a });
  return last && last.role === 'assistant' ? [...messages.slice(0, -1), reply] : [...messages, reply];
}

/** A stored conversation as sessions.open answers it; `running` while its turn runs (its reply keeps the turn's id). */
export function opened(o: MethodOutput<'sessions.open'>): { messages: ChatMessage[]; running: boolean } {
  return { messages: withOpenTurn(toMessages(o.items), o.turnId, o.approvals), running: o.turnId !== undefined };
}
