// Runs one tool call the only allowed way: look up → validate arguments (Ajv) → describe access → gate.authorize
// → ('ask' → the approver: once | always | deny, "always" kept as a rule) → handler → onDecision. Never throws.
import type { Access, Decision, Gate } from '../policy/index.js';
import type { PolicyRepo } from '../store/index.js';
import { askApproval, type ApprovalAnswer, type Approver } from './approval.js';
import { errorFromThrown, toolError, toolRefusal } from './errors.js';
import { say } from '../base/index.js';
import { withGrants } from './grants.js';
import { formatProblems } from './validate.js';
import type { ToolRegistry } from './registry.js';
import type { ToolContext, ToolResult } from './types.js';

export interface ExecutorOptions {
  registry: ToolRegistry;
  gate: Gate;
  /** Without an approver every 'ask' is declined. */
  approver?: Approver;
  /** Where an "always" answer is kept as a reusable rule (the store's policy repository). */
  rules?: PolicyRepo;
  /**
   * Called after each decision (for logs and the session record). For an `ask`: whether it ran, and the answer
   * (undefined when no one could be asked).
   */
  onDecision?: (
    call: { tool: string; args: Record<string, unknown>; access: Access },
    decision: Decision,
    approved?: boolean,
    answer?: ApprovalAnswer,
  ) => void;
}

/** Per call: another approver (a skill script's call holds the script's clock while asking). */
export interface ExecuteOptions {
  approver?: Approver;
}

export type { ApprovalAnswer, ApprovalRequest, Approver } from './approval.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decideNow(
  gate: Gate,
  call: { tool: string; args: Record<string, unknown>; access: Access },
  ctx: ToolContext,
): Decision {
  try {
    return gate.authorize(call, ctx.actor);
  } catch (e) {
    // A gate that cannot decide must never let the call through.
    return { verdict: 'deny', reason: `the policy gate failed: ${(e as Error).message}` };
  }
}

export class ToolExecutor {
  constructor(private readonly opts: ExecutorOptions) {}

  async execute(name: string, rawArgs: unknown, ctx: ToolContext, over: ExecuteOptions = {}): Promise<ToolResult> {
    const tool = this.opts.registry.get(name);
    if (!tool) {
      // A tool the ceiling stopped offering (Settings, mid-conversation) is refused as the gate would say it.
      if (this.opts.registry.notOffered.has(name)) {
        const call = { tool: name, args: isPlainObject(rawArgs) ? rawArgs : {}, access: {} };
        return this.refuse(call, {
          verdict: 'deny',
          reason: `${name} is not offered in this workspace (settings policy.ceiling.tools)`,
        });
      }
      return toolError('tool.unknown', `unknown tool "${name}"`);
    }
    const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
    if (!isPlainObject(args)) {
      return toolError('tool.invalid_args', `invalid arguments for ${name}: (arguments): must be an object`, {
        problems: [{ field: '(arguments)', message: 'must be an object' }],
      });
    }
    const problems = tool.validate(args);
    if (problems.length) {
      if (problems[0]?.field === '(schema)')
        return toolError('tool.schema', `${name} cannot be called: ${problems[0].message}`);
      return toolError('tool.invalid_args', formatProblems(name, problems), { problems });
    }

    let access: Access;
    try {
      access = tool.def.access(args, ctx);
    } catch (e) {
      return toolError('tool.invalid_args', `${name}: ${(e as Error).message}`);
    }
    const call = { tool: name, args, access };
    // The gate decides on what the handler will meet (bash: the sandbox once it has answered), not on a start under way.
    await tool.def.ready?.().catch(() => undefined);
    const decision = decideNow(this.opts.gate, call, ctx);
    if (decision.verdict === 'deny') return this.refuse(call, decision);
    if (decision.verdict === 'ask') {
      const approver = over.approver ?? this.opts.approver;
      const asked = await askApproval(
        { tool: name, args, access, actor: ctx.actor, reason: decision.reason, decision },
        {
          ...(approver ? { approver } : {}),
          ...(this.opts.rules ? { rules: this.opts.rules } : {}),
          workspace: ctx.workspace,
        },
      );
      this.opts.onDecision?.(call, decision, asked.allowed, asked.answer);
      if (!asked.allowed) {
        const reason = decision.words ?? decision.reason;
        return toolRefusal(
          'tool.declined',
          say(approver ? 'tool.declinedByUser' : 'tool.declinedNoOne', { tool: name, reason }),
          { reason: decision.reason },
        );
      }
      // The user answered later: the gate is asked again (the ceiling may have been narrowed in Settings, or a deny
      // rule added, while the question waited), and a call it now denies does not run — the answer never widens it.
      const again = decideNow(this.opts.gate, call, ctx);
      if (again.verdict === 'deny') return this.refuse(call, again);
    } else {
      this.opts.onDecision?.(call, decision);
    }
    try {
      return await tool.def.handler(args, withGrants(ctx, this.opts.gate, name, args, decision));
    } catch (e) {
      return errorFromThrown(e, name);
    }
  }

  /** A call the gate (or the ceiling's tool list) denies: the decision is reported, and the call refused with its reason. */
  private refuse(
    call: { tool: string; args: Record<string, unknown>; access: Access },
    decision: Decision,
  ): ToolResult {
    this.opts.onDecision?.(call, decision);
    return toolRefusal(
      'tool.denied',
      say('tool.denied', { tool: call.tool, reason: decision.words ?? decision.reason }),
      {
        reason: decision.reason,
        ruleId: decision.ruleId,
      },
    );
  }
}
