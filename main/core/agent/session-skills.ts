// The skills a conversation has loaded: auto-loading from a message (`/name`, the matcher), loading by hand, the
// model's own loads through the Skill tool, loading them again after a restart or a change of branch, and the bodies
// that go into the prompt's <loaded_skills>.
import { english, said, say, type Said } from '../base/index.js';
import type { Catalog } from '../skills/catalog/index.js';
import { listResources, matchWords, SkillLoader, type SkillMatcher } from '../skills/use/index.js';
import type { WorkspaceSession } from '../skills/use/index.js';
import type { ToolResult } from '../tools/index.js';
import type { LoadedBody } from './prompt.js';
import type { SessionState } from './state.js';
import type { AgentEventBody, SkillLoadReason } from './types.js';

const key = (n: string): string => n.normalize('NFKC').toLowerCase();

/** The skill names a message starts with as `/name` (`/git-commit /lint tidy up` → git-commit, lint), at most 8. */
export function slashSkills(text: string): string[] {
  const out: string[] = [];
  const re = /^\s*\/([\p{L}\p{N}][\p{L}\p{N}_-]{0,63})(?=\s|$)/u;
  let rest = text;
  for (let m = re.exec(rest); m && out.length < 8; m = re.exec(rest)) {
    out.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

/** What a conversation's skills need of it. */
export interface SkillsHost {
  readonly catalog: Catalog;
  readonly state: SessionState;
  matcher(): SkillMatcher;
  /** The conversation's tool session once it is open (its loader is what the gate sees as active). */
  workspaceSession(): WorkspaceSession | undefined;
  /** Most skills auto-loaded from one message. */
  maxAutoLoad(): number;
  /** Commit an event and show it (ChatSession.record). */
  record(body: AgentEventBody): void;
}

export class SessionSkills {
  /** The instructions of each loaded skill, by key, for <loaded_skills>. */
  readonly bodies = new Map<string, LoadedBody>();
  private bootLoader: SkillLoader | undefined;

  constructor(private readonly host: SkillsHost) {}

  /**
   * The loader skills go into: the workspace session's (what the gate sees as the model's active skills). Reopening a
   * session reads its skills before that session exists (open() is synchronous); toolsReady() then loads them into it.
   */
  loader(): SkillLoader {
    const ws = this.host.workspaceSession();
    if (ws) return ws.loader;
    return (this.bootLoader ??= new SkillLoader((n) => this.host.catalog.get(n)));
  }

  /** The tool session opened: skills go into its loader from now on. */
  opened(): void {
    this.bootLoader = undefined;
  }

  /** The bodies of the loaded skills, in the order they were loaded (what the prompt carries). */
  loadedBodies(): LoadedBody[] {
    const loaded: LoadedBody[] = [];
    for (const k of this.host.state.loaded.keys()) {
      const b = this.bodies.get(k);
      if (b) loaded.push(b);
    }
    return loaded;
  }

  /** Load every skill the state says is loaded again (a reopened session, another branch); a skill gone is unloaded. */
  reloadAll(): void {
    for (const s of [...this.host.state.loaded.values()]) {
      const r = this.load(s.name, 'recovered', say('loadRecovered'));
      if (!r.ok)
        this.host.record({ type: 'skill_unloaded', name: s.name, reason: `cannot load it again: ${r.message}` });
    }
  }

  autoLoad(text: string): void {
    // `/name` at the start of a message (the window's `/` menu, or typed) loads that skill as the user's choice. A word
    // that names no skill (`/usr is a folder`) is just text; a skill that cannot load says why.
    for (const name of slashSkills(text)) {
      if (this.host.state.loaded.has(key(name))) continue;
      const r = this.load(name, 'user', say('loadUser'));
      if (!r.ok && r.code !== 'skill.not_found') this.skillError(r);
    }
    let matches;
    try {
      matches = this.host.matcher().match(text);
    } catch (e) {
      this.skillError(said(say('skillMatchFailed', { error: (e as Error).message })));
      return;
    }
    for (const m of matches.slice(0, this.host.maxAutoLoad())) {
      if (this.host.state.loaded.has(key(m.name))) continue;
      const r = this.load(m.name, 'trigger', matchWords(m));
      if (!r.ok) this.skillError(r);
    }
  }

  /** A skill that could not be loaded into the turn: a notice the window says in its language. */
  private skillError(r: { message: string; words?: Said | undefined }): void {
    this.host.record({ type: 'error', kind: 'skill', message: r.message, ...(r.words ? { words: r.words } : {}) });
  }

  load(
    name: string,
    reason: SkillLoadReason,
    why: Said,
  ):
    | { ok: true; loaded: string[]; bodies: LoadedBody[] }
    | { ok: false; message: string; words?: Said | undefined; code: string } {
    const r = this.loader().load(name, reason === 'recovered' ? 'user' : reason);
    if (!r.ok) return { ok: false, message: r.error.message, words: r.error.words, code: r.error.code };
    const loaded: string[] = [];
    for (const s of r.value) {
      const k = key(s.name);
      this.bodies.set(k, { name: s.name, tier: s.tier, body: s.body });
      const prev = this.host.state.loaded.get(k);
      if (prev && prev.version === s.version && reason !== 'recovered') continue;
      if (reason === 'recovered' && prev && prev.version === s.version) continue;
      const isDep = s.reason === 'dependency';
      const words = isDep
        ? say('loadDependency', { skill: s.requiredBy ?? '' })
        : reason === 'recovered'
          ? say('loadRecovered')
          : why;
      this.host.record({
        type: 'skill_loaded',
        name: s.name,
        tier: s.tier,
        version: s.version,
        reason: isDep ? 'dependency' : reason,
        why: english(words),
        words,
        tokens: s.tokens,
        ...(s.requiredBy ? { requiredBy: s.requiredBy } : {}),
      });
      loaded.push(s.name);
    }
    return { ok: true, loaded, bodies: r.value.map((s) => ({ name: s.name, tier: s.tier, body: s.body })) };
  }

  /**
   * The model loaded skills through the workspace session's Skill tool (or DeferExecuteTool): record each load with
   * its projection, keep the bodies for <loaded_skills>, and answer with a note instead of the instructions (they are
   * in the system prompt, where compaction never drops them).
   */
  modelLoaded(ws: WorkspaceSession, from: number, result: ToolResult): ToolResult {
    const bodies = new Map<string, string>();
    if (result.ok) {
      const c = result.content as { skills?: { name?: unknown; instructions?: unknown }[] } | undefined;
      for (const sk of Array.isArray(c?.skills) ? c.skills : [])
        if (typeof sk.name === 'string' && typeof sk.instructions === 'string')
          bodies.set(key(sk.name), sk.instructions);
    }
    const loaded: string[] = [];
    for (const rec of ws.loader.projection().slice(from)) {
      if (rec.kind !== 'skill') continue;
      const body = bodies.get(key(rec.skill));
      if (body === undefined) continue;
      this.bodies.set(key(rec.skill), { name: rec.skill, tier: rec.tier, body });
      const isDep = rec.reason === 'dependency';
      const words = isDep ? say('loadDependency', { skill: rec.requiredBy ?? '' }) : say('loadModel');
      this.host.record({
        type: 'skill_loaded',
        name: rec.skill,
        tier: rec.tier,
        version: rec.version,
        reason: isDep ? 'dependency' : 'model',
        why: english(words),
        words,
        tokens: rec.tokens,
        ...(rec.requiredBy ? { requiredBy: rec.requiredBy } : {}),
      });
      loaded.push(rec.skill);
    }
    if (!result.ok || !loaded.length) return result;
    return {
      ok: true,
      content: {
        loaded,
        note: 'The instructions are now in the system prompt under <loaded_skills>; follow them.',
        resources: Object.fromEntries(loaded.map((n) => [n, listResources(this.host.catalog.get(n)?.realDir ?? '')])),
      },
    };
  }
}
