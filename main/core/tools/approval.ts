// Asking the user about a call the gate marked `ask`: the approver answers once | always | deny, and "always" is kept
// as a reusable rule (policy/answers.ts) so the next identical call is allowed without asking. One shape for every caller.
import type { PolicyRepo, Rule } from '../store/index.js';
import type { Access, Actor, Decision } from '../policy/index.js';
import { recordAnswer } from '../policy/index.js';

export interface ApprovalRequest {
  tool: string;
  args: Record<string, unknown>;
  access: Access;
  actor: Actor;
  /** The gate's reason for asking. */
  reason: string;
  /** The whole decision: the rule and scope that spoke, the acting skill's identity (an "always" binds to it). */
  decision?: Decision;
}

/** `once`: run this call; `always`: run it and allow calls like it from now on (a stored rule); `deny`: do not run it. */
export type ApprovalAnswer = 'once' | 'always' | 'deny';

/** An answer with the rules of the "always" preview the user kept (by position): unticking narrows what is stored. */
export interface ApprovalReply {
  answer: ApprovalAnswer;
  only?: number[];
}

/** Answers an 'ask' verdict: the CLI asks on the terminal, the app shows a dialog, tests answer explicitly. */
export type Approver = (req: ApprovalRequest) => Promise<ApprovalAnswer | ApprovalReply>;

export interface AskOptions {
  /** Without an approver every 'ask' is declined. */
  approver?: Approver;
  /** Where "always" is kept (the store's policy repository); without it "always" allows this call only. */
  rules?: PolicyRepo;
  /** The workspace the rule is limited to. */
  workspace: string;
}

export interface AskResult {
  allowed: boolean;
  /** Undefined when no one could be asked (or the approver failed). */
  answer?: ApprovalAnswer;
  /** Rules stored for an "always". */
  rules: Rule[];
}

/** Ask, and keep an "always" as a rule. An approver that throws or answers anything else counts as "deny". */
export async function askApproval(req: ApprovalRequest, opts: AskOptions): Promise<AskResult> {
  if (!opts.approver) return { allowed: false, rules: [] };
  let answer: ApprovalAnswer;
  let only: number[] | undefined;
  try {
    const r: unknown = await opts.approver(req);
    const a = typeof r === 'object' && r !== null ? (r as ApprovalReply).answer : r;
    answer = a === 'once' || a === 'always' ? a : 'deny';
    if (typeof r === 'object' && r !== null && Array.isArray((r as ApprovalReply).only))
      only = (r as ApprovalReply).only;
  } catch {
    return { allowed: false, rules: [] };
  }
  const { allowed, rules } = recordAnswer(
    opts.rules,
    { tool: req.tool, args: req.args, access: req.access },
    req.actor,
    opts.workspace,
    answer,
    req.decision,
    only,
  );
  return { allowed, answer, rules };
}
