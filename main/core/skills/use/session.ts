// One conversation's state over an open workspace: the skills it has loaded (with the context projection), the deferred
// tools it has discovered, and the actor the gate sees for the model — whose active skills are exactly the loaded ones.
//
// API (KnackWorkspace.newSession() builds it; the agent builds on it):
//   session.loader              SkillLoader: load(name, reason), projection(), loadedSkills() — this conversation's only
//   session.tools               ToolSession: visibleTools(), hiddenTools(), promptSection(), search(), discoveredNames()
//   session.actor()             { kind: 'agent', activeSkills: <loaded skills> } — what the gate judges the model as
//   session.call(name, args)    run a tool as the model: visible tools directly, hidden deferred ones refused
// The model's Skill, SkillSearch, ToolSearch and DeferExecuteTool act on this session (not on the workspace): loading a
// skill through the Skill tool adds it to `loader`, and from the next call on its manifest binds the model.
import type { Actor, Gate } from '../../policy/index.js';
import type { PolicyRepo } from '../../store/index.js';
import { ToolExecutor, type ExecutorOptions } from '../../tools/index.js';
import type { Approver } from '../../tools/index.js';
import { overlayRegistry } from '../../tools/index.js';
import { ToolSession } from '../../tools/index.js';
import { deferExecuteTool, toolSearchTool } from '../../tools/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { ToolSearchIndex } from '../../tools/index.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../../tools/index.js';
import { SkillLoader } from './loader.js';
import { skillTools, type SkillToolDeps } from './skill-tools.js';

export interface SessionOptions {
  workspace: string;
  /** The workspace's shared tools: registry and deferred-tool index. */
  registry: ToolRegistry;
  index: ToolSearchIndex;
  gate: Gate;
  approver?: Approver;
  /** Where an "always" answer is kept. */
  rules?: PolicyRepo;
  onDecision?: ExecutorOptions['onDecision'];
  /** For the session's own skill tools (its Skill loads into this session's loader). */
  skills: Omit<SkillToolDeps, 'loader'>;
}

export class WorkspaceSession {
  readonly loader: SkillLoader;
  readonly tools: ToolSession;
  private readonly workspace: string;

  constructor(opts: SessionOptions) {
    this.workspace = opts.workspace;
    this.loader = new SkillLoader((n) => opts.skills.catalog.get(n));
    const over = new Map<string, ToolDefinition>();
    const registry = overlayRegistry(opts.registry, over);
    const executor = new ToolExecutor({
      registry,
      gate: opts.gate,
      ...(opts.approver ? { approver: opts.approver } : {}),
      ...(opts.rules ? { rules: opts.rules } : {}),
      ...(opts.onDecision ? { onDecision: opts.onDecision } : {}),
    });
    this.tools = new ToolSession(registry, executor, opts.index);
    for (const t of skillTools({ ...opts.skills, loader: this.loader })) over.set(t.name, t);
    for (const t of [toolSearchTool(this.tools), deferExecuteTool(this.tools)])
      over.set(t.name, t as unknown as ToolDefinition);
  }

  /** The model as the gate sees it in this conversation: bound by the manifests of the skills it has loaded. */
  actor(): Actor {
    return { kind: 'agent', activeSkills: this.loader.loadedSkills() };
  }

  /** Run a tool as the model in this conversation; `onProcess` hears of each process group the tool starts. */
  call(name: string, args: unknown, signal?: AbortSignal, onProcess?: ToolContext['onProcess']): Promise<ToolResult> {
    return this.tools.call(name, args, {
      workspace: this.workspace,
      actor: this.actor(),
      ...(signal ? { signal } : {}),
      ...(onProcess ? { onProcess } : {}),
    });
  }
}
