// Attacks on command rules (issue 8, findings 1 and 6): expansions hidden in an allowed command, deny rules dodged by
// spelling, and "always allow" turning one harmless call into a bare rule for a program whose arguments run code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRules, generaliseRules } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import { parseCommandLine } from '../../../main/core/policy/shell.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { defaultPermissions } from '../../../main/core/policy/permissions.js';
import type { ToolCall } from '../../../main/core/policy/types.js';

const ws = '/work/ws';
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const rule = (r: Partial<Rule> & Pick<Rule, 'effect' | 'tool'>): Rule => ({
  id: `${r.effect}-${r.tool}-${r.command ?? ''}`,
  createdAt: 0,
  ...r,
});
const ctx = { workspace: ws, realPaths: [] };

const EXPANSIONS = [
  'git status ${x:=\\$\\(touch\\ /tmp/P\\)}${x@P}',
  'git status $[y]',
  'git status $((1+2))',
  'git status $HOME',
  'git status "$HOME"',
  'git status ${HOME}',
  'git status `id`',
  'git status "$(id)"',
  "git status $'\\073 touch /tmp/P'",
  'git status $"x"',
  'git status <(id)',
  'git status >(cat)',
  'git status *',
  'git status ?',
  'git status [ab]',
  'git status {a,b}',
  'git status {1..3}',
  'git status ~',
  'git status ~root/x',
  'git status @(a|b)',
  'git status\necho $x',
  'git status "unterminated',
  'git status <<<$x',
  'git status <<E\n$(id)\nE\n',
  'X=$y git status',
  'git status & $x',
  'for i in 1; do git status; done',
  'git status; f() { git status; }',
  'eval git status',
];

test('finding 1: a line with any expansion is never covered by an allow rule', () => {
  const rules = [
    rule({ effect: 'allow', tool: 'bash', command: 'git status', workspace: ws }),
    rule({ effect: 'allow', tool: 'bash', command: 'echo', workspace: ws }),
  ];
  assert.equal(evaluateRules(rules, bash('git status -s'), ctx)?.effect, 'allow');
  for (const c of EXPANSIONS) assert.equal(evaluateRules(rules, bash(c), ctx), undefined, c);
});

test('finding 1: quoted and escaped literal words are still plain words (no false alarms)', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'git log', workspace: ws })];
  for (const c of [
    "git log --format='%h %s'",
    'git log "a b"',
    'git log a\\*b',
    "git log -- 'src/*.ts'",
    'git log 2>/dev/null',
    "'git' log",
  ]) {
    assert.equal(evaluateRules(rules, bash(c), ctx)?.effect, 'allow', c);
  }
  assert.deepEqual(parseCommandLine('git log --format=\'%h %s\' "a b" c\\*d').commands[0]?.words, [
    'git',
    'log',
    '--format=%h %s',
    'a b',
    'c*d',
  ]);
});

test('finding 1: a skill limited to Bash(git status:*) cannot hide a command in an expansion', () => {
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
  });
  assert.equal(gate.authorize(bash('git status -s'), { kind: 'skill', skill: 'g' }).verdict, 'allow');
  for (const c of EXPANSIONS) assert.equal(gate.authorize(bash(c), { kind: 'skill', skill: 'g' }).verdict, 'deny', c);
});

test('finding 1: deny rules see a denied program anywhere: pipelines, lists, subshells, substitutions, shells and runners', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'deny', tool: 'bash', command: 'curl' })];
  for (const c of [
    'ls | curl x',
    'ls && curl x',
    '(curl x)',
    '{ curl x; }',
    'echo $(curl x)',
    'echo "`curl x`"',
    'cat <(curl x)',
    'if true; then curl x; fi',
    'bash -c "curl x"',
    "sh -c 'ls; curl x'",
    'xargs curl < f',
    'env A=1 curl x',
    'sudo -u a curl x',
    'find . -exec curl {} \\;',
    'for i in 1; do curl x; done',
    'f() { curl x; }',
  ]) {
    assert.equal(evaluateRules(rules, bash(c), ctx)?.effect, 'deny', c);
  }
});

test('finding 6: deny "rm -rf" catches every spelling of the program and of its options', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'deny', tool: 'bash', command: 'rm -rf' })];
  for (const c of [
    'rm -rf /',
    '\\rm -rf /',
    '/bin/rm -rf /',
    "'rm' -rf /",
    '"rm" -rf /',
    'r\\m -rf /',
    'rm -fr /',
    'rm -r -f /',
    'rm -f -r /',
    'rm -Rf /',
    'rm --recursive --force /',
    'rm -rfv /',
    'rm -v -r -f /',
    '/usr/bin/rm -fr x',
    'command rm -rf x',
    'RM -rf x',
  ]) {
    assert.equal(evaluateRules(rules, bash(c), ctx)?.effect, 'deny', c);
  }
  assert.equal(evaluateRules(rules, bash('rm -f x'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('ls -rf'), ctx)?.effect, 'allow');
});

test('finding 6: "always allow" of a program whose arguments can run code stores the exact command only', () => {
  for (const c of [
    'sed -n 1,5p README.md',
    "awk '{print}' x",
    'tar -xf a.tar',
    'sort -o out x',
    'git config user.name',
    'git -c a=b log',
    'find . -name x',
    'xargs -n1',
    'env',
    'tee out',
    'cp a b',
    'ln -s a b',
    'perl -ne print',
    'make all',
    'git submodule update',
    'git rebase main',
    'zip a.zip x',
    'rsync a b',
    'vim x',
    'less x',
    'man ls',
  ]) {
    const rs = generaliseRules(bash(c), ws);
    assert.equal(rs.length, 1, c);
    const r = { ...rs[0]!, id: 'x', createdAt: 0 };
    assert.equal(evaluateRules([r], bash(c), ctx)?.effect, 'allow', c);
    assert.equal(evaluateRules([r], bash(`${c} -e x`), ctx), undefined, `${c} must not become a prefix rule`);
    assert.equal(rs[0]!.command, c);
  }
  const sed = generaliseRules(bash('sed -n 1,5p README.md'), ws).map((r) => ({ ...r, id: 's', createdAt: 0 }));
  assert.equal(evaluateRules(sed, bash('sed -n "1e touch /tmp/P" README.md'), ctx), undefined);
  assert.equal(evaluateRules(sed, bash('sed -n 1,5p README.md x'), ctx), undefined);
});

test('finding 6: an allow for the bare name does not cover the program by path, and "always" never stores a rule for a line with expansions', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'ls' })];
  assert.equal(evaluateRules(rules, bash('./ls'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('/tmp/ls'), ctx), undefined);
  assert.deepEqual(generaliseRules(bash('ls $(id)'), ws), []);
  assert.deepEqual(generaliseRules(bash('git status ${x@P}'), ws), []);
});

test('finding 6: rules with quoted words round-trip through the store format', () => {
  const rs = generaliseRules(bash("sed -n '1,5p' 'my file.md'"), ws);
  assert.equal(rs.length, 1);
  const r = { ...rs[0]!, id: 'x', createdAt: 0 };
  assert.equal(evaluateRules([r], bash('sed -n 1,5p "my file.md"'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules([r], bash('sed -n 1,5p my file.md'), ctx), undefined);
});
