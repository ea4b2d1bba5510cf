// The agent's public shapes: every event a chat session records and shows (one union, stored as is), approval
// requests and answers, context sections and the projection. The UI, the CLI and serve mode consume these.
import type { Attachment } from './attachments.js';
import type { Usage } from './providers/types.js';
import type { Tier } from '../skills/format/index.js';
import type { DecisionFields } from '../policy/index.js';
import type { RiskLine } from '../policy/index.js';
import type { Said } from '../base/index.js';

export type { Usage };

/** Why a skill is in the context. */
export type SkillLoadReason = 'trigger' | 'model' | 'dependency' | 'user' | 'recovered';

export type ApprovalAnswerKind = 'once' | 'always' | 'deny';

export interface ApprovalAnswer {
  kind: ApprovalAnswerKind;
  /** With `always`: the rules of the preview to store, by position (unticked ones are left out). */
  only?: number[];
  /** With `deny`: a message passed back to the model. */
  message?: string;
}

/** Token counts per prompt section (real tokenizer), against the model's window. */
export interface ContextSections {
  system: number;
  /** The folder's own instructions (AGENTS.md or CLAUDE.md), 0 without one. */
  instructions: number;
  catalog: number;
  skills: number;
  tools: number;
  history: number;
  observations: number;
  total: number;
  window: number;
}

/** One entry of the context projection: what is in the model's context, why, and what it costs. */
export interface ProjectionEntry {
  kind: 'instructions' | 'skill' | 'resource' | 'tool' | 'catalog' | 'compaction';
  name: string;
  tier?: Tier;
  version?: string;
  reason: string;
  tokens: number;
  path?: string;
  /** The catalog's entry: the skills its token budget left out (SkillSearch still finds them). */
  leftOut?: string[];
  /** What the entry is, as words the window says in its language (the project instructions: read, cut or why not). */
  words?: Said;
}

/**
 * How a turn ended: done (`end_turn`), at a limit (`max_steps`, `max_tokens`), stopped by the user (`cancelled`),
 * `interrupted` (the connection lost mid-answer, or Knack killed), failed (`error`, with the provider's reason in the
 * turn's `error` event), `timeout` (the reply stalled), or `offline` (no model: the inspector).
 */
export type TurnEndReason =
  'end_turn' | 'max_steps' | 'max_tokens' | 'cancelled' | 'error' | 'interrupted' | 'timeout' | 'offline';

/** The ends a Retry can take up again: the same request is sent from the point the turn stopped at. */
export const RETRYABLE_ENDS: readonly TurnEndReason[] = ['interrupted', 'error', 'timeout'];

export type AgentEventBody =
  | { type: 'session_started'; workspace: string; provider: string | null; model: string | null; offline: boolean }
  | { type: 'user_message'; text: string; attachments?: Attachment[] }
  | {
      type: 'skill_loaded';
      name: string;
      tier: Tier;
      version: string;
      reason: SkillLoadReason;
      /** Why, in English (the CLI, exports); `words` is the same as a code the window says in its language. */
      why: string;
      words?: Said;
      tokens: number;
      requiredBy?: string;
    }
  | { type: 'skill_unloaded'; name: string; reason: string }
  | { type: 'resource_read'; skill: string; path: string; tokens: number }
  | { type: 'tools_discovered'; names: string[]; via: string }
  | { type: 'assistant_start'; step: number; provider: string; model: string }
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call_started'; callId: string; name: string }
  | { type: 'tool_call'; callId: string; name: string; arguments: string; args?: unknown }
  /**
   * The call started a process group: `pgid`, its leader's start time and the Knack process that started it (from
   * /proc). Recovery ends what is left of it once that Knack is gone.
   */
  | { type: 'tool_process'; callId: string; pgid: number; start?: number; owner?: { pid: number; start: number } }
  | ({
      type: 'gate_decision';
      callId: string;
      tool: string;
      verdict: 'allow' | 'ask' | 'deny';
      reason: string;
    } & DecisionFields)
  | {
      type: 'approval_requested';
      approvalId: string;
      callId: string;
      tool: string;
      args: unknown;
      /** Why the gate asked. */
      reason: string;
      /** `reason` as words the window says in its language. */
      words?: Said;
      /** Skills loaded when the call was made (the gate's active skills). */
      activeSkills: string[];
      /** What "always allow" would store, one rule per line, shown before saving. */
      alwaysPreview: string[];
      /** The same rules as words the window says in its language (absent in logs written before). */
      alwaysWords?: Said[];
      /** Per preview rule: would it let network calls or writes outside the workspace run unasked (never pre-ticked). */
      alwaysWidens?: ('network' | 'outside' | null)[];
      /** What the call would do, as plain risk lines (a code and its parameters, worded by the window). */
      risks?: RiskLine[];
      /** The gate's decision fields: the rule that asked and its scope, the acting skill, the real paths checked. */
      decision?: DecisionFields;
    }
  | { type: 'approval_answered'; approvalId: string; answer: ApprovalAnswerKind; message?: string; rules?: string[] }
  | {
      type: 'tool_result';
      callId: string;
      name: string;
      ok: boolean;
      content: string;
      code?: string;
      /** A refusal (by the gate or the user) as words the window says in its language; `content` is what the model read. */
      words?: Said;
      durationMs: number;
    }
  /** The provider's SDK sends the reply's request again (a 429, a 5xx, overloaded, a lost connection): attempt n of `of`. */
  | { type: 'model_retry'; attempt: number; of: number }
  | { type: 'assistant_end'; stopReason: string; interrupted?: boolean }
  /** `cost`: this call in USD; `totalCost`: the session so far — each absent when it cannot be priced (no guesses). */
  | { type: 'usage'; usage: Usage; total: Usage; cost?: number; totalCost?: number }
  | { type: 'context'; sections: ContextSections }
  | { type: 'compaction'; summary: string; compactedMessages: number; tokensBefore: number; tokensAfter: number }
  | { type: 'plan_mode'; on: boolean }
  /**
   * `unsent`: the user's message of this turn when the turn failed before that message could be stored (the commit of
   * the turn's start failed): it is not in the conversation, and no reply to it was kept. A UI gives it back to the
   * user (the input box) to send again.
   * `words`: the message as words (a provider's failure; the window says them in its language, `message` is their English).
   */
  | { type: 'error'; kind: string; message: string; words?: Said; unsent?: string }
  | { type: 'turn_end'; reason: TurnEndReason; steps: number; toolCalls: number }
  /**
   * The user asked to retry the last turn (it ended interrupted, failed or timed out): its cut-off answer stays in the
   * log, and leaves what the model is sent; the turn runs again from its last complete message.
   */
  | { type: 'retry'; after: TurnEndReason }
  | {
      type: 'recovered';
      interruptedAnswer: boolean;
      pendingApprovals: number;
      unfinishedCalls: number;
      /** Processes of unfinished calls still running at recovery, ended then (SIGTERM, then SIGKILL). */
      endedProcesses?: number;
    }
  | { type: 'skill_offer'; toolCalls: number; tools: string[] };

/** An event as stored and delivered: committed to SQLite (seq) before any listener sees it. */
export type AgentEvent = AgentEventBody & { seq: number; at: number; sessionId: string };

export type AgentListener = (event: AgentEvent) => void;

/** A pending approval as the UI shows it. */
export type PendingApproval = Extract<AgentEventBody, { type: 'approval_requested' }>;
