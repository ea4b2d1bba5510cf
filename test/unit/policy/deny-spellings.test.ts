// Deny rules match what a line would run (issue 26, item 4): under a blanket allow, `deny rm -rf` must catch rm -rf
// after brace expansion, ANSI-C decoding, GNU-abbreviated long options, in a trap, an alias or a git alias; and where
// the line cannot be resolved without running it (`${x}m`, IFS splits, `base64 -d | bash`) it asks instead of
// allowing. Each resolvable form is first run by real bash against a throwaway folder, to show it really deletes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
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

/** Forms that delete DIR and that the gate can resolve without running anything. */
const RESOLVABLE = [
  '{rm,-rf,DIR}',
  '{rm,"-rf",DIR}',
  'r{m,x} -rf DIR',
  'rm -{r,f} DIR',
  'rm --rec --forc DIR',
  'rm --recur --f DIR',
  "$'\\x72m' -rf DIR",
  "$'\\162m' -rf DIR",
  "$'\\u0072m' -rf DIR",
  "r$'m' -rf DIR",
  'r""m -rf DIR',
  "trap 'rm -rf DIR' EXIT",
  "git -c alias.x='!rm -rf DIR' x",
  "shopt -s expand_aliases\nalias x='rm -rf'\nx DIR",
];

/** Forms that delete DIR only through something known when the line runs. */
const UNRESOLVABLE = [
  'x=r; ${x}m -rf DIR',
  'IFS=,; c=rm,-rf,DIR; $c',
  'c="rm -rf DIR"; $c',
  'o=-rf; rm $o DIR',
  'echo cm0gLXJmIERJUgo= | base64 -d | bash',
  'base64 -d <<< cm0gLXJmIERJUgo= | sh',
  "echo 'RID frm- mr' | rev | sh",
  'echo 726d202d7266204449520a | xxd -r -p | bash -s',
  'eval "$(echo cm0gLXJmIERJUgo= | base64 -d)"',
  'shopt -s expand_aliases\nalias x=rm\nx -rf DIR',
  '/???/r? -rf DIR',
  // xargs adds to the program's words what it reads from its input.
  "printf '%s\\n' -rf DIR | xargs rm",
  'echo -rf DIR | xargs -n 2 -P 1 rm',
];

test('the forms are real: bash deletes the folder with each of them', () => {
  for (const form of [...RESOLVABLE, ...UNRESOLVABLE]) {
    const root = tempDir();
    const dir = join(root, 'DIR');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const line = form
      .replaceAll('DIR', dir)
      .replace('cm0gLXJmIERJUgo=', Buffer.from(`rm -rf ${dir}\n`).toString('base64'));
    const hex = Buffer.from(`rm -rf ${dir}\n`).toString('hex');
    const rev = `rm -rf ${dir}`.split('').reverse().join('');
    const run = line.replace('726d202d7266204449520a', hex).replace('RID frm- mr', rev);
    const r = spawnSync('bash', ['-c', run], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: root },
    });
    assert.equal(r.error, undefined, form);
    if (form.startsWith('/???/')) continue; // depends on where rm lives
    assert.equal(existsSync(dir), false, `bash did not delete with ${form}: ${r.stderr}`);
  }
});

test('deny "rm -rf" matches after brace expansion, ANSI-C decoding, abbreviated options, traps and aliases', () => {
  for (const form of RESOLVABLE) {
    const d = evaluateRules(denyRmRf, bash(form.replaceAll('DIR', '/work/ws/build')), ctx);
    assert.equal(d?.effect, 'deny', form);
  }
});

test('where the line cannot be resolved without running it, it asks instead of being allowed', () => {
  for (const form of UNRESOLVABLE) {
    const d = evaluateRules(denyRmRf, bash(form.replaceAll('DIR', '/work/ws/build')), ctx);
    assert.ok(d?.effect === 'ask' || d?.effect === 'deny', `${form}: ${d?.effect}`);
  }
  const d = evaluateRules(denyRmRf, bash('x=r; ${x}m -rf build'), ctx);
  assert.equal(d?.effect, 'ask');
  assert.match(d?.reason ?? '', /rm -rf/);
  assert.match(d?.reason ?? '', /cannot be known before it runs|cannot be read/);
});

test('lines that cannot run rm -rf stay allowed under the blanket rule', () => {
  for (const c of [
    'ls $HOME',
    'echo {a,b}',
    'git commit -m "rm -rf is bad"',
    "grep -rn 'rm -rf' docs",
    'cat notes/*.md',
    'git log --oneline | head -3',
    'rm -f build/x.o',
    'rm -r --interactive=never-not build',
    'ls | xargs wc -l',
  ]) {
    assert.equal(evaluateRules(denyRmRf, bash(c), ctx)?.effect, 'allow', c);
  }
});

test('through the gate: the unresolvable line asks, naming the rule it may dodge', () => {
  const gate = createGate({
    ceiling: { tools: ['*'], network: false, readRoots: [ws], writeRoots: [ws], skillRoots: [], workspace: ws },
    rules: () => denyRmRf,
    skill: () => undefined,
    protectedRoots: [],
  });
  const agent = { kind: 'agent' as const, activeSkills: [] };
  const d = gate.authorize(bash('echo cm0gLXJmIC8K | base64 -d | bash'), agent);
  assert.equal(d.verdict, 'ask');
  assert.match(d.reason, /deny bash command "rm -rf"/);
  assert.equal(gate.authorize(bash('{rm,-rf,build}'), agent).verdict, 'deny');
  assert.equal(gate.authorize(bash('ls $HOME'), agent).verdict, 'allow');
});
