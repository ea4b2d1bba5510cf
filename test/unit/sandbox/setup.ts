// Shared set-up for sandbox tests: a real sandbox client (real host process) and a real gate over temp folders.
import { after } from 'node:test';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../../main/core/config/settings.js';
import { limitsFromSettings } from '../../../main/core/sandbox/limits.js';
import type { SandboxLimits } from '../../../main/core/config/settings.js';
import { SandboxClient } from '../../../main/core/sandbox/client.js';
import { createScriptRunner, type ScriptRunner } from '../../../main/core/sandbox/runner.js';
import type { Approver } from '../../../main/core/tools/approval.js';
import type { ToolDefinition } from '../../../main/core/tools/types.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import type { Gate } from '../../../main/core/policy/types.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { policyFromManifest } from '../../../main/core/sandbox/skill-policy.js';
import type { SkillManifest } from '../../../main/core/skills/format/types.js';
import { readPermissionRequest } from '../../../main/core/skills/format/permissions.js';
import { tempDir, writeTree, skillMd } from '../../helpers/tmp.js';

export function testLimits(over: Partial<SandboxLimits> = {}): SandboxLimits {
  return {
    ...limitsFromSettings(DEFAULT_SETTINGS.sandbox),
    timeoutMs: 1_000,
    cpuTimeMs: 10_000,
    killGraceMs: 2_000,
    ...over,
  };
}

/** A bare client whose capability calls echo back (for limit and escape tests). */
export function echoClient(over: Partial<SandboxLimits> = {}): SandboxClient<unknown> {
  const client = new SandboxClient<unknown>({
    limits: testLimits(over),
    capabilities: async (op, payload) => ({ op, payload }),
  });
  after(() => client.close());
  return client;
}

export function run(client: SandboxClient<unknown>, source: string, args: unknown = {}, limits = {}) {
  return client.run({ source, filename: 'test.mjs', args, context: {}, limits });
}

function manifest(name: string, permissions?: unknown): SkillManifest {
  return {
    name,
    description: 'test skill',
    metadata: {},
    allowedTools: [],
    readWhen: [],
    agentCreated: false,
    dependsOn: [],
    extra: {},
    ...(permissions !== undefined ? { permissions: { raw: permissions, reviewed: false as const } } : {}),
    // The one reader, as the manifest parser calls it.
    requested: readPermissionRequest(permissions !== undefined ? { permissions } : {}, 'SKILL.md'),
  };
}

function executorFor(tools: ToolDefinition<Record<string, unknown>>[], gate: Gate): ToolExecutor {
  const registry = new ToolRegistry();
  registry.registerAll(tools);
  return new ToolExecutor({ registry, gate });
}

export interface World {
  workspace: string;
  skillsRoot: string;
  skill(name: string): { name: string; dir: string };
  runner: ScriptRunner;
}

/**
 * A workspace and skills on disk, the real gate (ceiling from default settings ∩ each skill's manifest),
 * and a runner over a real host process.
 */
export function world(opts: {
  skills: Record<string, { permissions?: unknown; files?: Record<string, string> }>;
  workspaceFiles?: Record<string, string>;
  /** Tools a script reaches with knack.callTool (through a real executor over the same gate). */
  tools?: ToolDefinition<Record<string, unknown>>[];
  approve?: Approver;
  limits?: Partial<SandboxLimits>;
  settings?: Settings;
}): World {
  const root = tempDir('knack-sandbox-');
  const workspace = join(root, 'ws');
  const skillsRoot = join(root, 'skills');
  writeTree(workspace, { '.keep': '', ...opts.workspaceFiles });
  const policies = new Map<string, SkillPolicy>();
  for (const [name, s] of Object.entries(opts.skills)) {
    const dir = join(skillsRoot, name);
    writeTree(dir, { 'SKILL.md': skillMd({ name, description: 'test skill' }), ...s.files });
    policies.set(name, policyFromManifest(name, dir, manifest(name, s.permissions)));
  }
  const gate = createGate({
    ceiling: ceilingFrom(
      opts.settings ?? DEFAULT_SETTINGS,
      workspace,
      [...policies.values()].map((p) => p.dir),
    ),
    rules: () => [],
    skill: (n) => policies.get(n),
  });
  const runner = createScriptRunner({
    gate,
    workspace,
    limits: testLimits(opts.limits),
    ...(opts.tools ? { executor: executorFor(opts.tools, gate) } : {}),
    ...(opts.approve ? { approve: opts.approve } : {}),
  });
  after(() => runner.close());
  return { workspace, skillsRoot, skill: (name) => ({ name, dir: join(skillsRoot, name) }), runner };
}
