// A conversation's prompt: assembled from the workspace, its catalog, the loaded skills, the tools and the messages,
// with the caches that keep a turn's assembly cheap, and the projection that says what went in and why.
import type { Catalog } from '../skills/catalog/index.js';
import type { CatalogEntry } from '../skills/format/index.js';
import type { WorkspaceSession } from '../skills/use/index.js';
import type { Settings } from '../config/index.js';
import type { PromptTool } from '../tools/index.js';
import type { SessionState } from './state.js';
import {
  assemblePrompt,
  MessageTokens,
  promptCacheFor,
  TextTokens,
  type AssembledPrompt,
  type PromptCache,
} from './prompt.js';
import type { ProjectionEntry } from './types.js';
import { english } from '../base/index.js';
import {
  folderInstructions,
  foldersTo,
  instructionsWords,
  type MayRead,
  type ProjectInstructions,
} from './project-instructions.js';
import { renderInstructions } from './prompt.js';
import { agentMayRead, TOOL, type Gate } from '../policy/index.js';

export interface PromptSource {
  readonly workspace: string;
  readonly catalog: Catalog;
  readonly settings: Settings;
  readonly state: SessionState;
  /** The model's context window (the provider's, else the catalog setting's). */
  contextWindow(): number;
  /** The model in use reads images (without a model: as if it did, the most an image can take). */
  vision(): boolean;
  /** The loaded skills' instructions, in order. */
  loadedBodies(): Parameters<typeof assemblePrompt>[0]['loaded'];
  /** The gate the model's calls pass: a file it denies the model is not read as instructions either. */
  readonly gate: Gate;
}

export class SessionPrompt {
  /** What assembly reads (made once per session, not on every call). */
  private readonly catalogEntries = (): CatalogEntry[] => this.src.catalog.enabled();
  private readonly caches: { prompt: PromptCache; messages: MessageTokens; text: TextTokens };
  private toolCache: { version: number; found: number; visible: PromptTool[]; deferredNames: string[] } | undefined;

  constructor(private readonly src: PromptSource) {
    this.caches = { prompt: promptCacheFor(src.catalog), messages: new MessageTokens(), text: new TextTokens() };
  }

  private mayRead: MayRead | undefined;

  /** The token counts of messages (what compaction saves is counted with the same cache). */
  get messageTokens(): MessageTokens {
    return this.caches.messages;
  }

  assemble(tools: WorkspaceSession): AssembledPrompt {
    const { visible, deferredNames } = this.tools(tools);
    const s = this.src;
    return assemblePrompt(
      {
        workspace: s.workspace,
        instructions: this.instructions(),
        catalogEntries: this.catalogEntries,
        catalogSettings: s.settings.catalog,
        contextWindow: s.contextWindow(),
        vision: s.vision(),
        loaded: s.loadedBodies(),
        tools: visible,
        deferredNames,
        planMode: s.state.planMode,
        messages: s.state.messages,
      },
      this.caches,
    );
  }

  /** The folder's own instructions, unless the `agent.projectInstructions` setting is off (a stat when it is on). */
  instructions(): ProjectInstructions | undefined {
    const s = this.src;
    return s.settings.agent.projectInstructions
      ? this.caches.prompt.instructions.current(s.workspace, (this.mayRead ??= agentMayRead(s.gate, s.workspace)))
      : undefined;
  }

  /**
   * The tools in the next prompt and the deferred names, kept while the registry and this conversation's discovered
   * tools are unchanged: the same array each turn, so the token count and the provider's request reuse their work too.
   */
  tools(ws: WorkspaceSession): { visible: PromptTool[]; deferredNames: string[] } {
    const version = ws.tools.registry.version;
    const found = ws.tools.discoveredCount;
    const hit = this.toolCache;
    if (hit && hit.version === version && hit.found === found) return hit;
    const visible = ws.tools
      .visibleTools()
      .map((t) => ({ name: t.def.name, description: t.def.description, inputSchema: t.def.inputSchema }));
    this.toolCache = { version, found, visible, deferredNames: ws.tools.hiddenTools().map((t) => t.def.name) };
    return this.toolCache;
  }

  /** What is in the model's context and why: catalog, loaded skills (with their reason), read resources, tools, compactions. */
  projection(ws: WorkspaceSession): ProjectionEntry[] {
    const p = this.assemble(ws);
    const state = this.src.state;
    const out: ProjectionEntry[] = [];
    const project = p.instructions;
    if (project)
      out.push({
        kind: 'instructions',
        name: project.file,
        reason: english(instructionsWords(project)),
        words: instructionsWords(project),
        tokens: p.instructionsTokens,
      });
    out.push({
      kind: 'catalog',
      name: 'skill catalog',
      reason: `${p.catalog.included.length} listed, ${p.catalog.dropped.length} left out (budget ${p.catalog.budget})`,
      tokens: p.catalog.tokens,
      leftOut: p.catalog.dropped,
    });
    for (const s of state.loaded.values())
      out.push({
        kind: 'skill',
        name: s.name,
        tier: s.tier,
        version: s.version,
        reason: `${s.reason}: ${s.why}`,
        tokens: s.tokens,
      });
    for (const r of state.resources)
      out.push({ kind: 'resource', name: r.skill, path: r.path, reason: 'read by the model', tokens: r.tokens });
    for (const t of ws.tools.visibleTools()) {
      const found = state.discovered.includes(t.def.name);
      out.push({
        kind: 'tool',
        name: t.def.name,
        reason: found ? 'found with ToolSearch' : 'always loaded',
        tokens: 0,
      });
    }
    for (const c of state.compactions)
      out.push({
        kind: 'compaction',
        name: 'summary',
        reason: `${c.compactedMessages} older messages summarised`,
        tokens: 0,
      });
    return out;
  }
}

/**
 * A subfolder's own AGENTS.md or CLAUDE.md, given to the model the first time it works there, as Claude Code reads a
 * subfolder's CLAUDE.md: a read_file or list_dir that succeeds in `pkg/a` brings `pkg`'s and `pkg/a`'s files, each once
 * per conversation, after the result's JSON (where no file's text can write: the JSON escapes line breaks). A file the
 * gate would not let the model read is not given.
 */
export class FolderInstructions {
  private readonly given = new Set<string>();
  private readonly mayRead: MayRead;

  constructor(
    private readonly workspace: string,
    gate: Gate,
    private readonly enabled: () => boolean,
  ) {
    this.mayRead = agentMayRead(gate, workspace);
  }

  /** The text to put after a successful call's result ('' for none). */
  after(tool: string, args: unknown): string {
    if ((tool !== TOOL.read_file && tool !== TOOL.list_dir) || !this.enabled()) return '';
    const path = args && typeof args === 'object' ? (args as { path?: unknown }).path : undefined;
    if (typeof path !== 'string' && tool === TOOL.read_file) return '';
    const out: string[] = [];
    for (const dir of foldersTo(this.workspace, typeof path === 'string' ? path : '.', tool === TOOL.list_dir)) {
      if (this.given.has(dir)) continue;
      const p = folderInstructions(this.workspace, dir, this.mayRead);
      // A folder's file the gate denies is not given at all (its words would name what the user keeps private).
      if (!p || p.problem?.code === 'instructionsDenied') continue;
      this.given.add(dir);
      const text = renderInstructions(p);
      if (text) out.push(text);
    }
    return out.join('\n');
  }
}
