// The agent's `run_skill_script` tool: runs a skill's JavaScript in the sandbox, passed through the gate like any tool.
// The script's own file and tool calls are authorized again, one by one, with the skill as the actor.
import { z } from 'zod';
import { defineTool } from '../tools/index.js';
import type { ScriptRunner } from './runner.js';
import type { ScriptSkill } from './capabilities.js';
import { SandboxError } from './protocol.js';
import type { CatalogEntry } from '../skills/format/index.js';
import { policyFromEntry } from './skill-policy.js';
import { TOOL, TOOLS } from '../policy/index.js';

export interface RunSkillScriptDeps {
  runner: ScriptRunner;
  /** The enabled skill of that name (real folder), or an error saying why it cannot run. */
  findSkill(name: string): ScriptSkill | SandboxError;
}

export function createRunSkillScriptTool(deps: RunSkillScriptDeps) {
  return defineTool({
    name: TOOL.run_skill_script,
    summary: "Run a skill's JavaScript script in the sandbox with JSON arguments; returns its JSON result.",
    description:
      'Runs <skill>/scripts/<script> (.js or .mjs) in an isolated sandbox with no network, bounded time and memory. ' +
      "The script can read and write files and call tools only as far as the skill's permissions and the workspace policy allow. " +
      'Returns {value, logs, stats}. Scripts in other languages (.py, .sh) are not run here: use the bash tool for them.',
    input: z.strictObject({
      skill: z.string().describe('Skill name, as in the catalog.'),
      script: z.string().describe('File name in the skill\'s scripts/ folder, e.g. "count-words.mjs".'),
      args: z.record(z.string(), z.unknown()).optional().describe('JSON arguments passed to the script.'),
    }),
    deferLoading: true,
    risk: TOOLS.run_skill_script.access,
    // The run itself touches nothing: each capability call inside it passes the gate with the skill as actor.
    access: () => ({}),
    async handler(args, ctx) {
      const skill = deps.findSkill(args.skill);
      if (skill instanceof SandboxError) return { ok: false, error: skill.toJSON() };
      const r = await deps.runner.runSkillScript(skill, args.script, {
        args: args.args ?? {},
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      if (r.ok) return { ok: true, content: { value: r.value, logs: r.logs, stats: r.stats } };
      return {
        ok: false,
        error: { ...r.error, details: { ...(isObject(r.error.details) ? r.error.details : {}), logs: r.logs } },
      };
    },
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** findSkill over the skill catalog: the winning, enabled skill of that name, with a usable permissions block. */
export function catalogSkillFinder(catalog: {
  get(name: string): CatalogEntry | undefined;
}): (name: string) => ScriptSkill | SandboxError {
  return (name) => {
    const e = catalog.get(name);
    if (!e) return new SandboxError('skill.not_found', `no skill named "${name}"`);
    if (!e.enabled)
      return new SandboxError(
        'skill.disabled',
        `skill "${e.manifest.name}" is disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`,
      );
    try {
      policyFromEntry(e);
    } catch (err) {
      return err instanceof SandboxError ? err : new SandboxError('skill.bad_permissions', String(err));
    }
    return { name: e.manifest.name, dir: e.realDir, tier: e.tier };
  };
}
