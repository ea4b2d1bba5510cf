// "Always allow" (issue 26, item 4): one answer must never store a bare-program rule that later runs anything. A
// program earns a reusable prefix rule only when it is on the list of programs known to be inert, and then never
// covers its risky options (short, long and GNU-abbreviated long forms) or an extra operand it would write to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowCovers, evaluateRules, generaliseRules } from '../../../main/core/policy/rules.js';
import type { ToolCall } from '../../../main/core/policy/types.js';

const ws = '/work/ws';
const bash = (command: string): ToolCall => ({ tool: 'bash', args: { command }, access: { command } });
const ctx = { workspace: ws, realPaths: [] };

/** What "always" stores for `answered`, then whether that rule covers `later`. */
function alwaysThen(answered: string, later: string): { stored: string[]; covers: boolean } {
  const rules = generaliseRules(bash(answered), ws).map((r, i) => ({ ...r, id: `r${i}`, createdAt: 0 }));
  return {
    stored: rules.map((r) => r.command ?? ''),
    covers: evaluateRules(rules, bash(later), ctx)?.effect === 'allow',
  };
}

test('interpreters, shells, editors and database clients under any name get the exact line only', () => {
  for (const [answered, later] of [
    ['sqlite3 app.db .tables', "sqlite3 app.db '.shell touch /tmp/P'"],
    ["python3.11 -c 'print(1)'", 'python3.11 -c \'import os; os.system("touch /tmp/P")\''],
    ['python3.11 tools/gen.py', "python3.11 -c 'import os'"],
    ['perl5.36.0 -e 1', "perl5.36.0 -e 'system q(touch /tmp/P)'"],
    ['view -es -c q README.md', "view -es -c '!touch /tmp/P' README.md"],
    ['vimdiff a.txt b.txt', "vimdiff -c '!touch /tmp/P' a.txt"],
    ['tclsh tools/x.tcl', "tclsh tools/x.tcl -c 'exec touch /tmp/P'"],
    ["psql -c 'select 1'", "psql -c '\\! touch /tmp/P'"],
    ['ruby3.2 -v', "ruby3.2 -e 'system(%q(touch /tmp/P))'"],
    ['node20 --version', "node20 -e 'require(`child_process`)'"],
    ['mysql -e status', "mysql -e 'system touch /tmp/P'"],
    ['gdb -batch a.out', "gdb -batch -ex 'shell touch /tmp/P' a.out"],
    ['frobnicate --check', 'frobnicate --check --run-hook=/tmp/P'],
  ] as const) {
    const r = alwaysThen(answered, later);
    assert.deepEqual(r.stored.length, 1, answered);
    assert.ok(r.stored[0]!.split(' ').length > 1, `${answered}: stored a bare program rule "${r.stored[0]}"`);
    assert.equal(r.covers, false, `${answered} → ${later}`);
    assert.equal(alwaysThen(answered, answered).covers, true, answered);
  }
});

test('npm test never takes options or extra words under its rule (--node-options runs code)', () => {
  const r = alwaysThen('npm test', "npm test '--node-options=--import=data:text/javascript,process.exit(9)'");
  assert.deepEqual(r.stored, ['npm test']);
  assert.equal(r.covers, false);
  for (const later of ['npm test -- --import=./x.mjs', 'npm test --script-shell=/tmp/sh', 'npm test x'])
    assert.equal(allowCovers(later.split(' '), 'npm test'), false, later);
  assert.equal(alwaysThen('npm run build', 'npm run evil').covers, false);
});

test('inert programs get a reusable prefix, but never their risky options or an output operand', () => {
  for (const [answered, stored, fine, risky] of [
    ['uniq notes.txt', 'uniq', ['uniq -c notes.txt'], ['uniq notes.txt /tmp/out', 'uniq -c in.txt out.txt']],
    [
      'iconv -f utf-8 -t latin1 a.txt',
      'iconv',
      ['iconv -l'],
      ['iconv -o /tmp/x a.txt', 'iconv --output=/tmp/x a.txt', 'iconv --outp=/tmp/x a.txt', 'iconv -co/tmp/x a'],
    ],
    [
      'sort -u a.txt',
      'sort',
      ['sort -k2,2 -t, a.txt', 'sort -r a.txt'],
      [
        'sort -o /tmp/x a.txt',
        'sort -uo/tmp/x a.txt',
        'sort --output /tmp/x a.txt',
        'sort --outp=/tmp/x a.txt',
        'sort --o=/tmp/x a.txt',
        'sort --compress-program=sh a.txt',
        'sort --compress=sh a.txt',
      ],
    ],
    ['xxd a.bin', 'xxd', ['xxd -l 16 a.bin'], ['xxd a.bin /tmp/out', 'xxd -r a.hex /tmp/out']],
    [
      'rg -n foo src',
      'rg',
      ['rg -l foo'],
      ['rg --pre /tmp/P foo', 'rg --pre=/tmp/P foo', 'rg --hostname-bin=/tmp/P x'],
    ],
    [
      'git log --oneline -5',
      'git log',
      ['git log -p', 'git log --output-indicator-new=+ -p'],
      ['git log --output=/tmp/x', 'git log --outp=/tmp/x', 'git log --ext-diff', 'git log --textc'],
    ],
    ['git diff --stat', 'git diff', ['git diff HEAD~1'], ['git diff --output=/tmp/x', 'git diff --ext-diff']],
    ['git branch -a', 'git branch', ['git branch --list'], ['git branch -D main', 'git branch --del main']],
    ['ls -la src', 'ls', ['ls', 'ls -R docs'], []],
    // bash's printf -v assigns a variable: after `printf -v PATH .` a `git status` rule runs ./git.
    ["printf '%s\\n' hi", 'printf', ['printf %d 5'], ['printf -v PATH .', 'printf -vHOME .']],
    ['git status -s', 'git status', ['git status --porcelain'], []],
  ] as const) {
    const r = alwaysThen(answered, answered);
    assert.deepEqual(r.stored, [stored], answered);
    for (const c of fine) assert.equal(alwaysThen(answered, c).covers, true, `${answered} → ${c}`);
    for (const c of risky) assert.equal(alwaysThen(answered, c).covers, false, `${answered} → ${c}`);
  }
  // Answering "always" to the risky form itself keeps that exact line.
  assert.deepEqual(alwaysThen('sort -o out.txt a.txt', 'sort -o /tmp/x a.txt'), {
    stored: ['sort -o out.txt a.txt'],
    covers: false,
  });
  assert.deepEqual(alwaysThen('uniq a.txt b.txt', 'uniq a.txt /tmp/x').stored, ['uniq a.txt b.txt']);
});

test("a rule the user wrote for a program that is not inert covers that exact line, unless it ends in ' *'", () => {
  assert.equal(allowCovers(['python3.11', '-c', 'x'], 'python3.11'), false);
  assert.equal(allowCovers(['python3.11'], 'python3.11'), true);
  assert.equal(allowCovers(['python3.11', 'tools/gen.py', '--x'], 'python3.11 tools/gen.py *'), true);
});
