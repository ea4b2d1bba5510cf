// User rules persisted in the store: deny beats allow, per-tool beats category, "always allow" generalises, no one-offs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Store } from '../../../main/core/store/index.js';
import { evaluateRules, generaliseRules } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import { addRule } from '../../../main/core/policy/rule-book.js';
import { recordAnswer } from '../../../main/core/policy/answers.js';
import type { ToolCall } from '../../../main/core/policy/types.js';

const ws = '/work/ws';
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const rule = (r: Partial<Rule> & Pick<Rule, 'effect' | 'tool'>): Rule => ({
  id: `${r.effect}-${r.tool}-${r.command ?? ''}`,
  createdAt: 0,
  ...r,
});
const ctx = { workspace: ws, realPaths: [] };
/** What "always allow" stores for one command line. */
const commandPrefix = (command: string) => generaliseRules(bash(command), ws).map((r) => r.command);

test('an allow rule for "git status" covers git status -s but not git statusx or a chained command', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'git status', workspace: ws })];
  assert.equal(evaluateRules(rules, bash('git status -s'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('git statusx'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('git status && rm -rf ~'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('git status $(curl x)'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('git status > ~/.bashrc'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('git status 2>&1'), ctx)?.effect, 'allow');
});

test('rules are scoped to their workspace', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'git status', workspace: ws })];
  assert.equal(evaluateRules(rules, bash('git status'), { workspace: '/other', realPaths: [] }), undefined);
});

test('deny beats allow: "always deny rm -rf" wins over a broad allow', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash' }), rule({ effect: 'deny', tool: 'bash', command: 'rm -rf' })];
  assert.equal(evaluateRules(rules, bash('ls'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('rm -rf build'), ctx)?.effect, 'deny');
  assert.equal(evaluateRules(rules, bash('cd x && rm -rf /'), ctx)?.effect, 'deny');
  assert.equal(evaluateRules(rules, bash('sudo rm -rf /'), ctx)?.effect, 'deny');
});

test('a per-tool rule beats a category default', () => {
  const rules = [
    rule({ effect: 'deny', tool: '@network' }),
    rule({ effect: 'allow', tool: 'web_fetch', host: 'docs.python.org' }),
  ];
  const fetch = (host: string): ToolCall => ({ tool: 'web_fetch', args: {}, access: { network: true, host } });
  assert.equal(evaluateRules(rules, fetch('docs.python.org'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, fetch('evil.example'), ctx)?.effect, 'deny');
  assert.equal(evaluateRules(rules, { tool: 'web_search', args: {}, access: { network: true } }, ctx)?.effect, 'deny');
});

test('"always allow" generalises to a command prefix, not the exact line', () => {
  assert.deepEqual(commandPrefix('git status -s --porcelain'), ['git status']);
  assert.deepEqual(commandPrefix('ls -la src'), ['ls']);
  // npm runs the project's scripts, and any word after the script reaches them: the exact line only.
  assert.deepEqual(commandPrefix('npm run test -- --watch'), ['npm run test -- --watch']);
  const rs = generaliseRules(bash('git log --oneline -5 | head -3'), ws);
  assert.deepEqual(
    rs.map((r) => r.command),
    ['git log', 'head'],
  );
});

test('answering "always" many times stores one reusable rule, not dozens of one-offs', () => {
  const store = Store.open(join(tempDir(), 'k.db'));
  try {
    const actor = { kind: 'agent' as const, activeSkills: [] };
    for (const c of ['git status', 'git status -s', 'git status --porcelain', 'git status -b'])
      recordAnswer(store.policy, bash(c), actor, ws, 'always');
    assert.equal(store.policy.rules().length, 1);
    assert.equal(store.policy.rules()[0]!.command, 'git status');
    // A broader rule absorbs the narrower ones already stored.
    addRule(store.policy, { effect: 'allow', tool: 'bash', workspace: ws, command: 'git' });
    assert.deepEqual(
      store.policy.rules().map((r) => r.command),
      ['git'],
    );
    recordAnswer(store.policy, bash('rm -rf build'), actor, ws, 'never');
    const denies = store.policy.rules().filter((r) => r.effect === 'deny');
    assert.equal(denies.length, 1);
    assert.equal(evaluateRules(store.policy.rules(), bash('rm -rf build'), ctx)?.effect, 'deny');
  } finally {
    store.close();
  }
});

test('rules persist across store reopen', () => {
  const file = join(tempDir(), 'k.db');
  const s1 = Store.open(file);
  const { rule: r } = addRule(s1.policy, { effect: 'deny', tool: 'bash', command: 'rm -rf' });
  s1.close();
  const s2 = Store.open(file);
  try {
    assert.deepEqual(
      s2.policy.rules().map((x) => x.id),
      [r.id],
    );
    assert.ok(s2.policy.removeRule(r.id));
    assert.equal(s2.policy.rules().length, 0);
  } finally {
    s2.close();
  }
});

test('a connector tool that changes things generalises to the tool, and a blanket allow covers any of its calls', () => {
  const call: ToolCall = {
    tool: 'mcp__github__create_issue',
    args: { title: 'a; b | c' },
    access: { command: 'mcp__github__create_issue {"title":"a; b | c"}' },
  };
  const rs = generaliseRules(call, ws);
  assert.deepEqual(rs, [{ effect: 'allow', tool: 'mcp__github__create_issue', workspace: ws }]);
  const rules = [rule({ effect: 'allow', tool: 'mcp__github__create_issue', workspace: ws })];
  assert.equal(evaluateRules(rules, call, ctx)?.effect, 'allow');
});

test('an allow rule does not cover a command prefixed with environment assignments (LD_PRELOAD=…, GIT_EXTERNAL_DIFF=…)', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'git diff', workspace: ws })];
  assert.equal(evaluateRules(rules, bash('git diff HEAD'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('GIT_EXTERNAL_DIFF=/tmp/evil git diff'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('LD_PRELOAD=./x.so git diff'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('git diff && PAGER=sh git diff'), ctx), undefined);
  // Deny rules still see through assignments.
  const deny = [rule({ effect: 'deny', tool: 'bash', command: 'rm -rf' })];
  assert.equal(evaluateRules(deny, bash('X=1 rm -rf /'), ctx)?.effect, 'deny');
});

test('an allow rule does not cover redirections to files written as >&file, &>file or >|file', () => {
  const rules = [rule({ effect: 'allow', tool: 'bash', command: 'git status', workspace: ws })];
  for (const c of [
    'git status >&/home/u/.bashrc',
    'git status &>/home/u/.bashrc',
    'git status >|/home/u/.bashrc',
    'git status 1>&out.txt',
    'git status &>>log',
  ]) {
    assert.equal(evaluateRules(rules, bash(c), ctx), undefined, c);
  }
  for (const c of [
    'git status 2>&1',
    'git status >/dev/null 2>&1',
    'git status &>/dev/null',
    'git status 2>&-',
    'git status 2> /dev/null',
  ]) {
    assert.equal(evaluateRules(rules, bash(c), ctx)?.effect, 'allow', c);
  }
});

test('a deny rule on a path also catches other spellings of its case (case-insensitive file systems)', () => {
  const rules = [rule({ effect: 'deny', tool: 'read_file', path: 'secrets/**' })];
  const call: ToolCall = { tool: 'read_file', args: {}, access: { read: [`${ws}/Secrets/key.pem`] } };
  assert.equal(evaluateRules(rules, call, { workspace: ws, realPaths: [`${ws}/Secrets/key.pem`] })?.effect, 'deny');
  const allow = [rule({ effect: 'allow', tool: 'read_file', path: 'docs/**' })];
  assert.equal(evaluateRules(allow, call, { workspace: ws, realPaths: [`${ws}/DOCS/a.md`] }), undefined);
});

test('"always allow" keeps the whole command for programs where a bare prefix would grant anything (rm, interpreters, sudo, find, git -c)', () => {
  assert.deepEqual(commandPrefix('rm -rf build'), ['rm -rf build']);
  assert.deepEqual(commandPrefix('python3 scripts/gen.py --out x'), ['python3 scripts/gen.py --out x']);
  assert.deepEqual(commandPrefix('bash -c "make all"'), ["bash -c 'make all'"]);
  assert.deepEqual(commandPrefix('sudo apt-get update'), ['sudo apt-get update']);
  assert.deepEqual(commandPrefix('find . -name "*.tmp" -delete'), ["find . -name '*.tmp' -delete"]);
  assert.deepEqual(commandPrefix('git -c core.pager=less log'), ['git -c core.pager=less log']);
  assert.deepEqual(commandPrefix('/bin/rm -rf build'), ['/bin/rm -rf build']);
  // The rule made from "always" on `rm -rf build` does not cover `rm -rf ~`.
  const rules = generaliseRules(bash('rm -rf build'), ws).map((r, i) => ({ ...r, id: `r${i}`, createdAt: 0 }));
  assert.equal(evaluateRules(rules, bash('rm -rf build'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('rm -rf ~'), ctx), undefined);
});

test('an allow rule for an exact-only program covers that command only; " *" at the end makes it a prefix on purpose', () => {
  const rules = [
    rule({ effect: 'allow', tool: 'bash', command: 'rm -rf build' }),
    rule({ effect: 'allow', tool: 'bash', command: 'python3 tools/gen.py *' }),
  ];
  assert.equal(evaluateRules(rules, bash('rm -rf build'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('rm -rf build ~'), ctx), undefined);
  assert.equal(evaluateRules(rules, bash('python3 tools/gen.py --all'), ctx)?.effect, 'allow');
  assert.equal(evaluateRules(rules, bash('python3 -c "import os"'), ctx), undefined);
  const store = Store.open(join(tempDir(), 'k.db'));
  try {
    addRule(store.policy, { effect: 'allow', tool: 'bash', workspace: ws, command: 'rm -rf build' });
    addRule(store.policy, { effect: 'allow', tool: 'bash', workspace: ws, command: 'rm -rf build/cache' });
    assert.deepEqual(
      store.policy
        .rules()
        .map((r) => r.command)
        .sort(),
      ['rm -rf build', 'rm -rf build/cache'],
    );
  } finally {
    store.close();
  }
});
