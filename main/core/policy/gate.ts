// The policy gate: one authorize(call, actor) every tool call passes, giving allow / ask / deny with a readable reason.
// Order: ceiling (tools, network, real-path roots) → acting skills' manifests → user rules → category defaults.
// The decision is a function of (call, actor, ceiling, manifests, rules); where paths reach and which are protected
// (gate-paths.ts), what a manifest covers (gate-manifest.ts) and the OS sandbox's part (gate-wall.ts) live apart.
import type { Actor, Decision, Gate, SkillIdentity, ToolCall } from './types.js';
import { displaySafe } from '../../../preload/display.js';
import type { Ceiling, WallView } from './ceiling.js';
import { ceilingAllowsTool } from './ceiling.js';
import { canonicalToolName } from './permissions.js';
import { toolsWhere } from './tool-table.js';
import { english, isInside, realRoot, say, type Said } from '../base/index.js';
import type { Rule } from '../store/index.js';
import { categoryOf, commandSegments, evaluateRules, ruleSaid, ruleScopeSaid } from './rules.js';
import { parseCommandLine } from './shell.js';
import { internalKind, normalizeHost } from './hosts.js';
import { destructiveInWorkspace } from './destructive.js';
import { gatePaths, type GatePaths, type Resolved } from './gate-paths.js';
import { identityOf, manifestProblem, type SkillPolicy } from './gate-manifest.js';
import { commandWall, containedHosts, isCommandCall } from './gate-wall.js';

export { type SkillPolicy } from './gate-manifest.js';
export { appOwnedRoots } from './gate-paths.js';

export interface GateOptions {
  ceiling: Ceiling;
  /** Current rules (read at every call, so a new rule applies at once). */
  rules: () => Rule[];
  /**
   * Why the user's rules cannot all be read now (the database was damaged and set aside, or cannot be opened), or
   * undefined when they can. Asked at every call: while there is a reason, every call the ceiling and manifests let
   * through asks, and the ask is one only a person may answer (Decision.rulesUnreadable).
   */
  rulesUnreadable?: () => Said | undefined;
  /** Look a skill up by name (undefined when unknown). */
  skill: (name: string) => SkillPolicy | undefined;
  /**
   * A skill's content hash as it is now, for skills whose policy carries none; asked only when a rule scoped to a skill
   * or an answer needs it (the catalog's gate: the reviewed hash while the folder's files are unchanged since the
   * review, else undefined — then rules bound to a content hash do not apply).
   */
  contentHash?: (sp: SkillPolicy) => string | undefined;
  /** Workspace-relative globs whose writes always ask (they change what the agent may do). */
  protectedWrites?: string[];
  /**
   * Folders of Knack's own whose writes always ask wherever they are (the data folder with settings.json, mcp.json
   * and the database; the user skill tiers). Default: appOwnedRoots() of the current home and data folder.
   */
  protectedRoots?: string[];
}

/**
 * Tools that would act as another identity (run a skill's script, which then acts as that skill) or create new
 * identities: never callable by a skill's script, directly, through DeferExecuteTool or any other indirection (the
 * inner call reaches the gate with the same actor). This also bounds recursion: scripts cannot start scripts.
 */
const NOT_FOR_SKILLS = toolsWhere((s) => s.notForSkills === true);

/**
 * The harness's own tools (finding and running tools, finding and loading skills). While skills with declared
 * permissions are loaded, the agent may still use them as far as they touch nothing or only read skill folders:
 * a loaded skill must not lock the agent out of ToolSearch or of loading another skill. DeferExecuteTool's inner
 * call is authorized on its own.
 */
const HARNESS_TOOLS = toolsWhere((s) => s.harness === true);

/** The rule part of a decision: its id, its description and its scope (workspace, skill). */
function ruleFields(rule?: Rule): Partial<Decision> {
  if (!rule) return {};
  const ruleWords = ruleSaid(rule);
  const scopeWords = ruleScopeSaid(rule);
  return { ruleId: rule.id, rule: english(ruleWords), scope: english(scopeWords), ruleWords, scopeWords };
}
// A reason is words (preload/words.ts, `gate.*`): the window says it in its language; `reason` is its English.
const decision = (verdict: Decision['verdict'], words: Said, rule?: Rule): Decision => ({
  verdict,
  reason: english(words),
  words,
  ...ruleFields(rule),
});
const deny = (words: Said, rule?: Rule): Decision => decision('deny', words, rule);
const ask = (words: Said, rule?: Rule): Decision => decision('ask', words, rule);
const allow = (words: Said, rule?: Rule): Decision => decision('allow', words, rule);

/** Words with every text parameter escaped for display (a path inside them may hold invisible characters). */
function displaySafeWords(w: Said): Said {
  if (!w.params) return w;
  const params: NonNullable<Said['params']> = {};
  for (const [k, v] of Object.entries(w.params))
    params[k] = typeof v === 'string' ? displaySafe(v) : typeof v === 'number' ? v : displaySafeWords(v);
  return { code: w.code, params };
}

/** An internal address's kind (hosts.ts internalKind), as words. */
function internalWords(kind: string): Said {
  if (kind === 'uniqueLocal') return say('host.private');
  if (['loopback', 'private', 'linkLocal', 'unspecified', 'carrierGradeNat'].includes(kind))
    return say(`host.${kind}` as 'host.private');
  return say('host.reserved', { kind });
}

/** Why the sandbox is not up: its words when it has them (escaped), else its own text. */
const wallReason = (wall: WallView): Said | string =>
  wall.reasonWords ? displaySafeWords(wall.reasonWords) : displaySafe(wall.reason);

/** Why a command runs without the sandbox, as words: none known, off in settings, still starting, or down. */
function outsideWhy(wall: WallView | undefined): Said {
  if (!wall) return say('gate.outside.none');
  if (wall.mode === 'off') return say('gate.outside.off');
  if (wall.starting) return say('gate.outside.starting');
  return say('gate.outside.unavailable', { reason: wallReason(wall) });
}

function malformed(call: unknown): string | undefined {
  if (typeof call !== 'object' || call === null) return 'the call is not an object';
  const c = call as Partial<ToolCall>;
  if (typeof c.tool !== 'string' || c.tool.length === 0 || c.tool.length > 200)
    return 'the call has no valid tool name';
  const a = c.access as unknown;
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return 'the call does not say what it touches (access)';
  const acc = a as Record<string, unknown>;
  for (const k of ['read', 'write'] as const) {
    const v = acc[k];
    if (
      v !== undefined &&
      (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x.length > 0 && !x.includes('\0')))
    ) {
      return `access.${k} must be a list of non-empty paths`;
    }
  }
  if (acc.network !== undefined && typeof acc.network !== 'boolean') return 'access.network must be true or false';
  if (acc.command !== undefined && typeof acc.command !== 'string') return 'access.command must be a string';
  if (acc.unsandboxed !== undefined && typeof acc.unsandboxed !== 'boolean')
    return 'access.unsandboxed must be true or false';
  if (acc.host !== undefined && typeof acc.host !== 'string') return 'access.host must be a string';
  return undefined;
}

function actorLabel(actor: Actor): Said {
  if (actor.kind === 'skill') return say('gate.who.skill', { skill: actor.skill });
  if (actor.kind === 'user') return say('gate.who.you');
  return actor.activeSkills.length
    ? say('gate.who.agentWith', { skills: actor.activeSkills.join(', ') })
    : say('gate.who.agent');
}

/** What one authorize() call decides with: the options, the paths over the ceiling, and its own hash memo. */
interface CallContext {
  opts: GateOptions;
  ceiling: Ceiling;
  paths: GatePaths;
  /** Content hashes computed during this call (each skill's at most once). */
  hashes: Map<SkillPolicy, string | undefined>;
  /** The real paths the call was judged on (set by decide once they are resolved). */
  checked?: Decision['paths'];
}

/**
 * A skill's full identity, content hash included (computed now when the policy does not carry one). `claimed`: the
 * identity a script was started as; when its hash differs from the content now, the content is not known to be
 * either, so hash-bound rules do not apply.
 */
function fullIdentity(ctx: CallContext, sp: SkillPolicy, claimed?: SkillIdentity): SkillIdentity {
  let hash = sp.hash;
  if (hash === undefined && ctx.opts.contentHash) {
    if (!ctx.hashes.has(sp)) ctx.hashes.set(sp, ctx.opts.contentHash(sp));
    hash = ctx.hashes.get(sp);
  }
  if (claimed?.hash !== undefined && claimed.hash !== hash) hash = undefined;
  const { hash: _drop, ...rest } = identityOf(sp);
  void _drop;
  return hash ? { ...rest, hash } : rest;
}

/** The identities of the skills the agent has loaded (those the gate knows). */
function loadedIdentities(ctx: CallContext, actor: Actor): SkillIdentity[] {
  if (actor.kind !== 'agent') return [];
  return actor.activeSkills
    .map((n) => ctx.opts.skill(n))
    .filter((s): s is SkillPolicy => s !== undefined)
    .map((s) => fullIdentity(ctx, s));
}

function decide(call: ToolCall, actor: Actor, ctx: CallContext): Decision {
  const { opts, ceiling } = ctx;
  const { show } = ctx.paths;
  const bad = malformed(call);
  if (bad) return deny(say('gate.malformed', { why: bad }));
  const who = actorLabel(actor);
  const { access } = call;
  if (actor.kind === 'skill' && NOT_FOR_SKILLS.has(canonicalToolName(call.tool))) {
    return deny(say('gate.notForSkills', { tool: call.tool, skill: actor.skill }));
  }
  if (!ceilingAllowsTool(ceiling, call.tool)) return deny(say('gate.notOffered', { tool: call.tool }));
  if (access.network && !ceiling.network) {
    return deny(say('gate.networkOff', { tool: call.tool }));
  }
  // A command line can open a socket by itself (`cat </dev/tcp/HOST/PORT`): that is the network too.
  const socket = access.command !== undefined ? parseCommandLine(access.command).network : undefined;
  if (socket && !ceiling.network) {
    return deny(say('gate.socketOff', { tool: call.tool, socket: displaySafe(socket) }));
  }
  const reads = ctx.paths.resolveAll(access.read);
  const writes = ctx.paths.resolveAll(access.write);
  ctx.checked = { read: reads.map((r) => r.real), write: writes.map((w) => w.real) };
  for (const r of reads) {
    const ok =
      ceiling.readRoots.some((root) => isInside(r.real, root)) ||
      ceiling.skillRoots.some((root) => isInside(r.real, root));
    if (!ok)
      return deny(say(r.viaLink ? 'gate.readOutsideLink' : 'gate.readOutside', { tool: call.tool, path: show(r) }));
  }
  let protectedWrite: Resolved | undefined;
  let protectedWhat: Said | null | undefined;
  const places = writes.length ? ctx.paths.ownPlaces() : [];
  for (const w of writes) {
    if (!ceiling.writeRoots.some((root) => isInside(w.real, root))) {
      return deny(say(w.viaLink ? 'gate.writeOutsideLink' : 'gate.writeOutside', { tool: call.tool, path: show(w) }));
    }
    const inSkill = ceiling.skillRoots.find((root) => isInside(w.real, root));
    if (inSkill && actor.kind === 'skill')
      return deny(say('gate.skillFolderReadOnly', { tool: call.tool, path: show(w) }));
    const what = inSkill ? null : ctx.paths.protectedAs(w.real, places);
    if (what !== undefined && !protectedWrite) {
      protectedWrite = w;
      protectedWhat = what;
    }
  }

  // Manifests: a skill's script is bound by its own; the agent by every loaded skill that declares permissions.
  let acting: SkillPolicy[] = [];
  if (actor.kind === 'skill') {
    const sp = opts.skill(actor.skill);
    if (!sp) return deny(say('gate.unknownSkill', { skill: actor.skill }));
    const started = actor.identity;
    if (
      started &&
      (realRoot(started.dir) !== sp.dir ||
        (started.tier !== undefined && sp.tier !== undefined && started.tier !== sp.tier))
    ) {
      const place = (dir: string, tier: string | undefined): Said | string =>
        tier ? say('gate.placeTier', { dir: displaySafe(dir), tier }) : displaySafe(dir);
      return deny(
        say('gate.identityChanged', {
          name: displaySafe(started.name),
          from: place(started.dir, started.tier),
          now: place(sp.dir, sp.tier),
        }),
      );
    }
    acting = [sp];
  } else if (actor.kind === 'agent') {
    acting = actor.activeSkills
      .map((n) => opts.skill(n))
      .filter((s): s is SkillPolicy => s !== undefined && s.permissions.declared !== 'none');
  }
  const harnessOnly =
    actor.kind === 'agent' &&
    HARNESS_TOOLS.has(call.tool) &&
    !access.network &&
    access.command === undefined &&
    writes.length === 0 &&
    reads.every((r) => ceiling.skillRoots.some((root) => isInside(r.real, root)));
  for (const sp of harnessOnly ? [] : acting) {
    const problem = manifestProblem(sp, call, reads, writes, ceiling.workspace, show, actor.kind === 'skill');
    if (problem) return deny(say(actor.kind === 'agent' ? 'gate.manifestAgent' : 'gate.manifestSkill', { problem }));
  }

  const rules = opts.rules();
  // Content hashes are computed only when some rule is scoped to a skill (they cost a look at the skill's files).
  const scoped = rules.some((r) => r.skill !== undefined);
  const m = evaluateRules(rules, call, {
    workspace: ceiling.workspace,
    ...(actor.kind === 'skill' && acting[0]
      ? { skill: scoped ? fullIdentity(ctx, acting[0], actor.identity) : identityOf(acting[0]) }
      : {}),
    ...(actor.kind === 'agent' && scoped ? { loaded: loadedIdentities(ctx, actor) } : {}),
    realPaths: [...reads, ...writes].map((r) => r.real),
  });
  if (m?.effect === 'deny') return deny(say('gate.ruleDenies', { rule: ruleSaid(m.rule) }), m.rule);
  // The OS sandbox (core/contain), as bash's handler will find it: a command that cannot run whatever the user
  // answers (its workspace closed; required and not up) is refused here, never asked about.
  const isCommand = isCommandCall(call);
  const wall = commandWall(call, ceiling);
  if (wall?.closed) return deny(say('gate.wallClosed', { tool: call.tool }));
  if (wall?.mode === 'required' && access.unsandboxed)
    return deny(say('gate.unsandboxedForbidden', { tool: call.tool }));
  if (wall?.mode === 'required' && !wall.available)
    return deny(say('gate.sandboxRequired', { tool: call.tool, reason: wallReason(wall) }));
  // A deny rule the user wrote may be among those that cannot be read: nothing passes without a person.
  const unreadable = opts.rulesUnreadable?.();
  if (unreadable !== undefined)
    return {
      ...ask(say('gate.rulesUnreadable', { why: displaySafeWords(unreadable) }), m?.rule),
      rulesUnreadable: true,
    };
  // Leaving the sandbox is always its own question.
  if (m?.effect === 'ask') return ask(m.words ?? say('gate.ruleAsks', { rule: ruleSaid(m.rule) }), m.rule);
  // Mode auto with the sandbox down: every command asks, an allow rule included. A rule allows a command that runs
  // inside the wall; on the host the same words could do anything (the gate cannot read a shell line completely).
  if (isCommand && m?.effect === 'allow' && wall?.mode === 'auto' && !wall.available)
    return ask(
      say('gate.sandboxDownRule', { tool: call.tool, reason: wallReason(wall), rule: ruleSaid(m.rule) }),
      m.rule,
    );
  if (isCommand && access.unsandboxed && wall?.mode !== 'off') return ask(say('gate.unsandboxed', { tool: call.tool }));
  if (protectedWrite) {
    // Named when it is one of Knack's own places: through a link, the path written does not say it.
    const path = show(protectedWrite);
    return ask(
      protectedWhat
        ? say('gate.protectedWriteAs', { tool: call.tool, path, what: displaySafeWords(protectedWhat) })
        : say('gate.protectedWrite', { tool: call.tool, path }),
      m?.rule,
    );
  }
  // Loopback, private, link-local and metadata addresses: only a rule for that exact host allows them silently.
  const internal = access.network && access.host ? internalKind(access.host) : undefined;
  if (internal) {
    const exact =
      m?.effect === 'allow' &&
      m.rule.host !== undefined &&
      !m.rule.host.startsWith('*.') &&
      normalizeHost(m.rule.host) === normalizeHost(access.host!);
    if (!exact) {
      return ask(
        say('gate.internal', { tool: call.tool, host: displaySafe(access.host!), kind: internalWords(internal) }),
        m?.rule,
      );
    }
  }
  if (m?.effect === 'allow') {
    const used = m.rules ?? [m.rule];
    return allow(
      used.length > 1
        ? say('gate.allowedByRules', {
            rules: used
              .map((r) => say('gate.quoted', { text: ruleSaid(r) }))
              .reduce((a, b) => say('listAndWord', { a, b })),
          })
        : say('gate.allowedByRule', { rule: ruleSaid(m.rule) }),
      m.rule,
    );
  }

  const cat = categoryOf(access);
  if (isCommand && wall?.available && wall.mode !== 'off') {
    // Auto-allow when sandboxed: it can touch only the workspace and the hosts it is given. Work the user has not
    // committed is not the machine: destroying it still asks.
    const harm = destructiveInWorkspace(access.command ?? '', ceiling.workspace);
    if (harm === undefined) return allow(say('gate.sandboxed', { tool: call.tool }));
    return ask(say('gate.destructive', { tool: call.tool, harm: displaySafe(harm) }));
  }
  if (isCommand) {
    // It runs on the host, with the user's own access: the question says so (the approval card shows these words).
    const outside = outsideWhy(wall);
    const hidden = access.command !== undefined ? parseCommandLine(access.command).notPlain : undefined;
    if (hidden) return ask(say('gate.notPlain', { tool: call.tool, outside, why: hidden }));
    // Mode auto with the sandbox down: a rule would not allow it either (above), so none is offered.
    if (wall?.mode === 'auto' && !wall.available) return ask(say('gate.commandOutside', { tool: call.tool, outside }));
    return ask(
      say('gate.command', {
        tool: call.tool,
        outside,
        start: displaySafe(commandSegments(access.command ?? '')[0]?.split(' ')[0] ?? ''),
      }),
    );
  }
  if (actor.kind === 'user') return allow(say('gate.userDirect'));
  if (cat === '@network')
    return ask(say('gate.contact', { tool: call.tool, host: access.host ?? say('gate.theNetwork') }));
  if (cat === '@write') return ask(say('gate.write', { who, paths: writes.map(show).join(', '), tool: call.tool }));
  if (cat === '@read') return allow(say('gate.read', { paths: reads.map(show).join(', ') }));
  return allow(say('gate.touchesNothing', { tool: call.tool }));
}

export function createGate(opts: GateOptions): Gate {
  const { ceiling } = opts;
  const paths = gatePaths(ceiling, opts.protectedWrites, opts.protectedRoots);
  return {
    authorize(call: ToolCall, actor: Actor): Decision {
      const ctx: CallContext = { opts, ceiling, paths, hashes: new Map() };
      let d: Decision;
      try {
        d = decide(call, actor, ctx);
        if (ctx.checked && d.verdict !== 'deny') d.paths = ctx.checked;
        if (d.verdict !== 'deny') {
          const contained = containedHosts(call, actor, ceiling, opts.skill, opts.rules);
          if (contained) d.sandbox = { hosts: contained };
        }
        // The acting skill by identity; for an ask with its content hash, so that "always" binds to this content.
        if (actor?.kind === 'skill' && !d.skill) {
          const sp = opts.skill(actor.skill);
          if (sp) d.skill = d.verdict === 'ask' ? fullIdentity(ctx, sp, actor.identity) : identityOf(sp);
        }
        if (actor?.kind === 'agent' && d.verdict === 'ask' && actor.activeSkills.length)
          d.loaded = loadedIdentities(ctx, actor);
      } catch (e) {
        d = deny(say('gate.unchecked', { error: displaySafe((e as Error).message ?? String(e)) }));
      }
      return d;
    },
  };
}
