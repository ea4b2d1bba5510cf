// The shipped KnackClient: the shell's typed contract client (Electron's window.knack or serve mode's WebSocket,
// chosen by connectFromPage) adapted to the screens' view models. The only file that knows contract shapes.
import { connectFromPage, type KnackClient as ContractClient } from '../../../preload/client';
import type { EventPayload, MethodOutput } from '../../../preload/contract';
import type { KnackClient } from './client';
import type { ApprovalRequest, ChatEvent, ChatMessage, ToolCallView } from './types';

type Card = EventPayload<'chat.toolCall'>['card'];
type ChatApprovalPayload = EventPayload<'chat.approval'>;

const cardStatus: Record<Card['status'], ToolCallView['status']> = {
  pending: 'running',
  'awaiting-approval': 'waiting',
  running: 'running',
  ok: 'done',
  error: 'error',
  denied: 'error',
};

function toCall(card: Card): ToolCallView {
  const failed = card.status === 'error' || card.status === 'denied';
  return {
    id: card.callId,
    name: card.tool,
    args: card.args,
    status: cardStatus[card.status],
    ...(card.status === 'denied'
      ? { decision: 'deny' as const }
      : card.status === 'awaiting-approval'
        ? { decision: 'ask' as const }
        : {}),
    ...(card.output !== undefined ? (failed ? { error: card.output } : { result: card.output }) : {}),
    ...(failed && card.words ? { errorWords: card.words } : {}),
    ...(card.durationMs !== undefined ? { durationMs: card.durationMs } : {}),
  };
}

/** A turn's end as the answer shows it: stopped, or how it ended with the reason and whether Retry is offered. */
function answerEnd(
  reason: EventPayload<'chat.turnEnd'>['reason'],
  message: string | undefined,
  retryable: boolean | undefined,
): Pick<ChatMessage, 'stopped' | 'error' | 'end' | 'retry'> {
  if (reason === 'done') return {};
  if (reason === 'stopped') return { stopped: true };
  return {
    end: reason === 'error' ? 'failed' : reason,
    ...(message ? { error: message } : {}),
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
    else if (it.kind === 'tool') current.parts.push({ kind: 'tool', call: toCall(it.card) });
    else if (it.kind === 'skill')
      current.parts.push({
        kind: 'skill',
        name: it.skill,
        reason: it.reason,
        ...(it.words ? { words: it.words } : {}),
      });
    else if (it.kind === 'end') {
      Object.assign(current, answerEnd(it.reason, it.message, it.retryable));
      // What follows (a retried answer) is an answer of its own.
      current = undefined;
    } else
      current.parts.push({ kind: 'notice', level: it.level, text: it.text, ...(it.words ? { words: it.words } : {}) });
  }
  return out;
}

/** The approval card's request from the contract's approval (an event, or one still open in an opened conversation). */
function toApproval(e: ChatApprovalPayload): ApprovalRequest {
  return {
    id: e.approvalId,
    tool: e.tool,
    args: e.args,
    reason: e.reason,
    ...(e.words ? { words: e.words } : {}),
    summary: e.summary,
    ...(e.alwaysPreview.length ? { rules: e.alwaysPreview } : {}),
    ...(e.alwaysWords?.length === e.alwaysPreview.length && e.alwaysPreview.length ? { ruleWords: e.alwaysWords } : {}),
    ...(e.alwaysWidens ? { widens: e.alwaysWidens } : {}),
    ...(e.risks ? { risks: e.risks } : {}),
    ...(e.actor.kind === 'skill' ? { skill: e.actor.skill } : {}),
    ...(e.decision ? { decision: e.decision } : {}),
  };
}

/**
 * A conversation opened while its turn runs: the reply shown so far takes the turn's id, so the events still to come
 * join it rather than start a second reply, and the approvals still open are cards to answer.
 */
export function withOpenTurn(
  messages: ChatMessage[],
  turnId: string | undefined,
  approvals: ChatApprovalPayload[],
): ChatMessage[] {
  if (!turnId) return messages;
  const last = messages[messages.length - 1];
  const reply: ChatMessage =
    last && last.role === 'assistant'
      ? { ...last, id: turnId, parts: last.parts.slice() }
      : { id: turnId, role: 'assistant', parts: [] };
  for (const a of approvals) reply.parts.push({ kind: 'approval', request: toApproval(a) });
  return last && last.role === 'assistant' ? [...messages.slice(0, -1), reply] : [...messages, reply];
}

export function adapt(k: ContractClient, mode: 'electron' | 'serve', nativeDialogs: boolean): KnackClient {
  const lastTurn = new Map<string, string>();

  const client: KnackClient = {
    mode,
    nativeDialogs,
    call: (method, input) => k.call(method, input),
    on: (event, listener) => k.on(event, listener),
    async sendMessage(_w, sessionId, text, planMode, model, attachments, edit, keepFiles) {
      const r = await k.call('chat.send', {
        ...(sessionId ? { sessionId } : {}),
        text,
        planMode,
        ...(model ? { model: model.model, ...(model.provider ? { provider: model.provider } : {}) } : {}),
        ...(attachments?.length ? { attachments } : {}),
        ...(edit !== undefined ? { edit } : {}),
        ...(edit !== undefined && keepFiles ? { keepFiles } : {}),
      });
      lastTurn.set(r.sessionId, r.turnId);
      return { sessionId: r.sessionId, messageId: r.turnId };
    },
    async listModels(sessionId) {
      return k.call('chat.models', sessionId ? { sessionId } : {});
    },
    async setModel(sessionId, { model, provider }) {
      const r = await k.call('chat.setModel', { sessionId, model, ...(provider ? { provider } : {}) });
      return r.imagesUnseen ? { imagesUnseen: r.imagesUnseen } : {};
    },
    async stop(sessionId) {
      await k.call('chat.stop', { sessionId });
    },
    async regenerate(sessionId, turn) {
      const r = await k.call('chat.regenerate', { sessionId, turn });
      lastTurn.set(r.sessionId, r.turnId);
      return { messageId: r.turnId };
    },
    async switchVersion(sessionId, turn, which, index) {
      return toMessages((await k.call('chat.switchVersion', { sessionId, turn, which, index })).items);
    },
    async retry(sessionId) {
      const r = await k.call('chat.retry', { sessionId });
      lastTurn.set(r.sessionId, r.turnId);
      return { messageId: r.turnId };
    },
    async answerApproval(sessionId, approvalId, answer, message, rules) {
      await k.call('chat.answer', {
        sessionId,
        approvalId,
        answer,
        ...(message ? { message } : {}),
        ...(answer === 'always' && rules ? { rules } : {}),
      });
    },
    async setPlanMode(sessionId, on) {
      await k.call('chat.setPlanMode', { sessionId, on });
    },
    async openSession(id) {
      const r = await k.call('sessions.open', { id });
      if (r.turnId) lastTurn.set(id, r.turnId);
      return { messages: withOpenTurn(toMessages(r.items), r.turnId, r.approvals), running: r.turnId !== undefined };
    },

    onChat(h: (e: ChatEvent) => void) {
      const offs = [
        k.on('chat.delta', (e) => {
          lastTurn.set(e.sessionId, e.turnId);
          if (e.kind === 'text') h({ type: 'delta', sessionId: e.sessionId, messageId: e.turnId, text: e.text });
        }),
        k.on('chat.retrying', (e) => {
          lastTurn.set(e.sessionId, e.turnId);
          h({ type: 'retrying', sessionId: e.sessionId, messageId: e.turnId, attempt: e.attempt, of: e.of });
        }),
        k.on('chat.toolCall', (e) => {
          lastTurn.set(e.sessionId, e.turnId);
          // The card's duration is main's: how long the call ran, without the time its approval waited.
          h({ type: 'tool', sessionId: e.sessionId, messageId: e.turnId, call: toCall(e.card) });
        }),
        k.on('chat.approval', (e) =>
          h({
            type: 'approval',
            sessionId: e.sessionId,
            messageId: lastTurn.get(e.sessionId) ?? e.approvalId,
            request: toApproval(e),
          }),
        ),
        k.on('chat.skillLoaded', (e) =>
          h({
            type: 'loaded',
            sessionId: e.sessionId,
            messageId: e.turnId,
            skill: { name: e.skill, reason: e.reason, ...(e.words ? { words: e.words } : {}) },
          }),
        ),
        k.on('chat.notice', (e) =>
          h({
            type: 'notice',
            sessionId: e.sessionId,
            level: e.level,
            text: e.text,
            ...(e.words ? { words: e.words } : {}),
          }),
        ),
        k.on('context.changed', (e) => h({ type: 'loaded', sessionId: e.sessionId })),
        k.on('chat.turnEnd', (e) =>
          h({
            type: 'done',
            sessionId: e.sessionId,
            messageId: e.turnId,
            ...answerEnd(e.reason, e.error?.message, e.retryable),
            ...(e.error ? { error: e.error.message } : {}),
            ...(e.unsent !== undefined ? { unsent: e.unsent } : {}),
          }),
        ),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
  };
  return client;
}

export async function connect(onDisconnect?: () => void): Promise<KnackClient> {
  const k = connectFromPage(onDisconnect ? { onDisconnect } : {});
  const info = await k.call('app.info', {});
  return adapt(k, info.transport, info.nativeDialogs);
}
