// Property (issue 8): whatever an allow rule covers runs exactly the allowed words. Random shell lines mixing plain
// words, quotes, escapes and every kind of expansion; each covered line is run by real bash with PATH empty and
// the allowed programs replaced by functions that log their argv, and the log must equal the parsed words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { evaluateRules } from '../../../main/core/policy/rules.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import { parseCommandLine } from '../../../main/core/policy/shell.js';

const ws = '/work/ws';
const BASH = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim() || '/bin/bash';
const rules: Rule[] = [
  { id: 'g', effect: 'allow', tool: 'bash', command: 'git status', createdAt: 0 },
  { id: 'l', effect: 'allow', tool: 'bash', command: 'ls', createdAt: 0 },
  { id: 'e', effect: 'allow', tool: 'bash', command: 'echo', createdAt: 0 },
];

const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9._/-]{1,6}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z ]{0,5}$/).map((s) => `'${s}'`) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z ]{0,5}$/).map((s) => `"${s}"`) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '$x',
      '${x}',
      '${x@P}',
      '${x:=\\$\\(id\\)}',
      '$[y]',
      '$((1+2))',
      '$(id)',
      '`id`',
      '"$(id)"',
      '"$x"',
      '"`id`"',
      "$'\\073'",
      '$"x"',
      '*',
      '?',
      '[ab]',
      '{a,b}',
      '{1..2}',
      '"{"a,b}',
      '~',
      '~root',
      '\\073',
      '\\*',
      '\\$x',
      '\\ ',
      '"\\$x"',
      "'$x'",
      '@(a|b)',
      '<(id)',
      '>(cat)',
      '"a\\"b"',
      '\\\\',
      '%',
      '=',
      ',',
      ':',
      '{}',
      '\\{a,b\\}',
      '\\~',
    ),
  },
);
const word = fc.array(fragment, { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
const program = fc.constantFrom(
  'git status',
  'ls',
  'echo',
  "'git' status",
  'g\\it status',
  '"ls"',
  'e"ch"o',
  'X=1 ls',
  'rm',
  'git statusx',
  '$x',
  'git $y',
);
const redirect = fc.constantFrom('', '', '', ' 2>&1', ' >/dev/null', ' 2>/dev/null', ' >out', ' >&2', ' >$x');
const command = fc
  .tuple(program, fc.array(word, { maxLength: 4 }), redirect)
  .map(([p, ws, r]) => [p, ...ws].join(' ') + r);
const separator = fc.constantFrom(' ; ', ' && ', ' | ', ' & ', '\n');
const line = fc
  .tuple(command, fc.array(fc.tuple(separator, command), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([s, c]) => s + c).join(''));

/** Run a covered line in bash with the allowed programs replaced by loggers; the argv lists it ran, sorted. */
function runLogged(dir: string, source: string): string[] {
  const log = join(dir, 'log');
  writeFileSync(log, '');
  const prelude = ['git', 'ls', 'echo']
    .map((p) => `${p}() { local IFS=$'\\037'; printf '%s\\036' "${p}$IFS$*" >> "$LOG"; }`)
    .join('\n');
  const r = spawnSync(BASH, ['-c', `${prelude}\n${source}\nwait`], {
    cwd: dir,
    env: { PATH: '', LOG: log },
    encoding: 'utf8',
    timeout: 10_000,
  });
  assert.equal(r.error, undefined);
  return readFileSync(log, 'utf8')
    .split('\x1e')
    .filter((x) => x !== '')
    .map((x) => x.replace(/\x1f$/, ''))
    .sort();
}

test('whatever an allow rule covers, real bash runs exactly the parsed words of the allowed programs', () => {
  const dir = tempDir();
  let covered = 0;
  fc.assert(
    fc.property(line, (source) => {
      const m = evaluateRules(
        rules,
        { tool: 'bash', args: {}, access: { command: source } },
        { workspace: ws, realPaths: [] },
      );
      if (m?.effect !== 'allow') return;
      covered++;
      const parsed = parseCommandLine(source);
      assert.equal(parsed.notPlain, undefined, source);
      const expected = parsed.commands
        .map((c) => {
          assert.ok(c.words && ['git', 'ls', 'echo'].includes(c.words[0]!), source);
          if (c.words[0] === 'git') assert.equal(c.words[1], 'status', source);
          return c.words.join('\x1f');
        })
        .sort();
      assert.deepEqual(runLogged(dir, source), expected, source);
    }),
    { numRuns: 400, seed: 8 },
  );
  assert.ok(covered > 40, `only ${covered} generated lines were covered; the generator needs more plain lines`);
});

test('a random line never makes the parser throw, and a line the parser refuses is never plain', () => {
  fc.assert(
    fc.property(fc.oneof(line, fc.string({ maxLength: 80 })), (source) => {
      const p = parseCommandLine(source);
      if (!p.parsed) assert.notEqual(p.notPlain, undefined);
    }),
    { numRuns: 500 },
  );
});
