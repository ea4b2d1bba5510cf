// Attacks on skill identity (issue 8, findings 3 and 4): a skill reaching another skill's script through an
// indirection, and a cloned project skill inheriting rules made for a user skill of the same name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';
import { createGate, type SkillPolicy } from '../../../main/core/policy/gate.js';
import { recordAnswer } from '../../../main/core/policy/answers.js';
import { parsePermissions, type Permissions } from '../../../main/core/policy/permissions.js';
import { evaluateRules, skillScopeKey } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';

const ws = '/work/ws';
const perms = (p: unknown): Permissions => parsePermissions({ file: 'SKILL.md', permissions: p }).permissions!;
const write = (path: string): ToolCall => ({ tool: 'write_file', args: { path }, access: { write: [path] } });
const ceiling = { tools: ['*'], network: false, readRoots: [ws], writeRoots: [ws], skillRoots: [], workspace: ws };

test("finding 3: a skill script cannot start another skill's script, directly or through DeferExecuteTool, whatever its manifest and rules say", () => {
  const attacker: SkillPolicy = {
    name: 'attacker',
    dir: '/skills/attacker',
    tier: 'project',
    permissions: perms({ tools: ['run_skill_script', 'DeferExecuteTool', 'create_skill'], paths: { write: ['**'] } }),
  };
  const rules: Rule[] = [{ id: 'all', effect: 'allow', tool: '*', createdAt: 0 }];
  const gate = createGate({ ceiling, rules: () => rules, skill: (n) => (n === 'attacker' ? attacker : undefined) });
  const actor: Actor = { kind: 'skill', skill: 'attacker' };
  const run: ToolCall = { tool: 'run_skill_script', args: { skill: 'victim', script: 'scripts/w.mjs' }, access: {} };
  const d = gate.authorize(run, actor);
  assert.equal(d.verdict, 'deny');
  assert.match(d.reason, /scripts cannot start scripts/);
  assert.equal(d.skill?.dir, '/skills/attacker');
  // DeferExecuteTool passes the same actor to the inner call: the inner run_skill_script is refused the same way.
  assert.equal(
    gate.authorize({ tool: 'DeferExecuteTool', args: { name: 'run_skill_script' }, access: {} }, actor).verdict,
    'allow',
  );
  assert.equal(gate.authorize({ ...run, tool: 'Run_Skill_Script' }, actor).verdict, 'deny');
  assert.equal(gate.authorize({ tool: 'create_skill', args: {}, access: {} }, actor).verdict, 'deny');
  // The agent itself may still run scripts (with a rule or approval).
  assert.equal(gate.authorize(run, { kind: 'agent', activeSkills: [] }).verdict, 'allow');
});

test('finding 4: a rule scoped to a skill binds to its identity (tier, real folder, hash), not its name', () => {
  const mine: SkillPolicy = {
    name: 'deploy',
    dir: '/home/u/.workbuddy/skills/deploy',
    tier: 'user',
    permissions: perms({ tools: ['write_file'], paths: { write: ['**'] } }),
  };
  const clone: SkillPolicy = { ...mine, dir: '/work/ws/.workbuddy/skills/deploy', tier: 'project' };
  const scoped: Rule = {
    id: 's',
    effect: 'allow',
    tool: 'write_file',
    skill: skillScopeKey({ name: 'deploy', tier: 'user', dir: mine.dir }),
    createdAt: 0,
  };
  const byName: Rule = { id: 'n', effect: 'allow', tool: 'write_file', skill: 'deploy', createdAt: 0 };
  for (const rules of [[scoped], [byName]]) {
    const forMine = createGate({ ceiling, rules: () => rules, skill: () => mine });
    const forClone = createGate({ ceiling, rules: () => rules, skill: () => clone });
    assert.equal(
      forMine.authorize(write(`${ws}/out.txt`), { kind: 'skill', skill: 'deploy' }).verdict,
      'allow',
      rules[0]!.id,
    );
    const d = forClone.authorize(write(`${ws}/out.txt`), { kind: 'skill', skill: 'deploy' });
    assert.equal(d.verdict, 'ask', rules[0]!.id);
    assert.equal(d.skill?.tier, 'project');
  }
  // A rule made with a content hash stops applying when the skill's content changes.
  const hashed: Rule = {
    id: 'h',
    effect: 'allow',
    tool: 'write_file',
    skill: skillScopeKey({ name: 'deploy', tier: 'user', dir: mine.dir, hash: 'abcdef0123456789' }),
    createdAt: 0,
  };
  const ctx = (hash: string) => ({
    workspace: ws,
    realPaths: [`${ws}/o`],
    skill: { name: 'deploy', tier: 'user', dir: mine.dir, hash },
  });
  assert.equal(evaluateRules([hashed], write(`${ws}/o`), ctx('abcdef0123456789'))?.effect, 'allow');
  assert.equal(evaluateRules([hashed], write(`${ws}/o`), ctx('ffffff0123456789')), undefined);
});

test('finding 4: "always" for a skill\'s call stores a rule bound to the identity the gate reported', () => {
  const store = Store.open(join(tempDir(), 'k.db'));
  try {
    const actor: Actor = { kind: 'skill', skill: 'deploy' };
    const decision = {
      verdict: 'ask' as const,
      reason: 'r',
      skill: { name: 'deploy', tier: 'user', dir: '/home/u/.workbuddy/skills/deploy' },
    };
    const { rules } = recordAnswer(store.policy, write(`${ws}/a`), actor, ws, 'always', decision);
    assert.equal(rules[0]?.skill, 'deploy@user:/home/u/.workbuddy/skills/deploy');
    // Without the identity nothing reusable is stored (a name alone would be inherited by look-alikes).
    assert.deepEqual(recordAnswer(store.policy, write(`${ws}/b`), actor, ws, 'always').rules, []);
  } finally {
    store.close();
  }
});

test('finding 3: knack.callTool("DeferExecuteTool", run_skill_script) from a skill\'s script never starts the other skill\'s script', async () => {
  const { ToolRegistry } = await import('../../../main/core/tools/registry.js');
  const { ToolExecutor } = await import('../../../main/core/tools/executor.js');
  const { ToolSession } = await import('../../../main/core/tools/session.js');
  const { ToolSearchIndex } = await import('../../../main/core/tools/tool-search.js');
  const { deferExecuteTool } = await import('../../../main/core/tools/meta-tools.js');
  const { createRunSkillScriptTool } = await import('../../../main/core/sandbox/tool.js');
  const { createCapabilityHandler } = await import('../../../main/core/sandbox/capabilities.js');
  const started: string[] = [];
  // The runner records what it would start: the victim's script must never reach it.
  const runner = {
    runSkillScript: async (skill: { name: string }, script: string) => {
      started.push(`${skill.name}/${script}`);
      return { value: null, logs: [], stats: {} };
    },
  } as unknown as Parameters<typeof createRunSkillScriptTool>[0]['runner'];
  const attacker: SkillPolicy = {
    name: 'attacker',
    dir: '/skills/attacker',
    tier: 'project',
    permissions: perms({ tools: ['DeferExecuteTool', 'run_skill_script'], paths: { write: ['**'] } }),
  };
  const gate = createGate({
    ceiling,
    rules: () => [{ id: 'all', effect: 'allow', tool: '*', createdAt: 0 }],
    skill: (n) => (n === 'attacker' ? attacker : undefined),
    protectedRoots: [],
  });
  const registry = new ToolRegistry();
  const executor = new ToolExecutor({ registry, gate, approver: async () => 'once' });
  const session = new ToolSession(registry, executor, new ToolSearchIndex());
  registry.registerAll([
    deferExecuteTool(session),
    createRunSkillScriptTool({ runner, findSkill: (name) => ({ name, dir: `/skills/${name}` }) }),
  ]);
  const handler = createCapabilityHandler({ gate, executor, limits: { maxFileBytes: 1 << 20, maxListEntries: 100 } });
  const run = { hold: () => () => undefined, signal: new AbortController().signal };
  const ctx = { skill: { name: 'attacker', dir: '/skills/attacker' }, workspace: ws };
  const direct = handler(
    'callTool',
    { name: 'run_skill_script', args: { skill: 'victim', script: 'w.mjs' } },
    ctx,
    run,
  );
  await assert.rejects(direct, /scripts cannot start scripts|cannot start other scripts/);
  const viaDefer = handler(
    'callTool',
    { name: 'DeferExecuteTool', args: { name: 'run_skill_script', arguments: { skill: 'victim', script: 'w.mjs' } } },
    ctx,
    run,
  );
  await assert.rejects(viaDefer, /scripts cannot start scripts/);
  assert.deepEqual(started, []);
});
