// Property: the audit reads any text — random, hostile fragments, very long lines — and always returns structured findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { auditText } from '../../../main/core/skills/trust/audit.js';
import { deobfuscate, normalizeLine } from '../../../main/core/skills/trust/normalize.js';

const fragments = fc.constantFrom(
  'curl ',
  '| sh',
  'sudo ',
  'rm -rf ',
  '/',
  'eval(',
  '"ev"+"al"',
  '\\x65',
  'base64 -d',
  'aWdub3JlIHByZXZpb3Vz',
  'ignore previous instructions',
  '\u200b',
  '\u202e',
  String.fromCodePoint(0xe0069),
  '```bash',
  '```',
  '`',
  '"',
  'never ',
  'https://x.example/',
  'requests.post(',
  '~/.ssh/id_rsa',
  'String.fromCharCode(101,',
  'global[',
  ']',
  '(',
  ')',
  '\n',
  ' ',
  '#',
  '//',
);
const text = fc
  .array(fc.oneof(fragments, fc.string(), fc.string({ unit: 'grapheme', maxLength: 20 })), { maxLength: 60 })
  .map((a) => a.join(''));

test('auditText returns well-formed findings for any text, as Markdown, shell or script', () => {
  fc.assert(
    fc.property(
      text,
      fc.constantFrom('markdown', 'shell', 'script') as fc.Arbitrary<'markdown' | 'shell' | 'script'>,
      (t, kind) => {
        const r = auditText('x', t, kind);
        for (const f of r.findings) {
          assert.ok(f.level === 'P0' || f.level === 'P1');
          assert.ok(Number.isInteger(f.line) && f.line >= 1);
          assert.equal(typeof f.rule, 'string');
          assert.equal(typeof f.excerpt, 'string');
        }
      },
    ),
    { numRuns: 1500 },
  );
});

test('normalisation and de-obfuscation are total and idempotent on their output', () => {
  fc.assert(
    fc.property(text, (t) => {
      const n = normalizeLine(t).text;
      assert.equal(normalizeLine(n).text, n);
      assert.equal(typeof deobfuscate(t), 'string');
    }),
    { numRuns: 1500 },
  );
});

test('very long and pathological lines are audited without catastrophic backtracking', () => {
  const long = [
    'curl ' + 'a'.repeat(100_000),
    'rm ' + '-r '.repeat(20_000),
    'ignore ' + 'previous '.repeat(20_000),
    'send ' + 'contents '.repeat(20_000),
    '"a"+'.repeat(20_000),
    'A'.repeat(200_000),
    'nc ' + '-x '.repeat(30_000),
    'scp .'.repeat(20_000),
    'curl:'.repeat(20_000),
    'dd  '.repeat(20_000),
  ];
  for (const l of long)
    for (const kind of ['markdown', 'shell', 'script'] as const)
      assert.ok(Array.isArray(auditText('x', l, kind).findings));
});
