// SKILL.md → manifest: both vocabularies normalised, lenient warnings vs exclusion errors, file/line/field named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { english } from '../../../main/core/base/index.js';
import { parseSkillText, splitToolList } from '../../../main/core/skills/format/manifest.js';

const F = 'skills/git-commit/SKILL.md';
const parse = (fm: string, file = F) => parseSkillText(`---\n${fm}\n---\nBody\n`, file);

test('WorkBuddy vocabulary (title, summary, read_when, agent_created, depends_on, permissions) normalises', () => {
  const r = parse(
    [
      'title: Git Commit',
      'summary: Write a commit message',
      'read_when:',
      '  - user wants to commit',
      '  - 提交代码',
      'agent_created: true',
      'depends_on: [code-review]',
      'permissions:',
      '  tools: [Bash]',
    ].join('\n'),
  );
  assert.ok(r.manifest, JSON.stringify(r.diagnostics));
  assert.equal(r.manifest.name, 'git-commit');
  assert.equal(r.manifest.title, 'Git Commit');
  assert.equal(r.manifest.description, 'Write a commit message');
  assert.deepEqual(r.manifest.readWhen, ['user wants to commit', '提交代码']);
  assert.equal(r.manifest.agentCreated, true);
  assert.deepEqual(r.manifest.dependsOn, ['code-review']);
  assert.deepEqual(r.manifest.permissions, { raw: { tools: ['Bash'] }, reviewed: false });
  assert.deepEqual(r.diagnostics, []);
});

test('Agent Skills vocabulary: allowed-tools as list, space- or comma-separated string', () => {
  assert.deepEqual(parse('name: git-commit\ndescription: d\nallowed-tools: Read, Grep, Bash').manifest?.allowedTools, [
    'Read',
    'Grep',
    'Bash',
  ]);
  assert.deepEqual(
    parse('name: git-commit\ndescription: d\nallowed-tools: Bash(git commit:*) Read').manifest?.allowedTools,
    ['Bash(git commit:*)', 'Read'],
  );
  assert.deepEqual(
    parse('name: git-commit\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)').manifest?.allowedTools,
    ['Read', 'Bash(git:*)'],
  );
  assert.deepEqual(splitToolList('Read,Grep  Glob'), ['Read', 'Grep', 'Glob']);
});

test('name and title, description and summary: when both differ, warn and use name/description', () => {
  const r = parse('name: git-commit\ntitle: Something Else\ndescription: one\nsummary: two');
  assert.equal(r.manifest?.name, 'git-commit');
  assert.equal(r.manifest?.description, 'one');
  const fields = r.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.line}:${d.field}`);
  assert.deepEqual(fields.sort(), ['3:title', '5:summary'].sort());
  const same = parse('name: git-commit\ntitle: Git Commit\ndescription: one\nsummary: one');
  assert.deepEqual(same.diagnostics, []);
});

test('unknown top-level keys warn with line and field, and the skill is still indexed', () => {
  const r = parse('name: git-commit\ndescription: d\nfoo: 1\ntriggers: [x]');
  assert.ok(r.manifest);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.severity, d.line, d.field]),
    [
      ['warning', 4, 'foo'],
      ['warning', 5, 'triggers'],
    ],
  );
  assert.deepEqual(r.manifest.extra, { foo: 1, triggers: ['x'] });
});

test("Claude Code's own keys (argument-hint, disable-model-invocation) are tolerated without warnings", () => {
  const r = parse("name: git-commit\ndescription: d\nargument-hint: '[msg]'\ndisable-model-invocation: false");
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.manifest?.extra['argument-hint'], '[msg]');
});

test('name/folder mismatch is a warning; strict mode makes it an error', () => {
  const r = parse('name: other\ndescription: d');
  assert.ok(r.manifest);
  assert.equal(r.diagnostics[0]?.code, 'name.mismatch');
  assert.equal(r.diagnostics[0]?.severity, 'warning');
  assert.equal(r.diagnostics[0]?.line, 2);
  const s = parseSkillText('---\nname: other\ndescription: d\n---\n', F, { strict: true });
  assert.equal(s.diagnostics[0]?.severity, 'error');
});

test('names are NFKC-normalised, Unicode letters allowed, uppercase warned', () => {
  const r = parseSkillText('---\nname: "ｇｉｔ-commit"\ndescription: d\n---\n', F);
  assert.equal(r.manifest?.name, 'git-commit');
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(parseSkillText('---\nname: 提交\ndescription: d\n---\n', 'x/提交/SKILL.md').diagnostics, []);
  const up = parseSkillText('---\nname: Git-Commit\ndescription: d\n---\n', 'x/Git-Commit/SKILL.md');
  assert.ok(up.manifest);
  assert.equal(up.diagnostics[0]?.code, 'name.case');
});

test('a name that cannot be used (slashes, control characters) or is missing leaves the skill out with an error on its line', () => {
  const sl = parse('name: tools/evil\ndescription: d');
  assert.equal(sl.manifest, undefined);
  assert.deepEqual(
    sl.diagnostics.map((d) => [d.severity, d.line, d.field]),
    [['error', 2, 'name']],
  );
  assert.equal(parse('name: ../evil\ndescription: d').manifest, undefined);
  assert.equal(parse('name: "git\\u0007 commit"\ndescription: d').manifest, undefined);
  const missing = parse('description: d');
  assert.equal(missing.manifest, undefined);
  assert.equal(missing.diagnostics[0]?.message, 'Missing required field in frontmatter: name');
});

test('a missing or empty description leaves the skill out', () => {
  assert.equal(parse('name: git-commit').manifest, undefined);
  assert.equal(parse('name: git-commit\ndescription: ""').manifest, undefined);
  assert.equal(parse('name: git-commit\ndescription: [a]').manifest, undefined);
});

test('metadata values become strings with their source text; WorkBuddy fields under metadata are read', () => {
  const r = parse(
    'name: git-commit\ndescription: d\nmetadata:\n  version: 1.0\n  workbuddy.read_when: commit; 提交\n  workbuddy.title: Git Commit',
  );
  assert.equal(r.manifest?.metadata.version, '1.0');
  assert.deepEqual(r.manifest?.readWhen, ['commit', '提交']);
  assert.equal(r.manifest?.title, 'Git Commit');
});

test('a quoted-number name indexes; an unquoted number is accepted with a warning', () => {
  assert.deepEqual(parseSkillText("---\nname: '123'\ndescription: d\n---\n", 'x/123/SKILL.md').diagnostics, []);
  const n = parseSkillText('---\nname: 123\ndescription: d\n---\n', 'x/123/SKILL.md');
  assert.equal(n.manifest?.name, '123');
  assert.equal(n.diagnostics[0]?.severity, 'warning');
});

test('an unquoted ": " in a text field reads to the line\'s end with a warning; lint --strict keeps the error', () => {
  // Public skills often write `description: Use when: …`; Claude Code loads them, so Knack does too.
  const fm =
    'name: git-commit\ndescription: Use when: the user commits # a comment, as YAML reads it\nallowed-tools: Read';
  const r = parse(fm);
  assert.equal(r.manifest?.description, 'Use when: the user commits');
  assert.deepEqual(r.manifest?.allowedTools, ['Read']);
  assert.equal(r.diagnostics.length, 1, JSON.stringify(r.diagnostics));
  const w = r.diagnostics[0]!;
  assert.equal(w.severity, 'warning');
  assert.equal(w.code, 'yaml.unquoted');
  assert.equal(w.field, 'description');
  assert.equal(w.line, 3);
  assert.match(w.message, /should be quoted/);
  const strict = parseSkillText(`---\n${fm}\n---\nBody\n`, F, { strict: true });
  assert.equal(strict.manifest, undefined);
  assert.match(strict.diagnostics[0]!.message, /must be quoted/);
});

test("a text field's indented continuation lines join it; later fields keep their lines", () => {
  const r = parse('name: git-commit\ndescription: Use when: the user\n  commits or amends\nlicense: MIT');
  assert.equal(r.manifest?.description, 'Use when: the user commits or amends');
  assert.equal(r.manifest?.license, 'MIT');
  assert.equal(r.diagnostics[0]?.line, 3);
});

test('a text field read as text keeps no carriage return of CRLF lines', () => {
  const r = parseSkillText('---\r\nname: git-commit\r\ndescription: Use when: x\r\n  and y\r\n---\r\nB\r\n', F);
  assert.equal(r.manifest?.description, 'Use when: x and y');
  const q = parseSkillText('---\r\nname: git-commit\r\ndescription: "a "b" c"\r\n---\r\nB\r\n', F);
  assert.equal(q.manifest?.description, 'a "b" c');
});

test('a double-quoted text field with bare quotes inside reads as the text between the outer ones', () => {
  const r = parse('name: git-commit\ndescription: "当用户提到"演示文稿"或"幻灯片"时使用"');
  assert.equal(r.manifest?.description, '当用户提到"演示文稿"或"幻灯片"时使用');
  assert.equal(r.diagnostics[0]?.code, 'yaml.unquoted');
});

test('only free-text fields are read that way: a broken name, tool list or permission stays an error', () => {
  for (const fm of [
    'name: git: commit\ndescription: d',
    'name: git-commit\ndescription: d\nallowed-tools: Bash(git: *)',
    'name: git-commit\ndescription: d\npermissions:\n  network: yes: please',
    'name: git-commit\ndescription: Use when: x\nallowed-tools: Bash(rm: *)',
    'name: git-commit\ndescription: "a \\" b" c"',
  ]) {
    const r = parse(fm);
    assert.equal(r.manifest, undefined, fm);
    assert.equal(r.diagnostics[0]?.severity, 'error', fm);
  }
});

test('the common diagnostics carry words for the window, their English the message the CLI prints', () => {
  const cases: [string, string, string][] = [
    ['name: other\ndescription: d', 'name.mismatch', 'diag.folderName'],
    ['description: d', 'frontmatter.name', 'diag.missingField'],
    ['name: git-commit', 'frontmatter.description', 'diag.missingField'],
    ['name: git-commit\ndescription: d\nfoo: 1', 'field.unknown', 'diag.unknownField'],
    ['name: git-commit\ndescription: ""', 'description.empty', 'diag.description'],
  ];
  for (const [yaml, code, words] of cases) {
    const d = parse(yaml).diagnostics.find((x) => x.words?.code === words);
    assert.ok(d, `${code}: ${JSON.stringify(parse(yaml).diagnostics)}`);
    assert.equal(english(d.words!), d.message);
  }
  const open = parseSkillText('no frontmatter here\n', F).diagnostics[0]!;
  assert.equal(open.words?.code, 'diag.noStart');
  assert.equal(open.message, 'SKILL.md must start with YAML frontmatter (---)');
  const yaml = parseSkillText('---\nname: a\ndescription: d\nallowed-tools: x: y\n---\n', F).diagnostics[0]!;
  assert.equal(yaml.words?.code, 'diag.yamlQuote');
  assert.equal(english(yaml.words!), yaml.message);
});

test('the rarer diagnostics carry words too: every diagnostic of a lenient parse has them', () => {
  const yamls = [
    "name: 'git commit'\ndescription: d",
    'name: "a/b"\ndescription: d',
    'name: git-commit\ntitle: Something Else\ndescription: d',
    'name: git-commit\ntitle: [1]\ndescription: d',
    'name: git-commit\ndescription: d\nsummary: other',
    'name: git-commit\ndescription: d\nsummary: [1]',
    `name: git-commit\ndescription: ${'x'.repeat(1100)}`,
    'name: git-commit\ndescription: d\nlicense: [1]',
    'name: git-commit\ndescription: d\ncompatibility: ""',
    `name: git-commit\ndescription: d\ncompatibility: ${'x'.repeat(600)}`,
    'name: git-commit\ndescription: d\nallowed-tools: {a: 1}',
    'name: git-commit\ndescription: d\nmetadata: [1]',
    'name: git-commit\ndescription: d\nmetadata:\n  k: [1]',
    'name: git-commit\ndescription: d\nagent_created: maybe',
    'name: git-commit\ndescription: d\nread_when: [[1]]',
    'name: git-commit\ndescription: d\nread_when: {a: 1}',
  ];
  let seen = 0;
  for (const yaml of yamls) {
    const diags = parse(yaml).diagnostics;
    seen += diags.length;
    for (const d of diags) {
      assert.ok(d.words, `${d.code} has no words: ${d.message}`);
      assert.equal(english(d.words), d.message);
    }
  }
  assert.ok(seen >= yamls.length, `each case found something (${seen})`);
});
