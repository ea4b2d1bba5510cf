// Every tool Knack declares itself (built-ins, the two meta tools, the skill tools, run_skill_script, the marketplace
// tool), for tests that look at all of them. Handlers are never run here: the dependencies are only what the
// definitions need to exist.
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { deferExecuteTool, toolSearchTool } from '../../../main/core/tools/meta-tools.js';
import type { ToolSession } from '../../../main/core/tools/session.js';
import type { AnyTool } from '../../../main/core/tools/registry.js';
import { skillTools } from '../../../main/core/skills/use/skill-tools.js';
import type { SkillLoader } from '../../../main/core/skills/use/loader.js';
import { createRunSkillScriptTool } from '../../../main/core/sandbox/tool.js';
import { createMarketplaceTool } from '../../../main/core/skills/use/marketplace-tool.js';
import type { ScriptRunner } from '../../../main/core/sandbox/runner.js';
import { SandboxError } from '../../../main/core/sandbox/protocol.js';

export function everyTool(enabledSkills: string[] = ['alpha', 'beta']): AnyTool[] {
  const session = {} as ToolSession;
  const entries = enabledSkills.map((name) => ({ manifest: { name } }));
  return [
    ...builtinTools({
      network: true,
      mcp: {
        connectedServers: () => [],
        listResources: async () => ({ resources: [], errors: [] }),
        readResource: async () => [],
      },
    }),
    toolSearchTool(session),
    deferExecuteTool(session),
    ...skillTools({
      catalog: { enabled: () => entries as never, get: () => undefined },
      loader: {} as SkillLoader,
      userSkillsDir: '/nonexistent',
    }),
    createRunSkillScriptTool({
      runner: {} as ScriptRunner,
      findSkill: (name) => new SandboxError('skill.not_found', name),
    }),
    createMarketplaceTool({ dataDir: '/nonexistent', workspace: '/nonexistent' }),
  ];
}
