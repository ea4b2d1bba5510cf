// A skill as the gate sees it (its real folder and reviewed permissions), and whether its manifest covers a call: the
// tools, command patterns, network and paths it declared. The gate asks this for every acting skill.
import { displaySafe } from '../../../preload/display.js';
import type { SkillIdentity, ToolCall } from './types.js';
import type { Permissions } from './permissions.js';
import { canonicalToolName, SKILL_PREFIX } from './permissions.js';
import { toolsWhere } from './tool-table.js';
import { globMatcher, isInside, relPosix, say, type Said } from '../base/index.js';
import { parseCommandLine, ruleWords } from './shell.js';
import type { Resolved } from './gate-paths.js';

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

/**
 * A skill's own scripts reach files through the sandbox's file capabilities (readFile, writeFile, listDir), which
 * arrive here as these tools with actor = the skill. They are bounded by the manifest's paths, not its tools list:
 * that is how a skill declaring nothing can still read its own folder (the least-privilege default).
 */
const SCRIPT_FILE_TOOLS = toolsWhere((s) => s.scriptCapability === true);

/**
 * What in a call the skill's manifest does not allow, as words, or undefined when it covers the call. `ownScript`:
 * the skill's own script is calling (its file capabilities are bounded by its paths alone). `show` names a path.
 */
export function manifestProblem(
  sp: SkillPolicy,
  call: ToolCall,
  reads: Resolved[],
  writes: Resolved[],
  workspace: string,
  show: (r: Resolved) => string,
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
      return isInside(r.real, workspace) && globMatch(g, relPosix(r.real, workspace));
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
