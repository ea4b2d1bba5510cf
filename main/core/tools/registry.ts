// The one tool registry: unique names, compiled input validators, and which tools are deferred
// (kept out of the prompt) — the tool's own default, overridden by settings.tools.deferred / alwaysLoaded.
import { compileValidator, type ArgProblem, type Validator } from './validate.js';
import { zodValidator } from './define.js';
import { isValidToolName } from './names.js';
import type { ToolDefinition } from './types.js';
import { toolsWhere } from '../policy/index.js';

const ALWAYS_OFFERED = toolsWhere((s) => s.alwaysOffered === true);

/** Where a tool came from: shown in listings, used to remove a connector's tools together. */
export type ToolSource = 'builtin' | 'meta' | 'skill' | 'catalog' | `mcp:${string}`;

export interface RegistryOptions extends Partial<DeferralSettings> {
  /**
   * Tools the harness offers at all (settings policy.ceiling.tools; `*` = all). A tool outside it is not
   * registered — it cannot be listed, found or called. ToolSearch and DeferExecuteTool are always offered (tool-table.ts).
   */
  offered?: string[];
}

export interface DeferralSettings {
  /** Names (or `*` patterns such as `mcp__github__*`) to defer in addition to the tools' defaults. */
  deferred: string[];
  /** Names (or patterns) to always load, even if deferred by default. Wins over `deferred`. */
  alwaysLoaded: string[];
}

// The registry stores tools of any argument type; handlers get validated arguments.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any>;

export interface RegisteredTool {
  def: AnyTool;
  source: ToolSource;
  /** Effective deferral after settings. */
  deferred: boolean;
  validate: Validator;
}

export type RegistryEvent = { kind: 'add'; tool: RegisteredTool } | { kind: 'remove'; name: string };

function patternMatcher(patterns: string[]): (name: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const globs = patterns
    .filter((p) => p.includes('*'))
    .map(
      (p) =>
        new RegExp(
          `^${p
            .split('*')
            .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
        ),
    );
  return (name) => exact.has(name) || globs.some((g) => g.test(name));
}

function offeredBy(offered: string[]): (name: string) => boolean {
  const match = patternMatcher(offered);
  return (name) => ALWAYS_OFFERED.has(name) || match(name);
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  /** The tools sorted by name, kept until the next registration or removal (prompt assembly lists them every turn). */
  private sorted: RegisteredTool[] | undefined;
  private changes = 0;
  private readonly listeners = new Set<(e: RegistryEvent) => void>();
  private readonly isForcedDeferred: (name: string) => boolean;
  private readonly isForcedLoaded: (name: string) => boolean;
  private isOffered: (name: string) => boolean;
  /** Names refused because the ceiling does not offer them. */
  readonly notOffered = new Set<string>();
  /**
   * Their definitions, registered should the ceiling offer them later (setOffered); a tool taken out of the registry
   * keeps its registration (its schema compiled or still lazy), so offering it again compiles nothing.
   */
  private readonly held = new Map<string, { def: AnyTool; source: ToolSource; lazy: boolean; tool?: RegisteredTool }>();

  constructor(settings: RegistryOptions = {}) {
    this.isForcedDeferred = patternMatcher(settings.deferred ?? []);
    this.isForcedLoaded = patternMatcher(settings.alwaysLoaded ?? []);
    this.isOffered = offeredBy(settings.offered ?? ['*']);
  }

  /**
   * The ceiling's tool list changed (Settings, while the workspace stays open): tools it no longer offers are removed
   * at once (not listed, found or callable); tools it offers now that were refused before are registered. Returns
   * the problems of those (one line each), as registerAll does.
   */
  setOffered(offered: string[]): string[] {
    const problems: string[] = [];
    this.isOffered = offeredBy(offered);
    for (const t of [...this.tools.values()]) {
      if (this.isOffered(t.def.name)) continue;
      this.unregister(t.def.name);
      this.notOffered.add(t.def.name);
      this.held.set(t.def.name, { def: t.def, source: t.source, lazy: false, tool: t });
    }
    for (const [name, h] of [...this.held]) {
      if (!this.isOffered(name)) continue;
      this.held.delete(name);
      this.notOffered.delete(name);
      try {
        if (this.tools.has(name)) continue;
        if (h.tool) this.add(h.tool);
        else this.register(h.def, h.source, { lazy: h.lazy });
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    return problems;
  }

  /**
   * Register a tool. Throws with a readable message on a bad or duplicate name or an invalid schema.
   * `lazy` defers compiling the schema to the first call (large imported catalogs); a bad schema then
   * surfaces as a `tool.schema` error on that call instead of here.
   */
  register(def: AnyTool, source: ToolSource = 'builtin', opts: { lazy?: boolean } = {}): RegisteredTool | undefined {
    if (!isValidToolName(def.name)) {
      throw new Error(`tool name "${def.name}" is invalid: use letters, digits, "_" or "-", at most 64 characters`);
    }
    if (!this.isOffered(def.name)) {
      this.notOffered.add(def.name);
      this.held.set(def.name, { def, source, lazy: opts.lazy === true });
      return undefined;
    }
    const existing = this.tools.get(def.name);
    if (existing) throw new Error(`tool "${def.name}" is already registered (from ${existing.source})`);
    if (typeof def.inputSchema !== 'object' || def.inputSchema === null || Array.isArray(def.inputSchema)) {
      throw new Error(`tool "${def.name}": input schema must be a JSON object`);
    }
    let validate: Validator;
    if (def.input) {
      validate = zodValidator(def.input);
    } else if (opts.lazy) {
      let compiled: Validator | undefined;
      let failure: string | undefined;
      validate = (args) => {
        if (!compiled && !failure) {
          try {
            compiled = compileValidator(def.inputSchema);
          } catch (e) {
            failure = (e as Error).message;
          }
        }
        return compiled ? compiled(args) : [{ field: '(schema)', message: failure ?? 'invalid input schema' }];
      };
    } else {
      try {
        validate = compileValidator(def.inputSchema);
      } catch (e) {
        throw new Error(`tool "${def.name}": ${(e as Error).message}`);
      }
    }
    const deferred = this.isForcedLoaded(def.name) ? false : this.isForcedDeferred(def.name) ? true : def.deferLoading;
    const tool: RegisteredTool = { def, source, deferred, validate };
    this.add(tool);
    return tool;
  }

  private add(tool: RegisteredTool): void {
    this.tools.set(tool.def.name, tool);
    this.sorted = undefined;
    this.changes++;
    this.emit({ kind: 'add', tool });
  }

  /** Register many; returns the problems (one line each) instead of stopping at the first bad tool. */
  registerAll(defs: Iterable<AnyTool>, source: ToolSource = 'builtin', opts: { lazy?: boolean } = {}): string[] {
    const problems: string[] = [];
    for (const d of defs) {
      try {
        this.register(d, source, opts);
      } catch (e) {
        problems.push((e as Error).message);
      }
    }
    return problems;
  }

  unregister(name: string): boolean {
    this.held.delete(name);
    if (!this.tools.delete(name)) return false;
    this.sorted = undefined;
    this.changes++;
    this.emit({ kind: 'remove', name });
    return true;
  }

  /** Remove every tool from one source (e.g. a connector that went down). Returns the names removed. */
  unregisterSource(source: ToolSource): string[] {
    const names = [...this.tools.values()].filter((t) => t.source === source).map((t) => t.def.name);
    for (const n of names) this.unregister(n);
    for (const [n, h] of [...this.held]) if (h.source === source) this.held.delete(n);
    return names;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(filter: { deferred?: boolean } = {}): RegisteredTool[] {
    const all = (this.sorted ??= [...this.tools.values()].sort((a, b) => a.def.name.localeCompare(b.def.name)));
    return filter.deferred === undefined ? [...all] : all.filter((t) => t.deferred === filter.deferred);
  }

  /** Changes with every registration and removal: what callers key their caches of the tool list on. */
  get version(): number {
    return this.changes;
  }

  validate(name: string, args: unknown): ArgProblem[] {
    const t = this.tools.get(name);
    if (!t) return [{ field: '(tool)', message: `unknown tool "${name}"` }];
    return t.validate(args);
  }

  /** Subscribe to additions and removals; returns the unsubscribe function. */
  subscribe(listener: (e: RegistryEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: RegistryEvent): void {
    for (const l of this.listeners) l(e);
  }
}
