// One permission reader: the manifest parser reads a skill's permission request once; the gate, the sandbox and the
// audit use that result and agree on every manifest (fast-check), failing closed when the request cannot be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { parseSkillText } from '../../../main/core/skills/format/manifest.js';
import { rejectedPermissions, skillPolicyOf } from '../../../main/core/skills/format/permissions.js';
import type { SkillManifest } from '../../../main/core/skills/format/types.js';
import { auditSkill } from '../../../main/core/skills/trust/audit.js';
import { policyFromManifest } from '../../../main/core/sandbox/skill-policy.js';
import { SandboxError } from '../../../main/core/sandbox/protocol.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import type { Permissions } from '../../../main/core/policy/permissions.js';

const root = tempDir();
let n = 0;

/** Write a skill folder with this frontmatter text; returns its folder and SKILL.md text. */
function skill(frontmatter: string): { dir: string; text: string } {
  const dir = join(root, `s${n++}`, 'demo');
  const text = `---\n${frontmatter}\n---\n# Demo\n\nDo the thing.\n`;
  writeTree(dir, { 'SKILL.md': text });
  return { dir, text };
}

/** What each reader makes of one skill: the parsed request, the gate's, the sandbox's and the audit's view. */
function readers(
  dir: string,
  text: string,
): {
  manifest: SkillManifest;
  gate: Permissions;
  sandbox: Permissions | 'refused';
  audit: Permissions | undefined;
  auditP0: boolean;
} {
  const parsed = parseSkillText(text, join(dir, 'SKILL.md'), { folderName: null });
  assert.ok(parsed.manifest, `the manifest parses: ${JSON.stringify(parsed.diagnostics)}`);
  const manifest = parsed.manifest;
  const gate = skillPolicyOf({ manifest, realDir: dir }).permissions;
  let sandbox: Permissions | 'refused';
  try {
    sandbox = policyFromManifest('demo', dir, manifest).permissions;
  } catch (e) {
    assert.ok(e instanceof SandboxError && e.code === 'skill.bad_permissions', String(e));
    sandbox = 'refused';
  }
  const report = auditSkill(dir);
  const auditP0 = report.findings.some((f) => f.rule === 'manifest.permissions' && f.level === 'P0');
  return { manifest, gate, sandbox, audit: report.permissions, auditP0 };
}

function assertAgree(r: ReturnType<typeof readers>): void {
  const req = r.manifest.requested.permissions;
  if (req) {
    assert.deepEqual(r.gate, req);
    assert.deepEqual(r.sandbox, req);
    assert.deepEqual(r.audit, req);
    assert.equal(r.auditP0, false);
  } else {
    // Fail closed everywhere: the gate grants nothing, the sandbox runs nothing, the audit blocks it.
    assert.ok(r.manifest.requested.diagnostics.some((d) => d.severity === 'error' && d.field));
    assert.deepEqual(r.gate, rejectedPermissions());
    assert.equal(r.sandbox, 'refused');
    assert.equal(r.audit, undefined);
    assert.equal(r.auditP0, true);
  }
}

test('allowed-tools [Read, {a: 1}] is rejected by every reader (one reader used to grant read_file)', () => {
  const { dir, text } = skill('name: demo\ndescription: A demo skill\nallowed-tools: [Read, {a: 1}]');
  const r = readers(dir, text);
  assert.equal(r.manifest.requested.permissions, undefined);
  assert.deepEqual(
    r.manifest.requested.diagnostics.map((d) => [d.field, d.line]),
    [['allowed-tools[1]', 4]],
  );
  assertAgree(r);
});

test('allowed-tools "" means none for every reader: the least-privilege default, as if it were left out', () => {
  const { dir, text } = skill('name: demo\ndescription: A demo skill\nallowed-tools: ""');
  const r = readers(dir, text);
  assert.equal(r.manifest.requested.permissions?.declared, 'none');
  assertAgree(r);
});

test('a skill that declares nothing gets the least-privilege default from every reader', () => {
  const { dir, text } = skill('name: demo\ndescription: A demo skill');
  const r = readers(dir, text);
  assert.equal(r.manifest.requested.permissions?.declared, 'none');
  assertAgree(r);
});

test('the gate built from a rejected request lets the skill use no tool and read nothing outside its folder', () => {
  const { dir, text } = skill('name: demo\ndescription: A demo skill\nallowed-tools: [Read, {a: 1}]');
  const manifest = parseSkillText(text, join(dir, 'SKILL.md'), { folderName: null }).manifest!;
  const ws = tempDir();
  writeTree(ws, { 'notes.txt': 'x' });
  const { gate } = buildGate({
    settings: DEFAULT_SETTINGS,
    workspace: ws,
    skills: [skillPolicyOf({ manifest, realDir: dir })],
  });
  const actor = { kind: 'skill', skill: 'demo' } as const;
  const file = join(ws, 'notes.txt');
  assert.equal(
    gate.authorize({ tool: 'read_file', args: { path: file }, access: { read: [file] } }, actor).verdict,
    'deny',
  );
  assert.equal(gate.authorize({ tool: 'grep', args: { path: '.' }, access: { read: [ws] } }, actor).verdict, 'deny');
  // The same request read by the old lenient reader granted read_file on the workspace: prove that difference is gone.
  const declared = parseSkillText(
    '---\nname: demo\ndescription: d\nallowed-tools: [Read]\n---\n',
    join(dir, 'SKILL.md'),
    { folderName: null },
  ).manifest!;
  const open = buildGate({
    settings: DEFAULT_SETTINGS,
    workspace: ws,
    skills: [skillPolicyOf({ manifest: declared, realDir: dir })],
  }).gate;
  assert.equal(
    open.authorize({ tool: 'read_file', args: { path: file }, access: { read: [file] } }, actor).verdict,
    'allow',
  );
});

const scalar = fc.oneof(
  fc.constantFrom(
    'Read',
    'Grep',
    'bash',
    'Bash(git:*)',
    'Bash(git status)',
    'Bash(rm -rf *)',
    'WebFetch',
    'web_fetch',
    'mcp__srv__tool',
    'x(y)',
    '',
    ' ',
    'Read, Grep',
    'Read Bash(git log:*)',
    '../x',
    '/etc/passwd',
    'skill:**',
    'skill:../x',
    '**',
    'src/**',
    '%2e%2e/a',
  ),
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('tools', 'network', 'paths', 'read', 'write', 'a'), tie('value'), { maxKeys: 3 }),
  ),
}));
const block = fc.oneof(
  value,
  fc.record(
    {
      tools: fc.oneof(fc.array(scalar, { maxLength: 5 }), value),
      network: fc.oneof(fc.boolean(), value),
      paths: fc.oneof(
        fc.record(
          { read: fc.array(scalar, { maxLength: 4 }), write: fc.array(scalar, { maxLength: 4 }) },
          { requiredKeys: [] },
        ),
        value,
      ),
    },
    { requiredKeys: [] },
  ),
);
const frontmatter = fc.record({
  permissions: fc.option(block, { nil: undefined }),
  allowed: fc.option(fc.oneof(scalar, fc.array(scalar, { maxLength: 5 }), value), { nil: undefined }),
  flow: fc.boolean(),
  permissionsFirst: fc.boolean(),
});

test('on arbitrary manifests the gate, the sandbox and the audit agree with the parsed request (fast-check)', () => {
  fc.assert(
    fc.property(frontmatter, (f) => {
      const fields: [string, unknown][] = [];
      if (f.permissions !== undefined) fields.push(['permissions', f.permissions]);
      if (f.allowed !== undefined) fields.push(['allowed-tools', f.allowed]);
      if (!f.permissionsFirst) fields.reverse();
      const data = Object.fromEntries([['name', 'demo'], ['description', 'A demo skill'], ...fields]);
      const yaml = stringify(data, f.flow ? { collectionStyle: 'flow' as const } : {}).trimEnd();
      const { dir, text } = skill(yaml);
      assertAgree(readers(dir, text));
    }),
    { numRuns: 120 },
  );
});

test('the request reads the same whatever the key order and collection style (fast-check)', () => {
  fc.assert(
    fc.property(frontmatter, (f) => {
      const fields: [string, unknown][] = [];
      if (f.permissions !== undefined) fields.push(['permissions', f.permissions]);
      if (f.allowed !== undefined) fields.push(['allowed-tools', f.allowed]);
      const a = stringify(Object.fromEntries([['name', 'demo'], ['description', 'A demo skill'], ...fields])).trimEnd();
      const b = stringify(
        Object.fromEntries(
          [...fields].reverse().concat([
            ['description', 'A demo skill'],
            ['name', 'demo'],
          ]),
        ),
        { collectionStyle: 'flow' as const },
      ).trimEnd();
      const ra = parseSkillText(`---\n${a}\n---\n`, 'SKILL.md', { folderName: null }).manifest?.requested;
      const rb = parseSkillText(`---\n${b}\n---\n`, 'SKILL.md', { folderName: null }).manifest?.requested;
      assert.ok(ra && rb);
      assert.deepEqual(ra.permissions, rb.permissions);
      assert.deepEqual(
        ra.diagnostics.map((d) => [d.field, d.code, d.message]),
        rb.diagnostics.map((d) => [d.field, d.code, d.message]),
      );
      // The catalog cache stores manifests as JSON: the request survives the round trip unchanged.
      assert.deepEqual(JSON.parse(JSON.stringify(ra)), ra);
    }),
    { numRuns: 300 },
  );
});
