import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { globCovers, permissionDiff } from '../../../main/core/policy/diff.js';
import type { Permissions } from '../../../main/core/policy/permissions.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { assertSaid } from '../../helpers/words.js';

const perms = (p: Partial<Permissions>): Permissions => ({
  tools: [],
  commands: {},
  network: false,
  read: [],
  write: [],
  declared: 'permissions',
  ...p,
});

test('an update that quietly turns the network on or adds a tool, a command or a path is a widening', () => {
  const old = perms({ tools: ['read_file'], read: ['docs/**'] });
  assert.equal(permissionDiff(old, perms({ tools: ['read_file'], read: ['docs/**'], network: true })).widened, true);
  assert.equal(permissionDiff(old, perms({ tools: ['read_file', 'write_file'], read: ['docs/**'] })).widened, true);
  const w = permissionDiff(old, perms({ tools: ['read_file'], read: ['docs/**'], write: ['out/**'] }));
  assert.deepEqual(w.addedWrite, ['out/**']);
  assert.deepEqual(w.lines, ['+ write out/**']);
  const cmd = permissionDiff(
    perms({ tools: ['bash'], commands: { bash: [{ text: 'git status', exact: false }] } as Permissions['commands'] }),
    perms({
      tools: ['bash'],
      commands: {
        bash: [
          { text: 'git status', exact: false },
          { text: 'git push', exact: false },
        ],
      } as Permissions['commands'],
    }),
  );
  assert.equal(cmd.widened, true);
  assert.deepEqual(cmd.addedCommands, ['bash(git push:*)']);
});

test('an update that adds a host to its network list, or drops the list, is a widening said in words', () => {
  const net = (hosts?: string[]) => perms({ tools: ['web_fetch'], network: true, ...(hosts ? { hosts } : {}) });
  const added = permissionDiff(net(['api.weather.test']), net(['api.weather.test', 'collect.evil.test']));
  assert.equal(added.widened, true);
  assert.deepEqual(added.addedHosts, ['collect.evil.test']);
  assert.deepEqual(added.lines, ['+ host collect.evil.test']);
  assert.equal(assertSaid(added.words[0], added.lines[0]!), '+ 主机 collect.evil.test');
  assert.deepEqual(permissionDiff(net(['api.weather.test']), net(['*.weather.test'])).addedHosts, ['*.weather.test']);
  const any = permissionDiff(net(['api.weather.test']), net());
  assert.equal(any.widened, true);
  assert.deepEqual(any.lines, ['+ network: any host']);
  assert.equal(assertSaid(any.words[0], any.lines[0]!), '+ 网络：任意主机');
  // Narrower or the same: a subdomain under a wildcard it had, a host it named, or a list where it named none.
  for (const [a, b] of [
    [['*.weather.test'], ['api.weather.test', '*.eu.weather.test']],
    [['API.weather.test'], ['api.weather.test']],
    [undefined, ['api.weather.test']],
  ] as const)
    assert.equal(permissionDiff(net(a && [...a]), net([...b])).widened, false, `${a} → ${b}`);
});

test('narrowing or restating what was already allowed is not a widening', () => {
  const old = perms({ read: ['**'], write: ['reports/**'] });
  const d = permissionDiff(old, perms({ read: ['docs/**', 'src/*.ts'], write: ['reports/2026/**'] }));
  assert.equal(d.widened, false, d.lines.join(', '));
  assert.equal(permissionDiff(old, old).widened, false);
});

test('glob coverage is conservative and never crosses the workspace / skill folder bases', () => {
  assert.equal(globCovers('docs/**', 'docs/a/b.md'), true);
  assert.equal(globCovers('docs/**', 'docsx/a.md'), false, 'a sibling folder sharing a prefix is not covered');
  assert.equal(globCovers('**', 'skill:templates/**'), false);
  assert.equal(globCovers('skill:**', 'skill:templates/**'), true);
  assert.equal(globCovers('docs/*.md', 'docs/**'), false);
});

// Each line is said in words: their English is the CLI's line, their Chinese has no English sentence.
const bash = (...texts: string[]) => texts.map((text) => ({ text, exact: false }));

test('every kind of line in a permission diff is said in words, its English unchanged', () => {
  const d = permissionDiff(
    perms({ tools: ['bash', 'grep', 'web_fetch'], commands: { bash: bash('git status') } as Permissions['commands'] }),
    perms({
      tools: ['bash', 'grep', 'read_file'],
      commands: { bash: bash('git status', 'git push'), grep: bash('rg') } as Permissions['commands'],
      network: true,
      read: ['docs/<img src=x>/**'],
      write: ['skill:../out'],
    }),
  );
  const english = [
    '+ tool read_file',
    '+ command bash(git push:*)',
    '+ network: on',
    '+ read docs/<img src=x>/**',
    '+ write skill:../out',
    '- tool web_fetch',
  ];
  const chinese = [
    '+ 工具 read_file',
    '+ 命令 bash(git push:*)',
    '+ 网络：开启',
    '+ 读取 docs/<img src=x>/**',
    '+ 写入 skill:../out',
    '- 工具 web_fetch',
  ];
  assert.deepEqual(d.lines, english);
  assert.equal(d.words.length, d.lines.length);
  assert.deepEqual(
    d.words.map((w, i) => assertSaid(w, d.lines[i]!)),
    chinese,
  );
});

test('a command tool that becomes unrestricted is a line in words', () => {
  const d = permissionDiff(
    perms({ tools: ['bash'], commands: { bash: bash('git status') } as Permissions['commands'] }),
    perms({ tools: ['bash'], commands: { bash: [] } as Permissions['commands'] }),
  );
  assert.deepEqual(d.lines, ['+ command bash(*)']);
  assert.equal(assertSaid(d.words[0], d.lines[0]!), '+ 命令 bash(*)');
});

test("the audit's widening finding says the diff's changes in words, not an English sentence", () => {
  const fm = (extra: string) => `name: demo\ndescription: d\npermissions:\n  tools: [read_file]${extra}`;
  const old = join(tempDir('knack-diff-words-'), 'old', 'demo');
  writeTree(old, { 'SKILL.md': skillMd(fm('')) });
  const next = join(tempDir('knack-diff-words-'), 'new', 'demo');
  writeTree(next, { 'SKILL.md': skillMd(fm('\n  network: true\n  paths:\n    write: ["out/**"]')) });
  const f = auditSkill(next, { previous: old }).findings.find((x) => x.rule === 'permissions.widened');
  assert.ok(f);
  assert.equal(f.message, 'the update asks for more than the installed version: + network: on, + write out/**');
  assert.match(assertSaid(f.words, f.message), /\+ 网络：开启、\+ 写入 out\/\*\*$/);
  // The quoted line is the diff: English for the CLI, its words for the window.
  assert.equal(f.excerpt, '+ network: on; + write out/**');
  assert.deepEqual(
    f.excerptWords?.map((w, i) => assertSaid(w, f.excerpt.split('; ')[i]!)),
    ['+ 网络：开启', '+ 写入 out/**'],
  );
});
