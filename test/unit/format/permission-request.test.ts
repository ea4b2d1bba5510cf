// The permission reader's short cut for a frontmatter that asks for nothing gives exactly what the strict reader gives,
// and a frontmatter with either key, however it is written (empty, null, wrong type), still goes through the strict one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readPermissionRequest } from '../../../main/core/skills/format/permissions.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';

const FILE = '/skills/x/SKILL.md';
const lineOf = (path: (string | number)[]): number | undefined =>
  path[0] === 'permissions' ? 5 : path[0] === 'allowed-tools' ? 7 : undefined;
/** The strict reader itself, given the frontmatter's two keys as written. */
const strict = (data: Record<string, unknown>, file: string, at: typeof lineOf) =>
  parsePermissions({
    file,
    lineOf: at,
    ...('permissions' in data ? { permissions: data.permissions } : {}),
    ...('allowed-tools' in data ? { allowedTools: data['allowed-tools'] } : {}),
  });

test('a frontmatter without `permissions` or `allowed-tools` gets what the strict reader gives it: the defaults', () => {
  // Keys near the two (other spellings, other cases) are not them: they ask for nothing either.
  const key = fc
    .oneof(
      fc.constantFrom(
        'name',
        'description',
        'license',
        'metadata',
        'tools',
        'network',
        'paths',
        'Permissions',
        'allowed_tools',
        'allowedTools',
        'allowed-tool',
        'permission',
      ),
      fc.stringMatching(/^[a-z_][a-z0-9_.-]{0,8}$/),
    )
    .filter((k) => k !== 'permissions' && k !== 'allowed-tools');
  const value = fc.oneof(
    fc.string(),
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
  );
  fc.assert(
    fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (data) => {
      assert.deepEqual(readPermissionRequest(data, FILE, lineOf), strict(data, FILE, lineOf));
    }),
    { numRuns: 300 },
  );
});

test('a frontmatter with either key, however written, is read by the strict reader (errors with file, line and field)', () => {
  const cases: Record<string, unknown>[] = [
    { permissions: null },
    { permissions: {} },
    { permissions: { network: 'yes' } },
    { permissions: { paths: { read: ['../../etc'] } } },
    { permissions: 'all' },
    { 'allowed-tools': '' },
    { 'allowed-tools': [] },
    { 'allowed-tools': 'Read Bash(git:*)' },
    { 'allowed-tools': 42 },
    { permissions: { tools: ['read_file'] }, 'allowed-tools': 'Read' },
    { permissions: undefined },
  ];
  for (const data of cases) {
    assert.deepEqual(readPermissionRequest(data, FILE, lineOf), strict(data, FILE, lineOf), JSON.stringify(data));
  }
  const bad = readPermissionRequest({ permissions: { network: 'yes' } }, FILE, lineOf);
  assert.equal(bad.permissions, undefined, 'a request that cannot be read gives nothing, never the defaults');
  assert.equal(bad.diagnostics[0]?.file, FILE);
  assert.equal(bad.diagnostics[0]?.field, 'permissions.network');
  assert.equal(readPermissionRequest({ 'allowed-tools': 'Read' }, FILE).permissions?.declared, 'allowed-tools');
});
