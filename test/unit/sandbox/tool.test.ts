import { test } from 'node:test';
import assert from 'node:assert/strict';
import { world } from './setup.js';
import { createRunSkillScriptTool } from '../../../main/core/sandbox/tool.js';
import { SandboxError } from '../../../main/core/sandbox/protocol.js';
import type { ToolContext } from '../../../main/core/tools/types.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { defaultPermissions } from '../../../main/core/policy/permissions.js';

const w = world({
  workspaceFiles: { 'doc.md': 'one two two three three three' },
  skills: {
    counter: {
      permissions: { paths: { read: ['**/*.md'] } },
      files: {
        'scripts/count.mjs':
          'export default async (args, knack) => { const t = await knack.readFile(args.path); knack.log("read " + t.length); return { words: t.split(/\\s+/).length }; }',
        'scripts/loop.mjs': 'export default () => { for (;;) {} }',
      },
    },
  },
  limits: { timeoutMs: 500, cpuTimeMs: 500 },
});

const tool = createRunSkillScriptTool({
  runner: w.runner,
  findSkill: (name) =>
    name === 'counter' ? w.skill('counter') : new SandboxError('skill.not_found', `no skill named "${name}"`),
});
const ctx: ToolContext = { workspace: w.workspace, actor: { kind: 'agent', activeSkills: [] } };

test('run_skill_script returns the value, logs and stats of the script', async () => {
  const r = await tool.handler({ skill: 'counter', script: 'count.mjs', args: { path: 'doc.md' } }, ctx);
  assert.ok(r.ok, JSON.stringify(r));
  if (r.ok) {
    const c = r.content as { value: unknown; logs: string[]; stats: { capabilityCalls: number } };
    assert.deepEqual(c.value, { words: 6 });
    assert.deepEqual(c.logs, ['read 29']);
    assert.equal(c.stats.capabilityCalls, 1);
  }
});

test('run_skill_script reports limits and unknown skills as structured errors for the model', async () => {
  const loop = await tool.handler({ skill: 'counter', script: 'loop.mjs' }, ctx);
  assert.equal(!loop.ok && loop.error.code, 'limit.timeout');
  const missing = await tool.handler({ skill: 'ghost', script: 'x.mjs' }, ctx);
  assert.equal(!missing.ok && missing.error.code, 'skill.not_found');
  // Arguments of the wrong shape never reach the handler: the registry checks them with the tool's own schema.
  const registry = new ToolRegistry();
  registry.register(tool);
  assert.deepEqual(registry.validate(tool.name, { skill: 'counter', script: 'count.mjs', args: [1] }), [
    { field: 'args', message: 'must be object' },
  ]);
  assert.deepEqual(registry.validate(tool.name, { skill: 'counter' }), [{ field: 'script', message: 'is required' }]);
});

test('run_skill_script declares no access of its own: each capability call is gated with the skill as actor', () => {
  assert.deepEqual(tool.access({ skill: 'counter', script: 'count.mjs' }, ctx), {});
  assert.equal(tool.name, 'run_skill_script');
  assert.equal(tool.risk, 'execute');
  assert.deepEqual((tool.inputSchema as { required: string[] }).required, ['skill', 'script']);
});

test('catalogSkillFinder finds enabled skills and explains the others', async () => {
  const { catalogSkillFinder } = await import('../../../main/core/sandbox/tool.js');
  const entry = (over: Record<string, unknown>) =>
    ({
      manifest: {
        name: 'counter',
        description: 'd',
        metadata: {},
        allowedTools: [],
        readWhen: [],
        agentCreated: false,
        dependsOn: [],
        extra: {},
        requested: { permissions: defaultPermissions(), diagnostics: [] },
      },
      tier: 'project',
      source: 'workbuddy',
      dir: w.skill('counter').dir,
      realDir: w.skill('counter').dir,
      file: `${w.skill('counter').dir}/SKILL.md`,
      size: 1,
      mtimeMs: 1,
      diagnostics: [],
      enabled: true,
      ...over,
    }) as never;
  const find = (e: unknown) => catalogSkillFinder({ get: (n) => (n === 'counter' ? (e as never) : undefined) });
  // The script acts as that skill's identity: its real folder and its tier.
  assert.deepEqual(find(entry({}))('counter'), { ...w.skill('counter'), tier: 'project' });
  const missing = find(entry({}))('ghost');
  assert.ok(missing instanceof SandboxError && missing.code === 'skill.not_found');
  const disabled = find(entry({ enabled: false, disabledReason: 'audit P0' }))('counter');
  assert.ok(
    disabled instanceof SandboxError && disabled.code === 'skill.disabled' && /audit P0/.test(disabled.message),
  );
});

test('the gate lets the agent call run_skill_script inside the default ceiling', async () => {
  const { buildGate } = await import('../../../main/core/policy/setup.js');
  const { DEFAULT_SETTINGS } = await import('../../../main/core/config/settings.js');
  const { gate } = buildGate({ settings: DEFAULT_SETTINGS, workspace: w.workspace, skills: [] });
  const args = { skill: 'counter', script: 'count.mjs' };
  assert.equal(gate.authorize({ tool: tool.name, args, access: tool.access(args, ctx) }, ctx.actor).verdict, 'allow');
  const closed = buildGate({
    settings: {
      ...DEFAULT_SETTINGS,
      policy: { ceiling: { ...DEFAULT_SETTINGS.policy.ceiling, tools: ['read_file'] } },
    },
    workspace: w.workspace,
    skills: [],
  });
  assert.equal(closed.gate.authorize({ tool: tool.name, args, access: {} }, ctx.actor).verdict, 'deny');
});
