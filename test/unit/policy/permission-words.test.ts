// Every finding about a SKILL.md's `permissions` / `allowed-tools` is said in words naming its field: their English is
// the CLI's line as before, their Chinese has no English sentence; the audit's finding says the reason in words too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parsePermissions, permissionsFromFrontmatter } from '../../../main/core/policy/permissions.js';
import { readFrontmatterText } from '../../../main/core/skills/format/skill-frontmatter.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';
import { assertSaid } from '../../helpers/words.js';

const F = 'skills/foo/SKILL.md';

/** The one finding of a rejected (or warned) request: its words, English and Chinese. */
function finding(permissions: unknown, allowedTools?: unknown): { field?: string; message: string; zh: string } {
  const r = parsePermissions({
    file: F,
    ...(permissions !== undefined ? { permissions } : {}),
    ...(allowedTools !== undefined ? { allowedTools } : {}),
  });
  const d = r.diagnostics[0];
  assert.ok(d, `no finding for ${JSON.stringify([permissions, allowedTools])}`);
  assert.ok(d.code.startsWith('permissions.'), d.code);
  for (const x of r.diagnostics) assertSaid(x.words, x.message, `${x.field}: ${x.message}`);
  return { ...(d.field ? { field: d.field } : {}), message: d.message, zh: assertSaid(d.words, d.message) };
}

test('each problem with a permissions block is said in words, its English unchanged', () => {
  const cases: [unknown, string, string][] = [
    ['all', 'permissions', 'must be a mapping {tools, network, paths}, got string "all"'],
    [['read_file'], 'permissions', 'must be a mapping {tools, network, paths}, got a list'],
    [{ sudo: true }, 'permissions.sudo', 'unknown field "sudo" (allowed: tools, network, paths)'],
    [{ tools: 'read_file' }, 'permissions.tools', 'must be a list of strings, got string "read_file"'],
    [{ tools: [3] }, 'permissions.tools[0]', 'must be a string, got number 3'],
    [{ tools: [null] }, 'permissions.tools[0]', 'must be a string, got null'],
    [{ tools: [{ a: 1 }] }, 'permissions.tools[0]', 'must be a string, got a mapping'],
    [{ tools: ['x'.repeat(300)] }, 'permissions.tools[0]', 'is longer than 256 characters'],
    [
      { tools: ['read file'] },
      'permissions.tools[0]',
      '"read file" is not a tool name (letters, digits, "_", "-", "."; optional "(command:*)")',
    ],
    [{ network: 'yes' }, 'permissions.network', 'must be true, false or a list of hosts, got string "yes"'],
    [
      { network: ['https://x.test/'] },
      'permissions.network[0]',
      'must be a host name like api.example.com or *.example.com, got string "https://x.test/"',
    ],
    [
      { network: [true] },
      'permissions.network[0]',
      'must be a host name like api.example.com or *.example.com, got boolean true',
    ],
    [{ paths: 'src/**' }, 'permissions.paths', 'must be a mapping {read, write}, got string "src/**"'],
    [{ paths: { exec: ['b'] } }, 'permissions.paths.exec', 'unknown field "exec" (allowed: read, write)'],
    [{ paths: { read: [''] } }, 'permissions.paths.read[0]', '"" is empty'],
    [{ paths: { read: ['a\u0001b'] } }, 'permissions.paths.read[0]', '"a\u0001b" contains a control character'],
    [{ paths: { read: ['../x'] } }, 'permissions.paths.read[0]', '"../x" leaves the workspace (".." is not allowed)'],
    [
      { paths: { read: ['skill:%2e%2e/x'] } },
      'permissions.paths.read[0]',
      '"skill:%2e%2e/x" leaves the skill folder (".." is not allowed, also not percent-encoded or in look-alike characters)',
    ],
    [
      { paths: { read: ['src\\main'] } },
      'permissions.paths.read[0]',
      '"src\\main" uses a backslash (write paths with "/")',
    ],
    [
      { paths: { read: ['//srv/share'] } },
      'permissions.paths.read[0]',
      '"//srv/share" is a UNC/network path (paths are relative)',
    ],
    [
      { paths: { read: ['/etc/passwd'] } },
      'permissions.paths.read[0]',
      '"/etc/passwd" is an absolute path (paths are relative to the workspace)',
    ],
    [{ paths: { read: ['C:/x'] } }, 'permissions.paths.read[0]', '"C:/x" has a drive letter (paths are relative)'],
    [
      { paths: { read: ['~/.ssh'] } },
      'permissions.paths.read[0]',
      '"~/.ssh" points into a home folder (paths are relative)',
    ],
    [{ paths: { read: ['https://x.test/a'] } }, 'permissions.paths.read[0]', '"https://x.test/a" is a URL, not a path'],
    [{ paths: { read: ['skill:'] } }, 'permissions.paths.read[0]', '"skill:" names no path after "skill:"'],
    [
      { paths: { write: ['skill:cache/**'] } },
      'permissions.paths.write[0]',
      '"skill:cache/**" writes into the skill folder, which is read-only',
    ],
    [
      { paths: { read: Array.from({ length: 65 }, (_, i) => `d${i}/**`) } },
      'permissions.paths.read',
      'has 65 entries; at most 64 are allowed',
    ],
  ];
  for (const [block, field, message] of cases) {
    const f = finding(block);
    assert.equal(f.field, field, JSON.stringify(block));
    assert.equal(f.message, message, JSON.stringify(block));
  }
  const pattern = finding({ tools: ['read_file(x:*)'] });
  assert.match(pattern.message, /^"read_file\(x:\*\)": only command tools \(.*bash.*\) take a "\(command\)" pattern$/);
  assert.match(pattern.zh, /^「read_file\(x:\*\)」：只有命令类工具（.*bash.*）可以带“\(command\)”模式$/);
  assert.equal(finding({ paths: { read: ['../x'] } }).zh, '「../x」会离开工作区（不允许“..”）');
});

test('allowed-tools problems and a request given twice are said in words', () => {
  const many = finding(undefined, Array.from({ length: 65 }, () => 'Read').join(' '));
  assert.deepEqual([many.field, many.message], ['allowed-tools', 'has 65 entries; at most 64 are allowed']);
  const notList = finding(undefined, [3]);
  assert.deepEqual([notList.field, notList.message], ['allowed-tools[0]', 'must be a string, got number 3']);
  const both = parsePermissions({ file: F, permissions: { tools: ['read_file'] }, allowedTools: 'Read' });
  assert.equal(both.diagnostics[0]?.code, 'permissions.both');
  assert.equal(
    assertSaid(both.diagnostics[0]!.words, both.diagnostics[0]!.message),
    '同时给了“permissions”和“allowed-tools”；技能只得到两者都允许的部分',
  );
});

test('the line of the field stays with the words', () => {
  const fm = readFrontmatterText(
    '---\nname: foo\ndescription: d\npermissions:\n  paths:\n    read:\n      - ../x\n---\n',
  );
  const d = permissionsFromFrontmatter(fm.data!, F, fm.lineOf).diagnostics[0]!;
  assert.deepEqual(
    [d.field, d.line, d.message],
    ['permissions.paths.read[0]', 7, '"../x" leaves the workspace (".." is not allowed)'],
  );
  assertSaid(d.words, d.message);
});

test("the audit's finding for an unreadable request says the reason in words, not an English sentence", () => {
  const dir = join(tempDir('knack-perm-words-'), 'foo');
  writeTree(dir, {
    'SKILL.md': skillMd('name: foo\ndescription: d\npermissions:\n  paths:\n    read: ["/etc/passwd"]'),
  });
  const r = auditSkill(dir);
  const f = r.findings.find((x) => x.rule === 'manifest.permissions');
  assert.ok(f, JSON.stringify(r.findings));
  assert.equal(
    f.message,
    'permissions.paths.read[0]: "/etc/passwd" is an absolute path (paths are relative to the workspace) (a permission request that cannot be read cannot be confined)',
  );
  assert.equal(assertSaid(f.words, f.message).includes('是绝对路径（路径相对于工作区）'), true);
});
