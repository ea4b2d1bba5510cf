// The policy gate: one authorize(call, actor) every tool call passes, giving allow / ask / deny with a readable reason.
// Order: ceiling (tools, network, real-path roots) → acting skills' manifests → user rules → category defaults.
import type { Actor, Decision, Gate, SkillIdentity, ToolCall } from './types.js';
import { displaySafe } from '../../../preload/display.js';
import type { Ceiling } from './ceiling.js';
import { ceilingAllowsTool } from './ceiling.js';
import type { Permissions } from './permissions.js';
import { canonicalToolName, COMMAND_TOOLS, SKILL_PREFIX } from './permissions.js';
import { toolsWhere } from './tool-table.js';
import { english, isInside, realPathOf, realRoot, relPosix, say, type Said } from '../base/index.js';
import { join } from 'node:path';
import { resolvePaths, type KnackPaths } from '../config/index.js';
import { globMatcher, matchesAny } from '../base/index.js';
import type { Rule } from '../store/index.js';
import { categoryOf, commandSegments, describeRule, describeSkillScope, evaluateRules, ruleSaid } from './rules.js';
import { parseCommandLine, ruleWords } from './shell.js';
import { internalKind, normalizeHost } from './hosts.js';
import { destructiveInWorkspace } from './destructive.js';

/** A skill as the gate sees it: its real folder and its reviewed permissions. */
export interface SkillPolicy {
  name: string;
  /** Real path of the skill folder. */
  dir: string;
  permissions: Permissions;
  /** builtin | user | project, when known: rules made for a skill bind to tier + real path. */
  tier?: string;
  /** Content hash (or trusted hash), when known: rules made with it bind to that content too. */
  hash?: string;
}

/** The identity a decision and a skill-scoped rule carry: not the name alone. */
export function identityOf(sp: SkillPolicy): SkillIdentity {
  return { name: sp.name, dir: sp.dir, ...(sp.tier ? { tier: sp.tier } : {}), ...(sp.hash ? { hash: sp.hash } : {}) };
}

export interface GateOptions {
  ceiling: Ceiling;
  /** Current rules (read at every call, so a new rule applies at once). */
  rules: () => Rule[];
  /**
   * Why the user's rules cannot all be read now (the database was damaged and set aside, or cannot be opened), or
   * undefined when they can. Asked at every call: while there is a reason, every call the ceiling and manifests let
   * through asks, and the ask is one only a person may answer (Decision.rulesUnreadable).
   */
  rulesUnreadable?: () => string | undefined;
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

/** Knack's own folders: the data folder, the user tiers (`~/.workbuddy`, `~/.agents`) and `~/.knack`. */
export function appOwnedRoots(paths: Pick<KnackPaths, 'home' | 'dataDir'> = resolvePaths()): string[] {
  return [paths.dataDir, join(paths.home, '.workbuddy'), join(paths.home, '.agents'), join(paths.home, '.knack')];
}

/**
 * Writing these would change Knack's own policy and skills, or what git and other tools run on their own (hooks,
 * config, `.git` files pointing elsewhere, direnv): never silently allowed, at any depth (nested repositories and
 * project tiers count as much as the root's).
 */
export const DEFAULT_PROTECTED_WRITES = [
  '**/.workbuddy',
  '**/.workbuddy/**',
  '**/.agents',
  '**/.agents/**',
  '**/.git',
  '**/.git/**',
  '**/.husky/**',
  '**/.mcp.json',
  '**/.claude/**',
  '**/.gitmodules',
  '**/.envrc',
  '**/.vscode/tasks.json',
  '**/.vscode/settings.json',
];

/** Knack's settings files in each of its own folders (user settings, model providers and keys, MCP servers). */
export const OWN_SETTINGS_FILES = ['settings.json', 'providers.json', 'mcp.json'];
/** The workspace's settings files under `.workbuddy`. */
export const WORKSPACE_SETTINGS_FILES = ['settings.json', 'mcp.json'];

interface Resolved {
  given: string;
  real: string;
  viaLink: boolean;
}

/**
 * A skill's own scripts reach files through the sandbox's file capabilities (readFile, writeFile, listDir), which
 * arrive here as these tools with actor = the skill. They are bounded by the manifest's paths, not its tools list:
 * that is how a skill declaring nothing can still read its own folder (the least-privilege default).
 */
export const SCRIPT_FILE_TOOLS = toolsWhere((s) => s.scriptCapability === true);

/**
 * The harness's own tools (finding and running tools, finding and loading skills). While skills with declared
 * permissions are loaded, the agent may still use them as far as they touch nothing or only read skill folders:
 * a loaded skill must not lock the agent out of ToolSearch or of loading another skill. DeferExecuteTool's inner
 * call is authorized on its own.
 */
/**
 * Tools that would act as another identity (run a skill's script, which then acts as that skill) or create new
 * identities: never callable by a skill's script, directly, through DeferExecuteTool or any other indirection (the
 * inner call reaches the gate with the same actor). This also bounds recursion: scripts cannot start scripts.
 */
export const NOT_FOR_SKILLS = toolsWhere((s) => s.notForSkills === true);

export const HARNESS_TOOLS = toolsWhere((s) => s.harness === true);

/** The rule part of a decision: its id, its description and its scope (workspace, skill). */
function ruleFields(rule?: Rule): Partial<Decision> {
  if (!rule) return {};
  const scope = [
    rule.workspace !== undefined ? `workspace ${rule.workspace}` : 'every workspace',
    ...(rule.skill !== undefined ? [describeSkillScope(rule.skill)] : []),
  ].join(', ');
  return { ruleId: rule.id, rule: describeRule(rule), scope };
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

export function createGate(opts: GateOptions): Gate {
  const { ceiling } = opts;
  // Case-insensitive: on macOS and Windows `.WorkBuddy/settings.json` is the same file as `.workbuddy/settings.json`.
  const protectedGlobs = opts.protectedWrites ?? DEFAULT_PROTECTED_WRITES;
  const protectedMatch = (rel: string): boolean => matchesAny(protectedGlobs, rel, { nocase: true });
  const givenRoots = opts.protectedRoots ?? appOwnedRoots();
  /**
   * Knack's own folders and settings files by the real path they have now (resolved at each call: a link made after
   * start counts): each folder of its own, the settings files in them, and the workspace's `.workbuddy`/`.agents`
   * folders and settings files. When one is a link, its target is where Knack reads, so writing the target is
   * protected as writing the file itself is (a `.workbuddy` linked elsewhere, a settings.json stowed into a dotfiles
   * repository). `what` names the file or folder for the reason.
   */
  function ownPlaces(): { real: string; what: Said }[] {
    const places: { real: string; what: Said }[] = [];
    const add = (p: string, what: Said): void => {
      try {
        places.push({ real: realPathOf(p, '/').real, what });
      } catch {
        places.push({ real: p, what });
      }
    };
    // The files first: the most precise name wins.
    for (const r of givenRoots)
      for (const f of OWN_SETTINGS_FILES) add(join(r, f), say('gate.own.file', { file: f, path: join(r, f) }));
    for (const f of WORKSPACE_SETTINGS_FILES)
      add(join(ceiling.workspace, '.workbuddy', f), say('gate.own.workspaceFile', { file: f }));
    for (const r of givenRoots) add(r, say('gate.own.folder', { path: r }));
    for (const d of ['.workbuddy', '.agents'])
      add(join(ceiling.workspace, d), say('gate.own.workspaceFolder', { folder: d }));
    return places;
  }
  /** A write that changes Knack's own files or what tools run by themselves, wherever it is: what it is, or undefined. */
  const protectedAs = (real: string, places: { real: string; what: Said }[]): Said | null | undefined => {
    const own = places.find((p) => isInside(real, p.real));
    if (own) return own.what;
    const base = [ceiling.workspace, ...ceiling.writeRoots].find((root) => isInside(real, root));
    return base !== undefined && protectedMatch(relPosix(real, base)) ? null : undefined;
  };
  // Paths in reasons are escaped where they are made: a reason is shown to people and to the model.
  const show = (r: Resolved): string => displaySafe(r.viaLink ? `${r.given} (really ${r.real})` : r.given);

  function resolveAll(paths: string[] | undefined): Resolved[] {
    return (paths ?? []).map((given) => {
      const real = realPathOf(given, ceiling.workspace).real;
      const lexical = given.startsWith('/') ? given : `${ceiling.workspace}/${given}`;
      return {
        given,
        real,
        viaLink: !isInside(real, ceiling.workspace) && isInside(lexical.replace(/\/+/g, '/'), ceiling.workspace),
      };
    });
  }

  function manifestProblem(
    sp: SkillPolicy,
    call: ToolCall,
    reads: Resolved[],
    writes: Resolved[],
    ownScript = false,
  ): Said | undefined {
    const p = sp.permissions;
    const tool = canonicalToolName(call.tool);
    const skill = sp.name;
    const pathBounded = ownScript && SCRIPT_FILE_TOOLS.has(tool);
    if (!pathBounded && !p.tools.includes(tool) && !p.tools.includes(call.tool)) {
      return p.declared === 'none'
        ? say('gate.mf.noPermissions', { skill })
        : say('gate.mf.noTool', { skill, tool: call.tool });
    }
    const patterns = p.commands[tool];
    if (call.access.command !== undefined && patterns && patterns.length) {
      const parsed = parseCommandLine(call.access.command);
      const allowed = patterns.map((x) => `"${x.text}"`).join(', ');
      if (parsed.notPlain !== undefined)
        return say('gate.mf.notPlain', { skill, patterns: allowed, why: parsed.notPlain });
      const covers = (words: string[]): boolean =>
        patterns.some((pt) => {
          const want = ruleWords(pt.text);
          const prefix = want.length <= words.length && want.every((w, i) => words[i] === w);
          return pt.exact ? prefix && want.length === words.length : pt.text === '' || prefix;
        });
      const bad = parsed.commands.find((c) => !c.words || !covers(c.words));
      if (bad !== undefined || parsed.commands.length === 0)
        return say('gate.mf.notCovered', {
          skill,
          patterns: allowed,
          command: displaySafe(bad?.words?.join(' ') ?? call.access.command),
        });
    }
    if (call.access.network && !p.network) return say('gate.mf.noNetwork', { skill });
    // The root folder itself ('' relative) matches only globs that cover everything under it (`**`).
    const globMatch = (g: string, rel: string): boolean =>
      rel === '' ? /^\*\*(\/\*\*?)?$/.test(g) : globMatcher(g)(rel);
    const inGlobs = (r: Resolved, globs: string[]): boolean =>
      globs.some((g) => {
        if (g.startsWith(SKILL_PREFIX))
          return isInside(r.real, sp.dir) && globMatch(g.slice(SKILL_PREFIX.length), relPosix(r.real, sp.dir));
        return isInside(r.real, ceiling.workspace) && globMatch(g, relPosix(r.real, ceiling.workspace));
      });
    const badRead = reads.find((r) => !isInside(r.real, sp.dir) && !inGlobs(r, p.read));
    if (badRead)
      return say('gate.mf.read', {
        skill,
        path: show(badRead),
        paths: p.read.join(', ') || say('gate.mf.ownFolderOnly'),
      });
    const badWrite = writes.find((r) => !inGlobs(r, p.write));
    if (badWrite)
      return say('gate.mf.write', {
        skill,
        path: show(badWrite),
        paths: p.write.join(', ') || say('listNone'),
      });
    return undefined;
  }

  /** The real paths the current call was judged on (decide is synchronous: one call at a time). */
  let checked: Decision['paths'];
  /** Content hashes computed during the current call (each skill's at most once per call). */
  let hashes = new Map<SkillPolicy, string | undefined>();

  /**
   * A skill's full identity, content hash included (computed now when the policy does not carry one). `claimed`: the
   * identity a script was started as; when its hash differs from the content now, the content is not known to be
   * either, so hash-bound rules do not apply.
   */
  function fullIdentity(sp: SkillPolicy, claimed?: SkillIdentity): SkillIdentity {
    let hash = sp.hash;
    if (hash === undefined && opts.contentHash) {
      if (!hashes.has(sp)) hashes.set(sp, opts.contentHash(sp));
      hash = hashes.get(sp);
    }
    if (claimed?.hash !== undefined && claimed.hash !== hash) hash = undefined;
    const { hash: _drop, ...rest } = identityOf(sp);
    void _drop;
    return hash ? { ...rest, hash } : rest;
  }

  /** The identities of the skills the agent has loaded (those the gate knows). */
  function loadedIdentities(actor: Actor): SkillIdentity[] {
    if (actor.kind !== 'agent') return [];
    return actor.activeSkills
      .map((n) => opts.skill(n))
      .filter((s): s is SkillPolicy => s !== undefined)
      .map((s) => fullIdentity(s));
  }

  /**
   * For a command that runs inside the OS sandbox, the hosts its proxy lets it reach: none with the network off;
   * else the hosts every acting skill lists (a skill without network: none), or, when no acting skill lists any, the
   * hosts of the user's allow rules for this workspace. Undefined when the command does not run inside it.
   */
  function containedHosts(call: ToolCall, actor: Actor): string[] | undefined {
    const isCommand = call.access.command !== undefined || COMMAND_TOOLS.has(canonicalToolName(call.tool));
    const wall = isCommand && !call.access.unsandboxed ? ceiling.wall?.() : undefined;
    if (!wall || !wall.available || wall.mode === 'off') return undefined;
    if (!ceiling.network) return [];
    const names = actor.kind === 'skill' ? [actor.skill] : actor.kind === 'agent' ? actor.activeSkills : [];
    const acting = names
      .map((n) => opts.skill(n))
      .filter(
        (s): s is SkillPolicy => s !== undefined && (actor.kind === 'skill' || s.permissions.declared !== 'none'),
      );
    if (acting.some((s) => !s.permissions.network)) return [];
    const lists = acting.map((s) => s.permissions.hosts).filter((h): h is string[] => h !== undefined);
    if (lists.length) return lists.reduce((a, b) => a.filter((h) => b.includes(h)));
    const hosts = opts
      .rules()
      .filter((r) => r.effect === 'allow' && r.host && (r.workspace === undefined || r.workspace === ceiling.workspace))
      .map((r) => r.host!);
    return [...new Set(hosts)];
  }

  function decide(call: ToolCall, actor: Actor): Decision {
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
    const reads = resolveAll(access.read);
    const writes = resolveAll(access.write);
    checked = { read: reads.map((r) => r.real), write: writes.map((w) => w.real) };
    for (const r of reads) {
      const ok =
        ceiling.readRoots.some((root) => isInside(r.real, root)) ||
        ceiling.skillRoots.some((root) => isInside(r.real, root));
      if (!ok)
        return deny(say(r.viaLink ? 'gate.readOutsideLink' : 'gate.readOutside', { tool: call.tool, path: show(r) }));
    }
    let protectedWrite: Resolved | undefined;
    let protectedWhat: Said | null | undefined;
    const places = writes.length ? ownPlaces() : [];
    for (const w of writes) {
      if (!ceiling.writeRoots.some((root) => isInside(w.real, root))) {
        return deny(say(w.viaLink ? 'gate.writeOutsideLink' : 'gate.writeOutside', { tool: call.tool, path: show(w) }));
      }
      const inSkill = ceiling.skillRoots.find((root) => isInside(w.real, root));
      if (inSkill && actor.kind === 'skill')
        return deny(say('gate.skillFolderReadOnly', { tool: call.tool, path: show(w) }));
      const what = inSkill ? null : protectedAs(w.real, places);
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
      const problem = manifestProblem(sp, call, reads, writes, actor.kind === 'skill');
      if (problem) return deny(say(actor.kind === 'agent' ? 'gate.manifestAgent' : 'gate.manifestSkill', { problem }));
    }

    const rules = opts.rules();
    // Content hashes are computed only when some rule is scoped to a skill (they cost a look at the skill's files).
    const scoped = rules.some((r) => r.skill !== undefined);
    const m = evaluateRules(rules, call, {
      workspace: ceiling.workspace,
      ...(actor.kind === 'skill' && acting[0]
        ? { skill: scoped ? fullIdentity(acting[0], actor.identity) : identityOf(acting[0]) }
        : {}),
      ...(actor.kind === 'agent' && scoped ? { loaded: loadedIdentities(actor) } : {}),
      realPaths: [...reads, ...writes].map((r) => r.real),
    });
    if (m?.effect === 'deny') return deny(say('gate.ruleDenies', { rule: ruleSaid(m.rule) }), m.rule);
    // A deny rule the user wrote may be among those that cannot be read: nothing passes without a person.
    const unreadable = opts.rulesUnreadable?.();
    if (unreadable !== undefined)
      return {
        ...ask(say('gate.rulesUnreadable', { error: displaySafe(unreadable) }), m?.rule),
        rulesUnreadable: true,
      };
    // The OS sandbox (core/contain): required and down refuses commands; leaving it is always its own question.
    const isCommand = access.command !== undefined || COMMAND_TOOLS.has(canonicalToolName(call.tool));
    const wall = isCommand ? ceiling.wall?.() : undefined;
    if (wall?.mode === 'required' && access.unsandboxed)
      return deny(say('gate.unsandboxedForbidden', { tool: call.tool }));
    if (wall?.mode === 'required' && !wall.available)
      return deny(say('gate.sandboxRequired', { tool: call.tool, reason: displaySafe(wall.reason) }));
    if (m?.effect === 'ask') return ask(m.words ?? say('gate.ruleAsks', { rule: ruleSaid(m.rule) }), m.rule);
    // Mode auto with the sandbox down: every command asks, an allow rule included. A rule allows a command that runs
    // inside the wall; on the host the same words could do anything (the gate cannot read a shell line completely).
    if (isCommand && m?.effect === 'allow' && wall?.mode === 'auto' && !wall.available)
      return ask(
        say('gate.sandboxDownRule', { tool: call.tool, reason: displaySafe(wall.reason), rule: ruleSaid(m.rule) }),
        m.rule,
      );
    if (isCommand && access.unsandboxed && wall?.mode !== 'off')
      return ask(say('gate.unsandboxed', { tool: call.tool }));
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
      const harm = destructiveInWorkspace(access.command ?? '');
      if (harm === undefined) return allow(say('gate.sandboxed', { tool: call.tool }));
      return ask(say('gate.destructive', { tool: call.tool, harm: displaySafe(harm) }));
    }
    if (isCommand) {
      const hidden = access.command !== undefined ? parseCommandLine(access.command).notPlain : undefined;
      if (hidden) return ask(say('gate.notPlain', { tool: call.tool, why: hidden }));
      return ask(
        say('gate.command', {
          tool: call.tool,
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

  return {
    authorize(call: ToolCall, actor: Actor): Decision {
      let d: Decision;
      checked = undefined;
      hashes = new Map();
      try {
        d = decide(call, actor);
        if (checked && d.verdict !== 'deny') d.paths = checked;
        if (d.verdict !== 'deny') {
          const contained = containedHosts(call, actor);
          if (contained) d.sandbox = { hosts: contained };
        }
        // The acting skill by identity; for an ask with its content hash, so that "always" binds to this content.
        if (actor?.kind === 'skill' && !d.skill) {
          const sp = opts.skill(actor.skill);
          if (sp) d.skill = d.verdict === 'ask' ? fullIdentity(sp, actor.identity) : identityOf(sp);
        }
        if (actor?.kind === 'agent' && d.verdict === 'ask' && actor.activeSkills.length)
          d.loaded = loadedIdentities(actor);
      } catch (e) {
        d = deny(say('gate.unchecked', { error: displaySafe((e as Error).message ?? String(e)) }));
      }
      return d;
    },
  };
}
