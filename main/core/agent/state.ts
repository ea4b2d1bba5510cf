// A session's state as a fold over its events: the live loop and crash recovery use this one reducer, so a
// reopened session is exactly what was committed (conversation, loaded skills, found tools, pending approvals).
import type { ChatMessage } from './providers/types.js';
import { emptyUsage, type Usage } from './providers/types.js';
import type { AgentEventBody, ContextSections, PendingApproval, TurnEndReason } from './types.js';
import { sessionTitle } from '../store/index.js';
import type { ProcessGroupRecord } from '../tools/index.js';

/** A skill loaded in a conversation: what its skill_loaded event said. */
export type LoadedSkillState = Omit<Extract<AgentEventBody, { type: 'skill_loaded' }>, 'type'>;

export interface SessionState {
  messages: ChatMessage[];
  loaded: Map<string, LoadedSkillState>;
  discovered: string[];
  planMode: boolean;
  pending: Map<string, PendingApproval>;
  /** An assistant reply is streaming (assistant_start without assistant_end). */
  streaming: boolean;
  /** A user turn is open (user_message without turn_end). */
  turnOpen: boolean;
  /** How the last turn ended (until the next message): a Retry takes up an interrupted, failed or timed-out one. */
  lastEnd: TurnEndReason | undefined;
  usage: Usage;
  /** Session cost in USD; undefined once a call could not be priced. */
  cost: number | undefined;
  lastContext?: ContextSections;
  compactions: { summary: string; compactedMessages: number }[];
  resources: { skill: string; path: string; tokens: number }[];
  title: string;
  /** Process groups started by calls that have no result yet, by call id. */
  processes: Map<string, ProcessGroupRecord>;
}

export function emptyState(): SessionState {
  return {
    messages: [],
    loaded: new Map(),
    discovered: [],
    planMode: false,
    pending: new Map(),
    streaming: false,
    turnOpen: false,
    lastEnd: undefined,
    usage: emptyUsage(),
    cost: 0,
    compactions: [],
    resources: [],
    title: '',
    processes: new Map(),
  };
}

/** A session's title: its first message on one line, at most 80 characters. */
/** The title a session gets from its first message (the store reads the same from the log). */
const titleOf = sessionTitle;

export const SUMMARY_PREFIX = '[Summary of the earlier conversation, written when it was compacted]\n';

const key = (name: string): string => name.normalize('NFKC').toLowerCase();

function lastAssistant(s: SessionState): Extract<ChatMessage, { role: 'assistant' }> | undefined {
  const m = s.messages.at(-1);
  return m && m.role === 'assistant' ? m : undefined;
}

/** Apply one event. Unknown or out-of-place events are ignored: a damaged log never stops a session opening. */
export function applyEvent(s: SessionState, e: AgentEventBody): void {
  switch (e.type) {
    case 'user_message':
      s.messages.push(
        e.attachments?.length
          ? { role: 'user', text: e.text, attachments: e.attachments }
          : { role: 'user', text: e.text },
      );
      s.turnOpen = true;
      s.lastEnd = undefined;
      if (!s.title) s.title = titleOf(e.text);
      break;
    case 'assistant_start':
      s.messages.push({ role: 'assistant', text: '', toolCalls: [] });
      s.streaming = true;
      break;
    case 'text_delta': {
      const a = lastAssistant(s);
      if (a) a.text += e.text;
      break;
    }
    case 'tool_call': {
      const a = lastAssistant(s);
      if (a) a.toolCalls.push({ id: e.callId, name: e.name, arguments: e.arguments });
      break;
    }
    case 'assistant_end': {
      s.streaming = false;
      const a = lastAssistant(s);
      if (a && e.interrupted) a.interrupted = true;
      break;
    }
    case 'tool_process':
      s.processes.set(e.callId, {
        pgid: e.pgid,
        ...(e.start !== undefined ? { start: e.start } : {}),
        ...(e.owner ? { owner: e.owner } : {}),
      });
      break;
    case 'tool_result': {
      s.processes.delete(e.callId);
      const last = s.messages.at(-1);
      const r = { callId: e.callId, name: e.name, content: e.content, isError: !e.ok };
      if (last && last.role === 'tool') last.results.push(r);
      else s.messages.push({ role: 'tool', results: [r] });
      break;
    }
    case 'approval_requested':
      s.pending.set(e.approvalId, e);
      break;
    case 'approval_answered':
      s.pending.delete(e.approvalId);
      break;
    case 'skill_loaded':
      s.loaded.set(key(e.name), {
        name: e.name,
        tier: e.tier,
        version: e.version,
        reason: e.reason,
        why: e.why,
        ...(e.words ? { words: e.words } : {}),
        tokens: e.tokens,
        ...(e.requiredBy ? { requiredBy: e.requiredBy } : {}),
      });
      break;
    case 'skill_unloaded':
      s.loaded.delete(key(e.name));
      break;
    case 'resource_read':
      s.resources.push({ skill: e.skill, path: e.path, tokens: e.tokens });
      break;
    case 'tools_discovered':
      for (const n of e.names) if (!s.discovered.includes(n)) s.discovered.push(n);
      break;
    case 'plan_mode':
      s.planMode = e.on;
      break;
    case 'usage':
      s.usage = { ...e.total };
      s.cost = e.totalCost;
      break;
    case 'context':
      s.lastContext = e.sections;
      break;
    case 'compaction':
      s.messages = [{ role: 'user', text: SUMMARY_PREFIX + e.summary }, ...s.messages.slice(e.compactedMessages)];
      s.compactions.push({ summary: e.summary, compactedMessages: e.compactedMessages });
      break;
    case 'turn_end':
      s.turnOpen = false;
      s.streaming = false;
      s.lastEnd = e.reason;
      break;
    case 'retry':
      dropCutOff(s);
      s.turnOpen = true;
      s.lastEnd = undefined;
      break;
    default:
      break;
  }
}

/**
 * A retried turn's cut-off end leaves what the model is sent: the interrupted answer, and the results its unfinished
 * tool calls were closed with. The conversation then ends with its last complete message (the user's, or tool results).
 */
function dropCutOff(s: SessionState): void {
  let end = s.messages.length;
  while (end > 0 && s.messages[end - 1]!.role === 'tool') end--;
  const a = s.messages[end - 1];
  if (a?.role === 'assistant' && a.interrupted) s.messages.length = end - 1;
}

/** Tool calls of the last assistant reply that have no result yet (in call order). */
export function unresolvedCalls(s: SessionState): { id: string; name: string; arguments: string }[] {
  let i = s.messages.length - 1;
  // A new conversation, or one whose last message is the user's (every turn's start): nothing to look through.
  if (i < 0 || s.messages[i]!.role === 'user') return [];
  const done = new Set<string>();
  while (i >= 0 && s.messages[i]!.role === 'tool') {
    for (const r of (s.messages[i] as Extract<ChatMessage, { role: 'tool' }>).results) done.add(r.callId);
    i--;
  }
  const a = s.messages[i];
  if (!a || a.role !== 'assistant') return [];
  return a.toolCalls.filter((c) => !done.has(c.id));
}
