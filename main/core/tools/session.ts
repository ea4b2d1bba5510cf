// One conversation's view of the tools: always-loaded tools plus the deferred tools it has discovered
// (found by ToolSearch or run through DeferExecuteTool) — those stay in the prompt for the rest of the session.
import type { ToolExecutor } from './executor.js';
import { toolError } from './errors.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { ToolSearchIndex, ToolSearchResult } from './tool-search.js';
import type { ToolContext, ToolResult } from './types.js';
import { renderToolSection, type PromptTool } from './prompt-cost.js';
import { countTokens } from '../base/index.js';
import { TOOL } from '../policy/index.js';

export const TOOL_SEARCH = TOOL.ToolSearch;
export const DEFER_EXECUTE = TOOL.DeferExecuteTool;

export class ToolSession {
  private readonly discovered = new Set<string>();

  constructor(
    readonly registry: ToolRegistry,
    readonly executor: ToolExecutor,
    readonly index: ToolSearchIndex,
  ) {}

  /** Deferred tools this session has discovered (and that are still registered). */
  discoveredNames(): string[] {
    return [...this.discovered].filter((n) => this.registry.has(n)).sort();
  }

  /** How many tools this session has discovered (it only grows): with the registry's version, a key for caches of the tool list. */
  get discoveredCount(): number {
    return this.discovered.size;
  }

  /** Mark tools as discovered: from now on they go into the prompt with their full schema. */
  discover(names: Iterable<string>): void {
    for (const n of names) if (this.registry.get(n)?.deferred) this.discovered.add(n);
  }

  /**
   * Tools whose full schema goes into the prompt: always-loaded ones and discovered deferred ones. ToolSearch and
   * DeferExecuteTool are left out while there is nothing deferred to find.
   */
  visibleTools(): RegisteredTool[] {
    const anyDeferred = this.registry.list({ deferred: true }).length > 0;
    return this.registry
      .list()
      .filter((t) => !t.deferred || this.discovered.has(t.def.name))
      .filter((t) => anyDeferred || (t.def.name !== TOOL_SEARCH && t.def.name !== DEFER_EXECUTE));
  }

  /** Deferred tools not yet discovered: reachable only through ToolSearch / DeferExecuteTool. */
  hiddenTools(): RegisteredTool[] {
    return this.registry.list({ deferred: true }).filter((t) => !this.discovered.has(t.def.name));
  }

  /**
   * The tool section for the next prompt: full schemas of the visible tools (always-loaded + discovered) and the
   * names of the still-hidden deferred tools, rendered as providers receive them, with its token count.
   */
  promptSection(): { tools: PromptTool[]; deferredNames: string[]; text: string; tokens: number } {
    const tools = this.visibleTools().map((t) => ({
      name: t.def.name,
      description: t.def.description,
      inputSchema: t.def.inputSchema,
    }));
    const deferredNames = this.hiddenTools().map((t) => t.def.name);
    const text = renderToolSection(tools, { deferredNames });
    return { tools, deferredNames, text, tokens: countTokens(text) };
  }

  search(query: string, limit = 5): ToolSearchResult {
    const r = this.index.search(query, limit);
    this.discover(r.tools.map((t) => t.name));
    return r;
  }

  /** A direct call by name: allowed for visible tools; a hidden deferred tool must be found or deferred-executed first. */
  async call(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    const t = this.registry.get(name);
    if (t?.deferred && !this.discovered.has(name)) {
      return toolError(
        'tool.unavailable',
        `${name} is a deferred tool: find it with ${TOOL_SEARCH} or run it with ${DEFER_EXECUTE}`,
      );
    }
    return this.executor.execute(name, args, ctx);
  }

  /** DeferExecuteTool: load the full schema, validate, authorize and run any registered tool but the meta tools. */
  async deferExecute(name: string, args: unknown, ctx: ToolContext): Promise<ToolResult> {
    if (name === DEFER_EXECUTE || name === TOOL_SEARCH) {
      return toolError('tool.invalid_args', `${DEFER_EXECUTE} cannot run ${name}; call it directly`);
    }
    const real = this.registry.has(name) ? name : this.index.resolveName(name);
    if (!real || !this.registry.has(real)) {
      const near = this.index.search(name, 3).tools.map((t) => t.name);
      return toolError(
        'tool.unknown',
        `unknown tool "${name}"${near.length ? ` (did you mean: ${near.join(', ')}?)` : ''}`,
        { suggestions: near },
      );
    }
    this.discover([real]);
    return this.executor.execute(real, args, ctx);
  }
}
