// One session's view of the workspace tools: the shared registry seen through session-bound Skill, ToolSearch and
// DeferExecuteTool (so loads and discoveries land in this session), one executor over the plan-mode-aware gate.
import type { Gate, Decision } from '../policy/types.js';
import { categoryOf } from '../policy/rules.js';
import type { ToolRegistry, RegisteredTool } from '../tools/registry.js';
import { ToolExecutor, type Approver } from '../tools/executor.js';
import { ToolSession } from '../tools/session.js';
import { deferExecuteTool, toolSearchTool } from '../tools/meta-tools.js';
import type { ToolSearchIndex } from '../tools/tool-search.js';
import type { ToolDefinition, ToolResult } from '../tools/types.js';
import { compileValidator } from '../tools/validate.js';

/** The shared registry with some tools replaced for this session (everything else passes through). */
export function overlayRegistry(base: ToolRegistry, over: Map<string, RegisteredTool>): ToolRegistry {
  return new Proxy(base, {
    get(target, prop) {
      if (prop === 'get') return (n: string) => (target.has(n) ? (over.get(n) ?? target.get(n)) : undefined);
      if (prop === 'list') return (f?: { deferred?: boolean }) => target.list(f).map((t) => over.get(t.def.name) ?? t);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const READ_ONLY_RISK = new Set(['read', 'meta']);

/** Plan mode is a read-only ceiling on top of the workspace gate: anything that writes, runs or connects is denied. */
export function planModeGate(inner: Gate, registry: ToolRegistry, planMode: () => boolean): Gate {
  return {
    authorize(call, actor): Decision {
      if (planMode()) {
        const cat = categoryOf(call.access);
        const risk = registry.get(call.tool)?.def.risk ?? 'execute';
        if ((cat !== '@read' && cat !== '@meta') || !READ_ONLY_RISK.has(risk)) {
          return { verdict: 'deny', reason: `plan mode is read-only: ${call.tool} would ${cat === '@meta' ? risk : cat.slice(1)}; present the plan and wait for the user to leave plan mode` };
        }
      }
      return inner.authorize(call, actor);
    },
  };
}

export interface SessionToolsOptions {
  registry: ToolRegistry;
  index: ToolSearchIndex;
  gate: Gate;
  approver: Approver;
  planMode: () => boolean;
  onDecision: (tool: string, decision: Decision) => void;
  /** The session's Skill handler (loads into this session and records the projection). */
  loadSkill: (name: string) => Promise<ToolResult>;
}

export interface SessionTools {
  session: ToolSession;
  registry: ToolRegistry;
}

export const SKILL_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, description: 'The skill name, exactly as listed in <available_skills> or returned by SkillSearch.' } },
  required: ['name'],
  additionalProperties: false,
};

function replace(base: ToolRegistry, def: ToolDefinition, over: Map<string, RegisteredTool>): void {
  const b = base.get(def.name);
  if (b) over.set(def.name, { ...b, def });
}

export function sessionTools(o: SessionToolsOptions): SessionTools {
  const over = new Map<string, RegisteredTool>();
  const registry = overlayRegistry(o.registry, over);
  const executor = new ToolExecutor({
    registry,
    gate: planModeGate(o.gate, registry, o.planMode),
    approver: o.approver,
    onDecision: (call, decision) => {
      if (decision.verdict !== 'ask') o.onDecision(call.tool, decision);
    },
  });
  const session = new ToolSession(registry, executor, o.index);
  const base = o.registry.get('Skill');
  if (base) {
    // The catalog already lists the names: an enum of every skill would cost thousands of tokens with a large
    // catalog (1,700 skills ≈ 8,000 tokens) on every call. An unknown name comes back as an error naming it.
    const skill: ToolDefinition = { ...base.def, inputSchema: SKILL_SCHEMA, handler: async (args) => o.loadSkill(typeof args.name === 'string' ? args.name : '') };
    over.set('Skill', { ...base, def: skill, validate: compileValidator(SKILL_SCHEMA) });
  }
  replace(o.registry, toolSearchTool(session) as unknown as ToolDefinition, over);
  replace(o.registry, deferExecuteTool(session) as unknown as ToolDefinition, over);
  return { session, registry };
}
