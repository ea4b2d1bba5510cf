// Strict permission manifests: every rejection names its field; allowed-tools maps onto the same model; defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parsePermissions,
  defaultPermissions,
  splitAllowedTools,
  permissionsFromFrontmatter,
} from '../../../main/core/policy/permissions.js';
import { readFrontmatterText } from '../../../main/core/skills/format/skill-frontmatter.js';

const parse = (permissions: unknown) => parsePermissions({ file: 'skills/foo/SKILL.md', permissions });
const rejectedField = (permissions: unknown): { field?: string; message: string } => {
  const r = parse(permissions);
  assert.equal(r.permissions, undefined, `expected rejection of ${JSON.stringify(permissions)}`);
  const d = r.diagnostics.find((x) => x.severity === 'error');
  assert.ok(d);
  return { ...(d.field ? { field: d.field } : {}), message: d.message };
};

test('a well-formed permissions block becomes the Permission model', () => {
  const r = parse({
    tools: ['read_file', 'bash(git status:*)'],
    network: true,
    paths: { read: ['src/**', 'skill:data/*.json'], write: ['out/**'] },
  });
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.permissions?.tools, ['read_file', 'bash']);
  assert.deepEqual(r.permissions?.commands.bash, [{ text: 'git status', exact: false }]);
  assert.equal(r.permissions?.network, true);
  assert.deepEqual(r.permissions?.read, ['src/**', 'skill:data/*.json']);
  assert.deepEqual(r.permissions?.write, ['out/**']);
});

test('an unknown field is rejected and named', () => {
  assert.equal(rejectedField({ tools: ['read_file'], sudo: true }).field, 'permissions.sudo');
  assert.equal(rejectedField({ paths: { read: ['a'], exec: ['b'] } }).field, 'permissions.paths.exec');
});

test('wrong types are rejected and named', () => {
  assert.equal(rejectedField({ network: 'yes' }).field, 'permissions.network');
  assert.equal(rejectedField({ tools: 'read_file' }).field, 'permissions.tools');
  assert.equal(rejectedField({ tools: [3] }).field, 'permissions.tools[0]');
  assert.equal(rejectedField({ paths: ['a'] }).field, 'permissions.paths');
  assert.equal(rejectedField('all').field, 'permissions');
  assert.equal(rejectedField(['read_file']).field, 'permissions');
  assert.equal(rejectedField({ paths: 'src/**' }).field, 'permissions.paths');
});

test('absolute paths, drive letters, UNC paths and backslashes are rejected', () => {
  for (const [g, word] of [
    ['/etc/passwd', 'absolute'],
    ['C:/Users/x', 'drive letter'],
    ['c:secrets', 'drive letter'],
    ['//server/share', 'UNC'],
    ['\\\\server\\share', 'backslash'],
    ['src\\main', 'backslash'],
    ['~/.ssh/id_rsa', 'home'],
    ['skill:/abs', 'absolute'],
  ] as const) {
    const r = rejectedField({ paths: { read: [g] } });
    assert.equal(r.field, 'permissions.paths.read[0]');
    assert.match(r.message, new RegExp(word), `${g}: ${r.message}`);
  }
});

test('".." is rejected anywhere, also percent-encoded (once or twice)', () => {
  for (const g of [
    '../x',
    'a/../../b',
    'a/..',
    'skill:../other',
    '%2e%2e/x',
    '%2E%2E%2Fx',
    'a/%252e%252e/b',
    '.%2e/x',
  ]) {
    const r = rejectedField({ paths: { write: [g] } });
    assert.equal(r.field, 'permissions.paths.write[0]');
    assert.match(r.message, /leaves/, g);
  }
});

test('an empty list or an empty key means "none": the same as leaving the field out', () => {
  const same = (a: unknown, b: unknown): void => {
    const ra = parse(a);
    const rb = parse(b);
    assert.deepEqual(ra.diagnostics, [], JSON.stringify(a));
    assert.deepEqual(ra.permissions, rb.permissions, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  };
  same({ paths: { read: [], write: [] } }, {});
  same({ tools: [] }, {});
  same({ paths: null }, {});
  same({ tools: null, network: null }, {});
  same(
    { tools: ['read_file'], paths: { read: ['src/**'], write: [] } },
    { tools: ['read_file'], paths: { read: ['src/**'] } },
  );
  // `permissions:` left empty is no permissions block at all (the documented default).
  assert.deepEqual(parse(null).permissions, defaultPermissions());
  for (const allowed of [[], '', '  ', null]) {
    const r = parsePermissions({ file: 'x/SKILL.md', allowedTools: allowed });
    assert.deepEqual(r.diagnostics, [], JSON.stringify(allowed));
    assert.deepEqual(r.permissions, defaultPermissions(), JSON.stringify(allowed));
  }
  // An empty allowed-tools next to a permissions block leaves the block alone (no intersection with nothing).
  const both = parsePermissions({ file: 'x/SKILL.md', permissions: { tools: ['read_file'] }, allowedTools: [] });
  assert.deepEqual(both.permissions?.tools, ['read_file']);
  assert.equal(both.permissions?.declared, 'permissions');
});

test('oversized lists and really unreadable entries are still rejected', () => {
  assert.equal(rejectedField({ tools: [null] }).field, 'permissions.tools[0]');
  assert.equal(rejectedField({ paths: { read: [''] } }).field, 'permissions.paths.read[0]');
  const big = Array.from({ length: 65 }, (_, i) => `dir${i}/**`);
  assert.match(rejectedField({ paths: { read: big } }).message, /at most 64/);
  assert.match(rejectedField({ paths: { read: ['a'.repeat(300)] } }).message, /longer than/);
});

test('writing into the skill folder is rejected: it is read-only', () => {
  assert.match(rejectedField({ paths: { write: ['skill:cache/**'] } }).message, /read-only/);
});

test('a command pattern on a non-command tool is rejected', () => {
  assert.equal(rejectedField({ tools: ['read_file(x:*)'] }).field, 'permissions.tools[0]');
});

test('diagnostics carry the SKILL.md line of the offending field', () => {
  const fm = readFrontmatterText(
    '---\nname: foo\ndescription: d\npermissions:\n  tools: [read_file]\n  paths:\n    read:\n      - ok/**\n      - ../x\n---\nbody\n',
  );
  assert.ok(fm.data);
  const r = permissionsFromFrontmatter(fm.data, 'skills/foo/SKILL.md', fm.lineOf);
  const d = r.diagnostics[0]!;
  assert.equal(d.field, 'permissions.paths.read[1]');
  assert.equal(d.line, 9);
  assert.match(d.message, /"\.\.\/x" leaves the workspace/);
});

test('allowed-tools as a string (spaces or commas) maps onto the same model', () => {
  assert.deepEqual(splitAllowedTools('Bash(git status:*) Read, Grep'), ['Bash(git status:*)', 'Read', 'Grep']);
  const r = parsePermissions({ file: 'SKILL.md', allowedTools: 'Bash(git:*) Bash(jq:*) Read' });
  assert.deepEqual(r.permissions?.tools, ['bash', 'read_file']);
  assert.deepEqual(
    r.permissions?.commands.bash?.map((c) => c.text),
    ['git', 'jq'],
  );
  assert.equal(r.permissions?.network, false);
  assert.deepEqual(r.permissions?.read, ['**']);
  assert.equal(r.permissions?.declared, 'allowed-tools');
});

test('allowed-tools as a list maps WebFetch to network and Write to workspace writes', () => {
  const r = parsePermissions({ file: 'SKILL.md', allowedTools: ['Read', 'Write', 'WebFetch', 'mcp__sentry__search'] });
  assert.deepEqual(r.permissions?.tools, ['read_file', 'write_file', 'web_fetch', 'mcp__sentry__search']);
  assert.equal(r.permissions?.network, true);
  assert.deepEqual(r.permissions?.write, ['**']);
});

test('both permissions and allowed-tools: the skill gets only what both allow, with a warning', () => {
  const r = parsePermissions({
    file: 'SKILL.md',
    permissions: { tools: ['read_file', 'bash'], network: true },
    allowedTools: 'Read Bash(git:*)',
  });
  assert.deepEqual(r.permissions?.tools, ['read_file', 'bash']);
  assert.deepEqual(r.permissions?.commands.bash, [{ text: 'git', exact: false }]);
  assert.equal(r.permissions?.network, false);
  assert.ok(r.diagnostics.some((d) => d.code === 'permissions.both' && d.severity === 'warning'));
});

test('no permissions block: least privilege (no tools, no network, read only its own folder)', () => {
  const r = parsePermissions({ file: 'SKILL.md' });
  assert.deepEqual(r.permissions, defaultPermissions());
  assert.deepEqual(r.permissions?.tools, []);
  assert.equal(r.permissions?.network, false);
  assert.deepEqual(r.permissions?.read, ['skill:**']);
  assert.deepEqual(r.permissions?.write, []);
});

test('a YAML alias bomb in the frontmatter is refused, not expanded', () => {
  const lines = ['---', 'name: bomb', 'description: d', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
  const names = 'bcdefghijk'.split('');
  let prev = 'a';
  for (const n of names) {
    lines.push(`${n}: &${n} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`);
    prev = n;
  }
  lines.push(`permissions: {tools: *${prev}}`, '---', 'body');
  const fm = readFrontmatterText(lines.join('\n'));
  assert.equal(fm.data, undefined);
  assert.ok(fm.errors.length > 0);
  assert.match(fm.errors[0]!.message, /alias|Excessive/i);
});

test('look-alike spellings are judged after NFKC: full-width dots and slashes are ".." and "/"', () => {
  for (const g of ['\uFF0E\uFF0E/x', 'a/\uFF0E\uFF0E\uFF0Fb']) {
    assert.match(rejectedField({ paths: { read: [g] } }).message, /leaves/, g);
  }
  assert.match(rejectedField({ paths: { read: ['\uFF0Fetc/passwd'] } }).message, /absolute/);
});
