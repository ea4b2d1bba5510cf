// The grants a tool call carries into its handler: the gate's decision (with the real paths it checked) and a
// per-file read check, so tools that walk folders (grep, glob, list_dir) return only what the caller may read.
import type { Gate, Decision } from '../policy/index.js';
import type { ToolContext } from './types.js';

/** `ctx` for the handler of an authorized call: the decision, and the same grants for every file it returns. */
export function withGrants(
  ctx: ToolContext,
  gate: Gate,
  tool: string,
  args: Record<string, unknown>,
  decision: Decision,
): ToolContext {
  return {
    ...ctx,
    decision,
    mayRead: (path) => {
      try {
        return gate.authorize({ tool, args, access: { read: [path] } }, ctx.actor).verdict === 'allow';
      } catch {
        return false;
      }
    },
  };
}
