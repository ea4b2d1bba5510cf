// A conversation's approvals: what the card shows for an `ask` (the rules "always" would store, which of them widen,
// the call's risks), waiting for the user's answer, answers given before a restart, and --yes.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  alwaysSaid,
  alwaysWidens,
  callRisks,
  decisionFields,
  type DecisionFields,
  type RiskLine,
} from '../policy/index.js';
import { english, type Said } from '../base/index.js';
import type { ApprovalRequest } from '../tools/index.js';
import type { AgentEventBody, ApprovalAnswer, PendingApproval } from './types.js';

/** What approvals need of their conversation. */
export interface ApprovalsHost {
  readonly workspace: string;
  /** Whether the ceiling lets anything reach the network (the risk lines say so). */
  networkAllowed(): boolean;
  /** Answer every `ask` with allow-once (`--yes`); `deny` stays deny. */
  autoApprove(): boolean;
  /** The skills the conversation has loaded (shown with the request). */
  activeSkills(): string[];
  /** Commit an event and show it (ChatSession.record). */
  record(body: AgentEventBody): void;
}

export class Approvals {
  private readonly waiters = new Map<string, { resolve: (a: ApprovalAnswer) => void; req: ApprovalRequest }>();
  /** Answers to approvals asked before a restart, by call id: the call runs (or is refused) when the turn resumes. */
  private readonly preAnswered = new Map<string, ApprovalAnswer>();
  /** The message of the user's deny of the running call, if any (it goes back to the model with the refusal). */
  denyMessage: string | undefined;
  /** Time the running tool call has spent waiting for the user's answer (left out of its duration). */
  waitMs = 0;

  constructor(private readonly host: ApprovalsHost) {}

  /** The user moved on (a new message): answers given before a restart no longer apply. */
  dropPreAnswered(): void {
    this.preAnswered.clear();
  }

  /**
   * The executor asks here (for call `callId`); an "always" is stored by the executor in the workspace's rule store
   * (what `knack policy` lists).
   */
  async ask(req: ApprovalRequest, callId: string): Promise<ApprovalAnswer> {
    const fields = decisionFields(req.decision);
    this.host.record({ type: 'gate_decision', callId, tool: req.tool, verdict: 'ask', reason: req.reason, ...fields });
    let answer = this.preAnswered.get(callId);
    if (answer) {
      this.preAnswered.delete(callId);
    } else if (this.host.autoApprove()) {
      // The user's rules cannot all be read: a deny among them must not be answered away by a standing yes.
      const refuse = req.decision?.rulesUnreadable === true;
      answer = refuse
        ? { kind: 'deny', message: 'refused: --yes does not answer while your rules cannot be read' }
        : { kind: 'once' };
      const approvalId = randomUUID().slice(0, 8);
      this.requested(approvalId, callId, req, fields, this.preview(req));
      this.host.record({
        type: 'approval_answered',
        approvalId,
        answer: answer.kind,
        message: refuse ? answer.message! : 'approved by --yes',
      });
    } else {
      const approvalId = randomUUID().slice(0, 8);
      const asked = performance.now();
      answer = await new Promise<ApprovalAnswer>((resolve) => {
        this.waiters.set(approvalId, { resolve, req });
        this.requested(approvalId, callId, req, fields, this.offer(req));
      });
      // The call's duration is its run: the time the user took to answer is not the tool's.
      this.waitMs += performance.now() - asked;
    }
    if (answer.kind === 'deny') this.denyMessage = answer.message;
    return answer;
  }

  /**
   * The user answers a pending approval: recorded (with the rules an "always" stores), then the waiting call goes on.
   * False when nobody waits for it (asked before a restart): the answer is kept for the call when the turn resumes.
   */
  answer(pending: PendingApproval, answer: ApprovalAnswer): boolean {
    const w = this.waiters.get(pending.approvalId);
    let rules: string[] | undefined;
    // What the executor stores for "always" as it resumes (the preview shown with the request).
    if (answer.kind === 'always')
      rules = answer.only ? pending.alwaysPreview.filter((_, i) => answer.only!.includes(i)) : pending.alwaysPreview;
    this.host.record({
      type: 'approval_answered',
      approvalId: pending.approvalId,
      answer: answer.kind,
      ...(answer.message ? { message: answer.message } : {}),
      ...(rules ? { rules } : {}),
    });
    if (w) {
      this.waiters.delete(pending.approvalId);
      w.resolve(answer);
      return true;
    }
    this.preAnswered.set(pending.callId, answer);
    return false;
  }

  /** The user stopped the turn: every waiting approval is denied. */
  denyWaiting(): void {
    for (const [id, w] of [...this.waiters]) {
      this.waiters.delete(id);
      this.host.record({
        type: 'approval_answered',
        approvalId: id,
        answer: 'deny',
        message: 'the user stopped the turn',
      });
      w.resolve({ kind: 'deny', message: 'the user stopped the turn' });
    }
  }

  /** What the card shows: the rules "always" would store, which of them widen, and the call's risk lines. */
  /** Record the request the user (or --yes) answers, with what the card shows of it (`shown`). */
  private requested(
    approvalId: string,
    callId: string,
    req: ApprovalRequest,
    fields: DecisionFields,
    shown: ReturnType<Approvals['preview']> | ReturnType<Approvals['offer']>,
  ): void {
    this.host.record({
      type: 'approval_requested',
      approvalId,
      callId,
      tool: req.tool,
      args: req.args,
      reason: req.reason,
      ...(req.decision?.words ? { words: req.decision.words } : {}),
      activeSkills: this.host.activeSkills(),
      ...shown,
      ...(Object.keys(fields).length ? { decision: fields } : {}),
    });
  }

  private offer(req: ApprovalRequest): {
    alwaysPreview: string[];
    alwaysWords: Said[];
    alwaysWidens: ('network' | 'outside' | null)[];
    risks: RiskLine[];
  } {
    const call = { tool: req.tool, args: req.args, access: req.access };
    const risks = callRisks(req.access, this.host.workspace, this.host.networkAllowed());
    return {
      ...this.preview(req),
      alwaysWidens: alwaysWidens(call, req.actor, this.host.workspace, risks, req.decision),
      risks,
    };
  }

  /** The rules "always" would store, as words and as their English (the CLI, the log, what is stored). */
  private preview(req: ApprovalRequest): { alwaysPreview: string[]; alwaysWords: Said[] } {
    const words = alwaysSaid(
      { tool: req.tool, args: req.args, access: req.access },
      req.actor,
      this.host.workspace,
      req.decision,
    );
    return { alwaysPreview: words.map(english), alwaysWords: words };
  }
}
