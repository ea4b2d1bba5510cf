// Property: random manifests, frontmatter and calls never crash or hang the parser or the gate; results stay structured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { parsePermissions } from '../../../main/core/policy/permissions.js';
import { readFrontmatterText } from '../../../main/core/skills/format/skill-frontmatter.js';
import { permissionsFromFrontmatter } from '../../../main/core/policy/permissions.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { createGate } from '../../../main/core/policy/gate.js';
import type { Actor, ToolCall } from '../../../main/core/policy/types.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';

const pathish = fc.oneof(
  fc.string(),
  fc.constantFrom('../x', '/etc/passwd', 'C:\\x', '%2e%2e/a', 'src/**', 'skill:**', '~/.ssh', '\\\\srv\\s', 'a/b'),
);
const manifest = fc.oneof(
  fc.anything(),
  fc.record(
    {
      tools: fc.oneof(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('bash(git:*)', 'Read', 'read_file', 'Bash(', 'x(y)')), {
          maxLength: 70,
        }),
        fc.anything(),
      ),
      network: fc.oneof(fc.boolean(), fc.anything()),
      paths: fc.oneof(
        fc.record({ read: fc.array(pathish, { maxLength: 70 }), write: fc.array(pathish) }, { requiredKeys: [] }),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  ),
);

test('the permission parser always returns permissions or error diagnostics, never throws', () => {
  fc.assert(
    fc.property(manifest, fc.oneof(fc.constant(undefined), fc.string(), fc.array(fc.string())), (p, allowed) => {
      const r = parsePermissions({
        file: 'SKILL.md',
        permissions: p,
        ...(allowed !== undefined ? { allowedTools: allowed } : {}),
      });
      assert.ok(Array.isArray(r.diagnostics));
      if (r.permissions) {
        assert.ok(Array.isArray(r.permissions.tools) && typeof r.permissions.network === 'boolean');
        for (const g of [...r.permissions.read, ...r.permissions.write])
          assert.ok(!g.includes('..') && !g.startsWith('/') && !g.includes('\\'));
      } else {
        assert.ok(r.diagnostics.some((d) => d.severity === 'error' && d.field));
      }
    }),
    { numRuns: 2000 },
  );
});

test('random frontmatter text is read or refused with errors, never throws', () => {
  const yamlish = fc.array(
    fc.oneof(
      fc.string(),
      fc.constantFrom(
        'permissions:',
        '  tools: [a, *x]',
        'a: &x [1]',
        'b: *x',
        '!!js/function x',
        '---',
        'name: n',
        '  - ../x',
        '\t',
      ),
    ),
    { maxLength: 30 },
  );
  fc.assert(
    fc.property(yamlish, (lines) => {
      const fm = readFrontmatterText(`---\n${lines.join('\n')}\n---\nbody`);
      if (fm.data) {
        const r = permissionsFromFrontmatter(fm.data, 'SKILL.md', fm.lineOf);
        assert.ok(r.permissions !== undefined || r.diagnostics.length > 0);
      } else {
        assert.ok(fm.errors.length > 0);
      }
    }),
    { numRuns: 1500 },
  );
});

test('the gate answers every random call and actor with a verdict and a reason', () => {
  const root = tempDir();
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const rules: Rule[] = [
    { id: 'a', effect: 'allow', tool: 'bash', command: 'git', createdAt: 0 },
    { id: 'd', effect: 'deny', tool: '*', command: 'rm -rf', createdAt: 0 },
    { id: 'p', effect: 'allow', tool: '@write', path: 'src/**', createdAt: 0 },
  ];
  const perms = parsePermissions({
    file: 'SKILL.md',
    permissions: { tools: ['read_file', 'bash(git:*)'], paths: { read: ['src/**'] } },
  }).permissions!;
  const gate = createGate({
    ceiling: ceilingFrom(DEFAULT_SETTINGS, ws),
    rules: () => rules,
    skill: (n) => (n === 's' ? { name: 's', dir: join(root, 's'), permissions: perms } : undefined),
  });
  const call = fc.oneof(
    fc.anything() as fc.Arbitrary<unknown>,
    fc.record({
      tool: fc.oneof(fc.string(), fc.constantFrom('bash', 'read_file', 'write_file', 'web_fetch')),
      args: fc.constant({}),
      access: fc.record(
        {
          read: fc.array(pathish),
          write: fc.array(pathish),
          network: fc.boolean(),
          command: fc.string(),
          host: fc.string(),
        },
        { requiredKeys: [] },
      ),
    }),
  );
  const actor = fc.oneof(
    fc.constant<Actor>({ kind: 'user' }),
    fc.record({ kind: fc.constant('agent' as const), activeSkills: fc.array(fc.constantFrom('s', 'nope', '')) }),
    fc.record({ kind: fc.constant('skill' as const), skill: fc.constantFrom('s', 'nope') }),
    fc.anything() as fc.Arbitrary<unknown>,
  );
  fc.assert(
    fc.property(call, actor, (c, a) => {
      const d = gate.authorize(c as ToolCall, a as Actor);
      assert.ok(['allow', 'ask', 'deny'].includes(d.verdict));
      assert.ok(typeof d.reason === 'string' && d.reason.length > 0);
    }),
    { numRuns: 3000 },
  );
});
