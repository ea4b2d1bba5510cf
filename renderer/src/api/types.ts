// View-model shapes the screens render: what the renderer receives over the contract, nothing more.
// Plain data only (no functions, no Node types); the contract adapter fills them.
import type { AttachmentMeta, Said } from '../../../preload/contract';

export type Decision = 'once' | 'always' | 'deny';

export interface ApprovalRequest {
  id: string;
  tool: string;
  args: unknown;
  /** The rules "Always allow" would save, for people, one per item; absent when the call cannot be generalised safely. */
  rules?: string[];
  /** `rules` as words (same order), said in the window's language. */
  ruleWords?: Said[];
  /** Escaped one-line summary of the call (command, path, host). */
  summary?: string;
  /** Per rule (same order): 'network' / 'outside' when it would let such calls run unasked; never pre-ticked. */
  widens?: ('network' | 'outside' | null)[];
  /** What the call would do, as risk codes with parameters (worded here, in the window's language). */
  risks?: { code: string; params: Record<string, string> }[];
  reason: string;
  /** `reason` as words, said in the window's language. */
  words?: Said;
  skill?: string;
  /** The gate's decision: the rule that asked and its scope, the acting skill's identity, the real paths it checked. */
  decision?: {
    rule?: string;
    scope?: string;
    /** `rule` and `scope` as words, said in the window's language. */
    ruleWords?: Said;
    scopeWords?: Said;
    skill?: { name: string; tier?: string; dir: string; hash?: string };
    paths?: { read: string[]; write: string[] };
  };
}

export interface ToolCallView {
  id: string;
  name: string;
  args: unknown;
  result?: string;
  error?: string;
  /** A refusal (by the gate or the user) as words, said in the window's language instead of `error`. */
  errorWords?: Said;
  durationMs?: number;
  decision?: 'allow' | 'ask' | 'deny';
  status: 'running' | 'done' | 'error' | 'waiting';
}

export type ChatPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; call: ToolCallView }
  | { kind: 'approval'; request: ApprovalRequest; answered?: Decision }
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
  /** How the answer ended, when it did not finish (its text so far is kept). */
  end?: AnswerEnd;
  /** Retry can take this answer up again (the latest turn, interrupted, failed or timed out). */
  retry?: boolean;
}

/** Events the main process pushes. */
export type ChatEvent =
  | { type: 'delta'; sessionId: string; messageId: string; text: string }
  | { type: 'tool'; sessionId: string; messageId: string; call: ToolCallView }
  | { type: 'approval'; sessionId: string; messageId: string; request: ApprovalRequest }
  /** The provider's SDK sends the turn's request again: attempt `attempt` of `of` (said until the answer's words come). */
  | { type: 'retrying'; sessionId: string; messageId: string; attempt: number; of: number }
  /** `unsent`: the turn failed before the user's message could be stored; it goes back into the input box. */
  | {
      type: 'done';
      sessionId: string;
      messageId: string;
      stopped?: boolean;
      error?: string;
      unsent?: string;
      end?: AnswerEnd;
      retry?: boolean;
    }
  | { type: 'loaded'; sessionId: string; messageId?: string; skill?: { name: string; reason: string; words?: Said } }
  | { type: 'notice'; sessionId: string; level: 'info' | 'warning' | 'error'; text: string; words?: Said };
