// What a chat session adds to its workspace session's tools: plan mode as a read-only ceiling over the gate.
import type { Gate, Decision } from '../policy/index.js';
import { categoryOf } from '../policy/index.js';
import type { ToolRegistry } from '../tools/index.js';

const READ_ONLY_RISK = new Set(['read', 'meta']);

/** Plan mode is a read-only ceiling on top of the workspace gate: anything that writes, runs or connects is denied. */
export function planModeGate(inner: Gate, registry: ToolRegistry, planMode: () => boolean): Gate {
  return {
    authorize(call, actor): Decision {
      if (planMode()) {
        const cat = categoryOf(call.access);
        const risk = registry.get(call.tool)?.def.risk ?? 'execute';
        if ((cat !== '@read' && cat !== '@meta') || !READ_ONLY_RISK.has(risk)) {
          return {
            verdict: 'deny',
            reason: `plan mode is read-only: ${call.tool} would ${cat === '@meta' ? risk : cat.slice(1)}; present the plan and wait for the user to leave plan mode`,
          };
        }
      }
      return inner.authorize(call, actor);
    },
  };
}
