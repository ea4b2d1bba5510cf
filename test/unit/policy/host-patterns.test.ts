// A host pattern means one thing everywhere: what the sandbox runtime's proxy lets a command reach with it in its
// allowed domains (its own matchesDomainPattern: `*.x` is every strict subdomain of x, not x itself, and never an IP
// literal). An allow rule for a host never covers more than that, and a skill update whose hosts reach more than its
// old ones counts as a widening.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesDomainPattern } from '@anthropic-ai/sandbox-runtime/dist/sandbox/domain-pattern.js';
import { permissionDiff } from '../../../main/core/policy/diff.js';
import { parsePermissions, type Permissions } from '../../../main/core/policy/permissions.js';
import { evaluateRules } from '../../../main/core/policy/rules.js';

const PATTERNS = ['*.example.test', 'example.test', '*.Example.TEST', 'api.example.test', '*.0.0.1', '*.1'];
const HOSTS = [
  'example.test',
  'EXAMPLE.test',
  'api.example.test',
  'a.b.example.test',
  'badexample.test',
  'example.test.evil.test',
  'api.example.test.evil.test',
  '127.0.0.1',
  '10.0.0.1',
];

function ruleAllows(pattern: string, host: string): boolean {
  const m = evaluateRules(
    [{ id: 'r', effect: 'allow', tool: 'web_fetch', host: pattern, createdAt: 0 }],
    { tool: 'web_fetch', args: {}, access: { network: true, host } },
    { workspace: '/ws', realPaths: [] },
  );
  return m?.effect === 'allow';
}

function net(hosts: string[]): Permissions {
  const p = parsePermissions({ file: 'SKILL.md', permissions: { tools: ['web_fetch'], network: hosts } });
  assert.deepEqual(p.diagnostics, []);
  assert.ok(p.permissions);
  return p.permissions;
}

test('an allow rule for a host pattern covers exactly the hosts the sandbox proxy lets through with it', () => {
  for (const pattern of PATTERNS)
    for (const host of HOSTS)
      assert.equal(ruleAllows(pattern, host), matchesDomainPattern(host, pattern), `${pattern} ∋ ${host}`);
});

test('a skill update counts a host as new unless its old hosts let the proxy reach it already', () => {
  for (const pattern of PATTERNS)
    for (const host of HOSTS) {
      const d = permissionDiff(net([pattern]), net([host]));
      assert.equal(d.widened, !matchesDomainPattern(host, pattern), `${pattern} → ${host}: ${d.lines.join(', ')}`);
    }
});

test('a wildcard covers a wildcard only when every host of the new one is a strict subdomain of the old', () => {
  const widens = (a: string, b: string) => permissionDiff(net([a]), net([b])).widened;
  assert.equal(widens('*.example.test', '*.eu.example.test'), false);
  assert.equal(widens('*.example.test', '*.example.test'), false);
  assert.equal(widens('*.eu.example.test', '*.example.test'), true);
  assert.equal(widens('eu.example.test', '*.eu.example.test'), true);
  assert.equal(widens('*.example.test', '*.badexample.test'), true);
});
