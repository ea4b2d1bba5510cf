// Runs one tool call the only allowed way: look up → validate arguments (Ajv) → describe access → gate.authorize
// → ('ask' → the injected approver) → handler. Every failure comes back as a structured ToolResult, never a throw.
import type { Access, Actor, Decision, Gate } from '../policy/types.js';
import { errorFromThrown, toolError } from './errors.js';
import { withGrants } from './grants.js';
import { formatProblems } from './validate.js';
import type { ToolRegistry } from './registry.js';
import type { ToolContext, ToolResult } from './types.js';

export interface ApprovalRequest {
  tool: string;
  args: Record<string, unknown>;
  access: Access;
  actor: Actor;
  /** The gate's reason for asking. */
  reason: string;
  /** The whole decision: the rule and scope that spoke, the acting skill's identity. */
  decision?: Decision;
}

/** Answers an 'ask' verdict: the CLI asks on the terminal, the app shows a dialog, tests answer explicitly. */
export type Approver = (req: ApprovalRequest) => Promise<boolean>;

export interface ExecutorOptions {
  registry: ToolRegistry;
  gate: Gate;
  /** Without an approver every 'ask' is declined. */
  approver?: Approver;
  /** Called after each decision (for logs and the session record). */
  onDecision?: (call: { tool: string; args: Record<string, unknown>; access: Access }, decision: Decision, approved?: boolean) => void;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ToolExecutor {
  constructor(private readonly opts: ExecutorOptions) {}

  get registry(): ToolRegistry {
    return this.opts.registry;
  }

  async execute(name: string, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult> {
    const tool = this.opts.registry.get(name);
    if (!tool) return toolError('tool.unknown', `unknown tool "${name}"`);
    const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
    if (!isPlainObject(args)) {
      return toolError('tool.invalid_args', `invalid arguments for ${name}: (arguments): must be an object`, {
        problems: [{ field: '(arguments)', message: 'must be an object' }],
      });
    }
    const problems = tool.validate(args);
    if (problems.length) {
      if (problems[0]?.field === '(schema)') return toolError('tool.schema', `${name} cannot be called: ${problems[0].message}`);
      return toolError('tool.invalid_args', formatProblems(name, problems), { problems });
    }

    let access: Access;
    try {
      access = tool.def.access(args, ctx);
    } catch (e) {
      return toolError('tool.invalid_args', `${name}: ${(e as Error).message}`);
    }
    const call = { tool: name, args, access };
    let decision: Decision;
    try {
      decision = this.opts.gate.authorize(call, ctx.actor);
    } catch (e) {
      // A gate that cannot decide must never let the call through.
      decision = { verdict: 'deny', reason: `the policy gate failed: ${(e as Error).message}` };
    }
    if (decision.verdict === 'deny') {
      this.opts.onDecision?.(call, decision);
      return toolError('tool.denied', `${name} denied: ${decision.reason}`, { reason: decision.reason, ruleId: decision.ruleId });
    }
    if (decision.verdict === 'ask') {
      let approved = false;
      if (this.opts.approver) {
        try {
          approved = await this.opts.approver({ tool: name, args, access, actor: ctx.actor, reason: decision.reason, decision });
        } catch {
          approved = false;
        }
      }
      this.opts.onDecision?.(call, decision, approved);
      if (!approved) {
        const why = this.opts.approver ? 'the user declined' : 'it needs approval and no one can approve here';
        return toolError('tool.declined', `${name} was not run: ${why} (${decision.reason})`, { reason: decision.reason });
      }
    } else {
      this.opts.onDecision?.(call, decision);
    }
    try {
      return await tool.def.handler(args, withGrants(ctx, this.opts.gate, name, args, decision));
    } catch (e) {
      return errorFromThrown(e, name);
    }
  }
}
