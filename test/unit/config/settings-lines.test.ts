// A settings file edited by hand and broken: the diagnostic names the file and the line (JSON.parse says neither), and
// a key of the wrong type or one a workspace may not widen names its line too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { readJsonText } from '../../../main/core/config/json-text.js';
import { blocksCeilingChange, loadSettings } from '../../../main/core/config/settings.js';
import { formatDiagnostic } from '../../../main/core/base/diagnostics.js';
import { english, type Said } from '../../../main/core/base/index.js';
import { assertSaid } from '../../helpers/words.js';

test('readJsonText finds the line where a hand-edited file stops being JSON, for the mistakes people make', () => {
  const cases: [string, number, RegExp][] = [
    ['{\n  "policy": {\n    "ceiling": { "network": true, }\n  }\n}', 3, /trailing comma/],
    ['{\n  "a": 1\n  "b": 2\n}', 3, /comma may be missing/],
    ['{\n  "a": "unclosed\n}', 2, /control character|not closed/],
    ['{\n  a: 1\n}', 2, /double-quoted/],
    ['{\n  "a": tru\n}', 2, /expected a value/],
    ['{\n  "a": 1\n', 3, /ends too early/],
    ['', 1, /ends too early/],
    ['{} {}', 1, /after the end/],
    ['{\n  "a": "\\q"\n}', 2, /unknown escape/],
    ['{\n  // note\n}', 2, /comments are not JSON/],
  ];
  for (const [text, line, message] of cases) {
    assert.throws(() => JSON.parse(text), SyntaxError, 'the case is really broken JSON');
    const r = readJsonText(text);
    assert.equal(r.error?.line, line, JSON.stringify(text));
    assert.match(r.error!.message, message, JSON.stringify(text));
    // Said in words: the Chinese window shows no English sentence of jsonc-parser's or ours.
    assertSaid(r.error!.words, r.error!.message, JSON.stringify(text));
  }
  for (const ok of ['{}', '[]', '{"a":[1,{"b":null}],"c":"\\u00e9\\n","d":-1.5e3}', ' "x" ', 'true']) {
    // jsonc-parser makes objects without a prototype: compared as JSON.
    assert.equal(JSON.stringify(readJsonText(ok).value), JSON.stringify(JSON.parse(ok)), ok);
  }
});

test('readJsonText gives the line of each key by its dotted path (keys inside lists are not listed)', () => {
  const r = readJsonText(
    '{\n  "policy": {\n    "ceiling": {\n      "network": true,\n      "tools": [{"x": 1}]\n    }\n  }\n}',
  );
  assert.equal(r.keys.get('policy'), 2);
  assert.equal(r.keys.get('policy.ceiling'), 3);
  assert.equal(r.keys.get('policy.ceiling.network'), 4);
  assert.equal(r.keys.get('policy.ceiling.tools'), 5);
  assert.equal(r.keys.get('x'), undefined);
});

test('loadSettings: invalid JSON, a wrong type and a widening each say file:line', () => {
  const root = tempDir();
  const data = join(root, 'data');
  const ws = join(root, 'ws');
  writeTree(data, {
    'settings.json': '{\n  "policy": {\n    "ceiling": {\n      "tools": "read_file"\n    }\n  }\n}\n',
  });
  writeTree(ws, {
    '.workbuddy/settings.json': '{\n  "policy": {\n    "ceiling": {\n\n      "network": true\n    }\n  }\n}\n',
  });
  const { diagnostics } = loadSettings(data, ws);
  const lines = diagnostics.map(formatDiagnostic);
  assert.ok(
    lines.includes(
      `${join(data, 'settings.json')}:4: policy.ceiling.tools: "policy.ceiling.tools" must be a list of strings`,
    ),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.startsWith(`${join(ws, '.workbuddy', 'settings.json')}:5: warning: policy.ceiling.network:`)),
    lines.join('\n'),
  );
  // The wrong type under policy keeps a live ceiling from changing; the widening warning does not (it is the rule working).
  assert.deepEqual(
    diagnostics.filter(blocksCeilingChange).map((d) => d.field),
    ['policy.ceiling.tools'],
  );

  writeTree(data, { 'settings.json': '{\n  "policy": {\n    "ceiling": { "network": false, }\n  }\n}\n' });
  const broken = loadSettings(data).diagnostics;
  assert.equal(broken.length, 1);
  assert.match(
    formatDiagnostic(broken[0]!),
    new RegExp(
      `^${join(data, 'settings.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: invalid JSON: .*trailing comma`,
    ),
  );
  assert.ok(blocksCeilingChange(broken[0]!));
  // A wrong type outside policy, or an unknown key outside it, does not stop a ceiling change.
  writeTree(data, {
    'settings.json': JSON.stringify({
      catalog: { contextWindow: 'big' },
      theme: 'dark',
      policy: { ceiling: { network: true } },
    }),
  });
  assert.deepEqual(loadSettings(data).diagnostics.filter(blocksCeilingChange), []);
  writeTree(data, { 'settings.json': JSON.stringify({ policy: { ceiling: { netwrok: false } } }) });
  assert.deepEqual(
    loadSettings(data)
      .diagnostics.filter(blocksCeilingChange)
      .map((d) => d.code),
    ['settings.unknown'],
  );
});

test('a value of the wrong type, out of range or not one of its choices names the field in words, English as before', () => {
  const root = tempDir();
  const data = join(root, 'data');
  writeTree(data, {
    'settings.json': JSON.stringify(
      {
        catalog: { contextWindow: 0, budgetFraction: 5 },
        discovery: { maxDepth: 2.5, agentsFolders: 'yes' },
        tools: { deferred: 3 },
        sandbox: { mode: 'sometimes' },
        agent: { stallSeconds: -1 },
      },
      null,
      2,
    ),
  });
  const { diagnostics } = loadSettings(data);
  const byField = new Map(diagnostics.map((d) => [d.field, d]));
  const expect: [string, string, string][] = [
    [
      'catalog.contextWindow',
      'settings.what.tokens1',
      '"catalog.contextWindow" must be a whole number of tokens, 1 or more (got 0)',
    ],
    [
      'catalog.budgetFraction',
      'settings.what.share',
      '"catalog.budgetFraction" must be a share of the context window above 0 and at most 1 (0.02 = 2%) (got 5)',
    ],
    [
      'discovery.maxDepth',
      'settings.what.levels',
      '"discovery.maxDepth" must be a whole number of folder levels, 0 or more (got 2.5)',
    ],
    ['discovery.agentsFolders', 'settings.what.boolean', '"discovery.agentsFolders" must be a boolean'],
    ['tools.deferred', 'settings.what.strings', '"tools.deferred" must be a list of strings'],
    ['sandbox.mode', 'listOrWord', '"sandbox.mode" must be "auto", "required" or "off" (got "sometimes")'],
    [
      'agent.stallSeconds',
      'settings.what.seconds',
      '"agent.stallSeconds" must be a number of seconds from 0 (never) to 86400 (got -1)',
    ],
  ];
  for (const [field, what, message] of expect) {
    const d = byField.get(field);
    assert.ok(d, `${field}: no diagnostic`);
    assert.equal(d.message, message);
    assert.ok(d.words, `${field}: no words`);
    assert.equal(english(d.words), message);
    assert.equal((d.words.params?.what as Said).code, what, field);
    assert.equal(d.words.params?.field, field);
  }
});

test("a workspace's widening and an unreadable last good ceiling are said in words, English as before", () => {
  const root = tempDir();
  const data = join(root, 'data');
  const ws = join(root, 'ws');
  writeTree(data, {
    'settings.json': JSON.stringify({ policy: { ceiling: { tools: ['read_file'] } }, sandbox: { mode: 'required' } }),
  });
  writeTree(ws, {
    '.workbuddy/settings.json': JSON.stringify({
      policy: { ceiling: { tools: ['read_file', 'bash'], network: true, readRoots: ['/etc'], writeRoots: ['/'] } },
      sandbox: { mode: 'off' },
    }),
  });
  const broken = {
    last(): unknown {
      throw new Error('SQLITE_CORRUPT: database disk image is malformed');
    },
    save(): void {
      throw new Error('SQLITE_FULL: database or disk is full');
    },
  };
  const { diagnostics } = loadSettings(data, ws, broken);
  const messages = new Map(diagnostics.map((d) => [`${d.code} ${d.field ?? ''}`, d]));
  const cases: [string, string][] = [
    [
      'settings.ceiling-widening policy.ceiling.tools',
      'a workspace cannot offer tools your user settings do not; ignored',
    ],
    [
      'settings.ceiling-widening policy.ceiling.network',
      'a workspace cannot turn the network on; set it in your user settings',
    ],
    ['settings.ceiling-widening policy.ceiling.readRoots', 'a workspace cannot add roots (/etc); ignored'],
    ['settings.ceiling-widening policy.ceiling.writeRoots', 'a workspace cannot add roots (/); ignored'],
    [
      'settings.ceiling-widening sandbox.mode',
      'a workspace cannot loosen the sandbox ("off" after your "required"); ignored',
    ],
    ['settings.memory ', 'cannot keep this ceiling as the last good one: SQLITE_FULL: database or disk is full'],
  ];
  for (const [key, message] of cases) {
    const d = messages.get(key);
    assert.ok(d, `${key}: not said (${[...messages.keys()].join('; ')})`);
    assert.equal(d.message, message, key);
    assertSaid(d.words, message, key);
  }
  // The user's file unreadable as JSON: the last good ceiling is asked for, and cannot be read.
  writeTree(data, { 'settings.json': '{ "policy": ' });
  const read = loadSettings(data, undefined, broken).diagnostics.find((d) => d.code === 'settings.memory');
  const message = 'cannot read the last good ceiling: SQLITE_CORRUPT: database disk image is malformed';
  assert.equal(read?.message, message);
  assertSaid(read.words, message);
});
