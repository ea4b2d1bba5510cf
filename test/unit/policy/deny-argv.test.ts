// Deny and ask rules match what a line runs, not its text (issue 8, remaining gap 3): `deny rm -rf` must not refuse
// `git commit -m "rm -rf is bad"`, yet every way of actually running rm -rf is still refused, and lines the parser
// cannot reduce to plain words stay refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRules } from '../../../main/core/policy/rules.js';
import { createGate } from '../../../main/core/policy/gate.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { ToolCall } from '../../../main/core/policy/types.js';

const ws = '/work/ws';
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const rule = (r: Partial<Rule> & Pick<Rule, 'effect' | 'tool'>): Rule => ({
  id: `${r.effect}-${r.tool}-${r.command ?? ''}`,
  createdAt: 0,
  ...r,
});
const ctx = { workspace: ws, realPaths: [] };
const denyRmRf = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'deny', tool: 'bash', command: 'rm -rf' })];

test('deny "rm -rf" does not refuse commands that only mention rm -rf in an argument', () => {
  for (const c of [
    'git commit -m "rm -rf is bad"',
    "git commit -m 'never rm -rf /'",
    'grep -rn "rm -rf" docs',
    "git log --grep='rm -rf'",
    'echo "rm -rf x" > /dev/null',
    'git commit -m "rm -rf is bad" && git status',
    'A=1 git commit -m "rm -rf"',
  ]) {
    assert.equal(evaluateRules(denyRmRf, bash(c), ctx)?.effect, 'allow', c);
  }
  const curl = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'ask', tool: 'bash', command: 'curl' })];
  assert.equal(evaluateRules(curl, bash('git commit -m "use curl x, not wget"'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(curl, bash('git commit -m "x" && curl x'), ctx)?.effect, 'ask');
});

test('deny "rm -rf" still refuses rm -rf run as a command: directly, wrapped, through a shell or an interpreter', () => {
  for (const c of [
    'rm -rf /',
    'git commit -m x && rm -fr /',
    'sudo rm -rf /',
    'env A=1 rm -r -f /',
    'xargs rm -rf < list',
    'find . -exec rm -rf {} \\;',
    'timeout 5 rm -Rf x',
    'nohup rm -rf x',
    'echo "rm -rf /" | sh',
    'bash -c "rm -rf /"',
    'Bash -c "rm -rf /"',
    'FOO=1 sh -c "ls; rm -rf /"',
    'eval "rm -rf /"',
    'watch "rm -rf /"',
    'ssh host "rm -rf /"',
    'flock /tmp/l -c "rm -rf /"',
    'su -c "rm -rf /"',
    'python3 -c "import os; os.system(\'rm -rf /\')"',
    'awk \'BEGIN{system("rm -rf /")}\'',
    'git -c core.pager="rm -rf /" log',
    'echo rm -rf / | xargs -I{} sh -c {}',
    './run.sh "rm -rf /"',
    'command rm -rf x',
    'RM -rf x',
    '/bin/rm -rf x',
    "'rm' -rf x",
    '\\rm -rf x',
  ]) {
    assert.equal(evaluateRules(denyRmRf, bash(c), ctx)?.effect, 'deny', c);
  }
});

test('deny "rm -rf" stays conservative where the line is not plain words: expansions and unreadable lines are refused', () => {
  for (const c of [
    'git commit -m "$(rm -rf /)"',
    'git commit -m "rm -rf $x"',
    'git commit -m "rm -rf is bad',
    'git commit -m `rm -rf /`',
    'if true; then rm -rf /; fi',
    'git commit -m "rm -rf" > out.txt',
    "git commit -m $'rm -rf'",
  ]) {
    assert.equal(evaluateRules(denyRmRf, bash(c), ctx)?.effect, 'deny', c);
  }
});

test("through the gate: the harmless commit is allowed under the user's rules, the unreadable variant is never allowed", () => {
  const gate = createGate({
    ceiling: { tools: ['*'], network: false, readRoots: [ws], writeRoots: [ws], skillRoots: [], workspace: ws },
    rules: () => denyRmRf,
    skill: () => undefined,
    protectedRoots: [],
  });
  const agent = { kind: 'agent' as const, activeSkills: [] };
  assert.equal(gate.authorize(bash('git commit -m "rm -rf is bad"'), agent).verdict, 'allow');
  const d = gate.authorize(bash('git commit -m "rm -rf is bad'), agent);
  assert.equal(d.verdict, 'deny');
  assert.equal(d.ruleId, 'deny-bash-rm -rf');
  assert.notEqual(gate.authorize(bash('git commit -m "rm -rf $(id)"'), agent).verdict, 'allow');
});
