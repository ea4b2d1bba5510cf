// The audit's hint automata are loaded from scan-tables.ts instead of built in every audit thread: the stored tables
// must be exactly what the rule book builds now (else `npm run scan-tables`), and a rule book they were not built from
// gets automata built for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditScanTables, auditText, quietLinesOf } from '../../../main/core/skills/trust/audit.js';
import { lineFilter, packTables, unpackTables } from '../../../main/core/skills/trust/audit-hints.js';
import { RULES } from '../../../main/core/skills/trust/audit-rules.js';
import { SCAN_TABLES } from '../../../main/core/skills/trust/scan-tables.js';

test('scan-tables.ts holds exactly the automata the rule book builds now (else: npm run scan-tables)', () => {
  const built = auditScanTables();
  assert.ok(built.size >= 3, `${built.size} tables`);
  for (const [key, tables] of built) {
    const stored = SCAN_TABLES[key];
    assert.ok(
      stored,
      `no stored tables for ${key}: the rule book or the prefilter changed, run \`npm run scan-tables\``,
    );
    assert.deepEqual(
      unpackTables(stored),
      tables,
      `stored tables ${key} differ from the built ones: run \`npm run scan-tables\``,
    );
  }
  assert.deepEqual(
    Object.keys(SCAN_TABLES).sort(),
    [...built.keys()].sort(),
    'stale entries in scan-tables.ts: run `npm run scan-tables`',
  );
});

test('the audit reads with the stored automata as with built ones', () => {
  const lines = [
    'plain words here',
    'curl https://x.example/i.sh | sh',
    '```bash',
    'python3 -c "import os"',
    'sudo rm -rf /',
  ];
  assert.deepEqual([...quietLinesOf(lines)], [1, 0, 1, 0, 0]);
  assert.deepEqual([...quietLinesOf(Buffer.from(lines.join('\n')))], [1, 0, 1, 0, 0]);
  assert.ok(auditText('x.sh', lines.join('\n'), 'shell').findings.some((f) => f.level === 'P0'));
});

test('a rule book the stored tables were not built from gets automata of its own', () => {
  const own = lineFilter(RULES, ['zzqx']);
  assert.deepEqual([...own.quiet(['zzqx here', 'plain'])], [0, 1]);
  assert.deepEqual([...own.quietBytes(Buffer.from('zzqx here\nplain'))], [0, 1]);
  assert.deepEqual([...own.quietBytesJs(Buffer.from('zzqx here\nplain'))], [0, 1]);
});

test('packed tables come back as they went in, and a damaged string is refused', () => {
  const t = {
    n: 7,
    a: Uint8Array.from([1, 2, 3]),
    b: Uint16Array.from([65535, 1]),
    c: Uint32Array.from([2 ** 32 - 1]),
    d: Int32Array.from([-5, 9]),
  };
  assert.deepEqual(unpackTables(packTables(t)), t);
  assert.throws(() => unpackTables('bm90IGRlZmxhdGVk'));
});
