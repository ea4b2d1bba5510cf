// Attacks on the gate's reading of a line (issue 26, item 4): bytes that the parser (mvdan-sh) and bash split
// differently, and /dev/tcp redirections. Each form is first run by real bash to show it does what the attacker
// wants; then the gate must never call such a line plain, under an allow prefix rule, a skill's `Bash(git status:*)`
// manifest or a skill script's knack.callTool, and a deny rule must still see what it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { world } from '../sandbox/setup.js';
import { evaluateRules } from '../../../main/core/policy/rules.js';
import { parseCommandLine } from '../../../main/core/policy/shell.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { defaultPermissions } from '../../../main/core/policy/permissions.js';
import { createBashTool } from '../../../main/core/tools/builtin/bash.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { ToolCall } from '../../../main/core/policy/types.js';
import type { ToolDefinition } from '../../../main/core/tools/types.js';

/** The bash tool without a wall: on the host. */
const bashTool = createBashTool();

const ws = '/work/ws';
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const rule = (r: Partial<Rule> & Pick<Rule, 'effect' | 'tool'>): Rule => ({
  id: `${r.effect}-${r.tool}-${r.command ?? ''}`,
  createdAt: 0,
  ...r,
});
const ctx = { workspace: ws, realPaths: [] };

/** `git log -1 <c># ; touch X` for every byte the two readers may split differently. */
const SPLITTERS = [
  '\r',
  '\v',
  '\f',
  '\x1b',
  '\x01',
  '\x7f',
  '\x85',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u202e',
  '\u3000',
  '\ufeff',
];
const hidden = (c: string): string => `git log -1 ${c}# ; touch X`;

test('the attack is real: bash runs the command after "<CR>#" that the parser reads as a comment', () => {
  const dir = tempDir();
  const r = spawnSync('bash', ['-c', hidden('\r')], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  assert.equal(r.error, undefined);
  assert.ok(existsSync(join(dir, 'X')), 'bash ran touch X');
});

test('a line holding a control, format or non-ASCII space character is never plain', () => {
  for (const c of SPLITTERS) {
    const p = parseCommandLine(hidden(c));
    assert.notEqual(p.notPlain, undefined, JSON.stringify(c));
    assert.match(p.notPlain!, /U\+[0-9A-F]{4}/, JSON.stringify(c));
  }
  assert.notEqual(parseCommandLine('git log\0 ; touch X').notPlain, undefined);
  // Tabs, newlines and non-ASCII text are still plain words.
  assert.equal(parseCommandLine('git log\t-1').notPlain, undefined);
  assert.equal(parseCommandLine('git status\ngit log').notPlain, undefined);
  assert.equal(parseCommandLine("git commit -m '修复：登录页'").notPlain, undefined);
});

test('under an allow prefix rule the split line is not covered, and a deny rule still sees touch', () => {
  const allow = [rule({ effect: 'allow', tool: 'bash', command: 'git log', workspace: ws })];
  assert.equal(evaluateRules(allow, bash('git log -1'), ctx)?.effect, 'allow');
  const denyTouch = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'deny', tool: 'bash', command: 'touch' })];
  for (const c of SPLITTERS) {
    assert.equal(evaluateRules(allow, bash(hidden(c)), ctx), undefined, JSON.stringify(c));
    assert.equal(evaluateRules(denyTouch, bash(hidden(c)), ctx)?.effect, 'deny', JSON.stringify(c));
  }
});

test("inside a skill's Bash(git status:*) manifest the split line is refused", () => {
  const permissions = {
    ...defaultPermissions(),
    tools: ['bash'],
    commands: { bash: [{ text: 'git status', exact: false }] },
    read: ['**'],
    write: ['**'],
    declared: 'allowed-tools' as const,
  };
  const gate = createGate({
    ceiling: { tools: ['*'], network: false, readRoots: [ws], writeRoots: [ws], skillRoots: [], workspace: ws },
    rules: () => [rule({ effect: 'allow', tool: 'bash', workspace: ws })],
    skill: (name) => (name === 'g' ? { name: 'g', dir: '/skills/g', permissions } : undefined),
    protectedRoots: [],
  });
  const skill = { kind: 'skill' as const, skill: 'g' };
  assert.equal(gate.authorize(bash('git status -s'), skill).verdict, 'allow');
  for (const c of SPLITTERS) {
    const d = gate.authorize(bash(`git status ${c}# ; touch X`), skill);
    assert.equal(d.verdict, 'deny', JSON.stringify(c));
    assert.match(d.reason, /not plain words/);
  }
});

test("through a skill script's knack.callTool the split line never reaches bash", async () => {
  const asked: string[] = [];
  const w = world({
    tools: [bashTool as unknown as ToolDefinition<Record<string, unknown>>],
    approve: async (req) => {
      asked.push(JSON.stringify(req));
      return 'deny';
    },
    skills: {
      g: {
        permissions: { tools: ['Bash(git status:*)'], paths: { write: ['**'] } },
        files: {
          'scripts/run.mjs':
            'export default async function (args, knack) {\n' +
            '  try { return await knack.callTool("bash", { command: args.command }); }\n' +
            '  catch (e) { return { code: e.code, message: e.message }; }\n}\n',
        },
      },
    },
  });
  const r = await w.runner.runSkillScript(w.skill('g'), 'run.mjs', { args: { command: 'git status \r# ; touch X' } });
  assert.ok(r.ok, JSON.stringify(r));
  const v = (r.ok ? r.value : {}) as { code?: string; message?: string };
  assert.equal(v.code, 'capability.denied');
  assert.match(v.message ?? '', /not plain words/);
  assert.equal(existsSync(join(w.workspace, 'X')), false, 'touch X never ran');
  assert.deepEqual(asked, []);
});

test('/dev/tcp and /dev/udp redirections count as network: never plain, refused with the network off', () => {
  const gate = createGate({
    ceiling: { tools: ['*'], network: false, readRoots: [ws], writeRoots: [ws], skillRoots: [], workspace: ws },
    rules: () => [rule({ effect: 'allow', tool: 'bash', command: 'cat', workspace: ws })],
    skill: () => undefined,
    protectedRoots: [],
  });
  const agent = { kind: 'agent' as const, activeSkills: [] };
  for (const c of [
    'cat </dev/tcp/127.0.0.1/9',
    'cat < /dev/udp/127.0.0.1/53',
    'cat <>/dev/tcp/example.test/80',
    'cat 3</dev/tcp/127.0.0.1/9',
    'cat < //dev/tcp/127.0.0.1/9',
    'echo x >/dev/tcp/127.0.0.1/9',
    'exec 3<>/dev/tcp/127.0.0.1/9',
  ]) {
    const p = parseCommandLine(c);
    assert.match(p.network ?? '', /\/dev\/(tcp|udp)/, c);
    assert.notEqual(p.notPlain, undefined, c);
    const d = gate.authorize(bash(c), agent);
    assert.equal(d.verdict, 'deny', c);
    assert.match(d.reason, /network/, c);
  }
  assert.equal(parseCommandLine('cat < notes/tcp.txt').network, undefined);
  assert.equal(gate.authorize(bash('cat < notes/dev-tcp.txt'), agent).verdict, 'allow');
});
