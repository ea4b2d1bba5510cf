// Attack on the approval prompt (issue 8, finding 8): control and bidi characters in a path or command must not be
// able to rewrite what the person approving reads. The shared helper escapes them; the CLI prompt uses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { displaySafe, displaySafeLines, INVISIBLE as TABLE } from '../../../preload/display.js';
import { normalizeLine } from '../../../main/core/skills/trust/normalize.js';
import { main } from '../../../main/cli/index.js';
import type { Io } from '../../../main/cli/command.js';
import { cliArgs } from '../../helpers/cli.js';

/** Anything a terminal or a text renderer would not show as itself. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

test('finding 8: every control, C1, bidi and zero-width character is escaped; ordinary text stays as it is', () => {
  const attacks = [
    '\x1b[1A\x1b[2K',
    '\r',
    '\x9b1A',
    '\u202eexe.txt',
    '\u2066x\u2069',
    '\u200b',
    '\u200e',
    '\u061c',
    '\u2028',
    '\ufeff',
    '\x07',
    '\x7f',
    '\b',
    '\u{E0041}',
  ];
  for (const a of attacks) {
    const shown = displaySafe(`safe.txt${a}`);
    assert.ok(!INVISIBLE.test(shown), JSON.stringify(shown));
    assert.ok(shown.startsWith('safe.txt\\'), shown);
    assert.notEqual(displaySafe(a), a, JSON.stringify(a));
  }
  assert.equal(displaySafe('\x1b[2K'), '\\x1b[2K');
  assert.equal(displaySafe('a\u202eb'), 'a\\u{202e}b');
  assert.equal(displaySafe('a\nb'), 'a\\nb');
  assert.equal(displaySafeLines('a\nb\x1b'), 'a\nb\\x1b');
  for (const ok of ['héllo wörld', '中文路径/文件.md', 'emoji 🎉', 'tab-free text', 'C:\\path']) {
    assert.equal(displaySafe(ok), ok);
  }
  // Escaping twice changes nothing (the escapes are plain text).
  assert.equal(displaySafe(displaySafe('\x1b\u202e')), displaySafe('\x1b\u202e'));
});

test('one invisible-character table: its kinds never overlap, and display escapes everything the audit hides', () => {
  const kindOf = new Map<number, string>();
  for (const [kind, ranges] of Object.entries(TABLE))
    for (const [a, b] of ranges)
      for (let c = a; c <= b; c++) {
        assert.equal(kindOf.get(c), undefined, `U+${c.toString(16)} is both ${kindOf.get(c)} and ${kind}`);
        kindOf.set(c, kind);
      }
  const wrong: string[] = [];
  let hidden = 0;
  for (let c = 0x7f; c <= 0xe01ff; c++) {
    if ((c >= 0xd800 && c <= 0xdfff) || (c > 0x2ffff && c < 0xe0000)) continue;
    const ch = String.fromCodePoint(c);
    const h = normalizeLine(`a${ch}b`).hidden;
    const audited = h !== undefined && h.zeroWidth + h.bidi + h.tags > 0;
    if (audited) hidden++;
    // The audit hides exactly the zero-width, bidi and tag kinds; display escapes every kind.
    if (audited !== ['zero-width', 'bidi', 'tag'].includes(kindOf.get(c) ?? ''))
      wrong.push(`audit U+${c.toString(16)}`);
    if ((displaySafe(ch) !== ch) !== kindOf.has(c)) wrong.push(`display U+${c.toString(16)}`);
  }
  assert.deepEqual(wrong.slice(0, 10), []);
  assert.ok(hidden > 400, `${hidden} hidden code points`);
});

test('finding 8: the terminal approval prompt of knack tools call shows control characters escaped', async () => {
  const root = tempDir();
  writeTree(root, { 'ws/readme.md': 'x' });
  const questions: string[] = [];
  let err = '';
  const io: Io = {
    out: () => undefined,
    err: (t) => void (err += `${t}\n`),
    confirm: async (q) => {
      questions.push(q);
      return false;
    },
  };
  const evil = 'ls notes\x1b[1A\x1b[2K\r\u202egpj.exe\x9b2K.md';
  const code = await main(
    [
      'tools',
      'call',
      'bash',
      '--args',
      JSON.stringify({ command: evil }),
      '--no-mcp',
      ...cliArgs({ ws: join(root, 'ws'), home: join(root, 'home'), data: join(root, 'data') }),
    ],
    io,
  );
  assert.equal(code, 1);
  assert.equal(questions.length, 1);
  const q = questions[0]!;
  assert.ok(!INVISIBLE.test(q.replace(/\n/g, '')), JSON.stringify(q));
  assert.match(q, /\\x1b\[1A/);
  assert.match(q, /\\u\{202e\}/);
  assert.ok(!INVISIBLE.test(err.replace(/\n/g, '')), JSON.stringify(err));
});

test('every gate decision names the rule that spoke and its scope; knack policy check shows them', async () => {
  const root = tempDir();
  writeTree(root, { 'ws/readme.md': 'x' });
  const common = cliArgs({ ws: join(root, 'ws'), home: join(root, 'home'), data: join(root, 'data') });
  let out = '';
  const io: Io = { out: (t) => void (out += `${t}\n`), err: () => undefined };
  assert.equal(
    await main(['policy', 'rules', 'add', 'deny', '--tool', 'bash', '--command', 'rm -rf', ...common], io),
    0,
  );
  out = '';
  assert.equal(
    await main(
      ['policy', 'check', '--tool', 'bash', '--args', JSON.stringify({ command: 'cd x && \\rm -fr /' }), ...common],
      io,
    ),
    2,
  );
  assert.match(out, /^deny: your rule "deny bash command "rm -rf"/m);
  assert.match(out, /^ {2}rule: deny bash command "rm -rf" in .+ \(workspace .+\)$/m);
  out = '';
  await main(
    ['policy', 'check', '--tool', 'bash', '--args', JSON.stringify({ command: 'ls', x: 1 }), '--json', ...common],
    io,
  );
  // No rule speaks: the command runs inside the OS sandbox (bubblewrap here), so it is allowed without a question.
  const d = JSON.parse(out) as { verdict: string; rule?: string; reason: string };
  assert.equal(d.verdict, 'allow');
  assert.match(d.reason, /runs inside the sandbox/);
  assert.equal(d.rule, undefined);
});
