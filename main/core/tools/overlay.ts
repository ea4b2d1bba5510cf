// The shared tool registry seen by one session: some tools replaced by session-bound ones of the same name (the
// session's Skill loads into its loader, its ToolSearch discovers into its ToolSession); everything else passes through.
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { ToolDefinition } from './types.js';

/**
 * `base` with the tools in `over` replaced, by name, while `base` holds a tool of that name (its source, deferral and
 * validation stay those of the shared tool). Registrations and removals still happen on `base`.
 */
export function overlayRegistry(base: ToolRegistry, over: ReadonlyMap<string, ToolDefinition>): ToolRegistry {
  const swap = (t: RegisteredTool | undefined): RegisteredTool | undefined => {
    const def = t && over.get(t.def.name);
    return t && def ? { ...t, def } : t;
  };
  return new Proxy(base, {
    get(target, prop) {
      if (prop === 'get') return (name: string) => swap(target.get(name));
      if (prop === 'list') return (filter?: { deferred?: boolean }) => target.list(filter).map((t) => swap(t)!);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
