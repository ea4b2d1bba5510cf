// Every finding about skills (a SKILL.md read leniently or by the strict lint, the walk of the skills folders, a
// duplicate name, a path given to the lint) carries words: their English is the CLI's message, and their Chinese says
// the same parameters with no English sentence of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertSaid } from '../../helpers/words.js';
import type { Diagnostic } from '../../../main/core/base/index.js';
import { parseSkillFile, parseSkillText } from '../../../main/core/skills/format/manifest.js';
import { openCatalog } from '../../../main/core/skills/catalog/catalog.js';
import { lintPaths } from '../../../main/core/skills/catalog/lint.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { skillMd, tempDir, writeTree } from '../../helpers/tmp.js';

function assertWords(d: Diagnostic, context: string): void {
  assertSaid(d.words, d.message, `${context}: ${d.code}`);
}

function assertAll(diags: Diagnostic[], codes: string[], context: string): void {
  for (const d of diags) assertWords(d, context);
  for (const c of codes)
    assert.ok(
      diags.some((d) => d.code === c),
      `${context}: expected ${c} in ${diags.map((d) => d.code).join()}`,
    );
}

test('the strict lint says each of its own findings in words', () => {
  const F = 'skills/git-commit/SKILL.md';
  const strict = (text: string) => parseSkillText(text, F, { strict: true }).diagnostics;
  assertAll(strict('\ufeff---\nname: git-commit\ndescription: d\n---\n'), ['frontmatter.bom'], 'bom');
  assertAll(strict('---\nname: git-commit\ndescription: d\nmetadata: {a: b}\n---\n'), ['yaml.flow'], 'flow');
  assertAll(
    strict('---\nname: git-commit\ndescription: d\nread_when: [x]\ntitle: T\n---\n'),
    ['field.unexpected', 'yaml.flow'],
    'unexpected fields',
  );
  const unexpected = strict('---\nname: git-commit\ndescription: d\ntitle: T\n---\n').find(
    (d) => d.code === 'field.unexpected',
  );
  assert.equal(
    unexpected?.message,
    "Unexpected fields in frontmatter: title. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
  );
  assertAll(strict('---\nname: !shell git-commit\ndescription: d\n---\n'), ['yaml.tag'], 'tag');
  assertAll(strict('---\ntitle: Git Commit\nsummary: s\n---\n'), ['name.missing', 'description.missing'], 'missing');
});

test('a frontmatter too large, aliases past the limit and synonyms it cannot use are said in words', () => {
  const F = 'skills/git-commit/SKILL.md';
  const big = `---\nname: git-commit\ndescription: d\nx: "${'y'.repeat(70 * 1024)}"\n---\n`;
  const dir = join(tempDir(), 'git-commit');
  mkdirSync(dir);
  writeFileSync(join(dir, 'SKILL.md'), big);
  assertAll(parseSkillFile(join(dir, 'SKILL.md')).diagnostics, ['frontmatter.too-large'], 'too large');
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: git-commit\ndescription: d\nx: "${'y'.repeat(300 * 1024)}`);
  assertAll(parseSkillFile(join(dir, 'SKILL.md')).diagnostics, ['frontmatter.too-large'], 'too large, unclosed');

  // More aliases than the reader expands (a billion-laughs bomb).
  const bomb = ['a: &a [x, x, x]', 'b: &b [*a, *a, *a]', 'c: &c [*b, *b, *b]', 'd: &d [*c, *c, *c]', 'e: [*d, *d, *d]'];
  const aliases = parseSkillText(`---\nname: git-commit\ndescription: d\n${bomb.join('\n')}\n---\n`, F).diagnostics;
  assertAll(aliases, ['yaml.alias-limit'], 'alias limit');

  const synonyms = parseSkillText(
    '---\nname: git-commit\ndescription: d\nsynonyms:\n  - [ship, deploy]\n  - [alone]\n  - 3\n---\n',
    F,
  ).diagnostics;
  assertAll(synonyms, ['field.synonyms'], 'synonyms');
  assert.deepEqual(
    synonyms.map((d) => [d.field, d.message]),
    [
      ['synonyms[1]', 'a group needs at least two phrases (ignored)'],
      ['synonyms[2]', 'expected a list of phrases (ignored)'],
    ],
  );
  const notList = parseSkillText('---\nname: git-commit\ndescription: d\nsynonyms: true\n---\n', F).diagnostics;
  assertAll(notList, ['field.synonyms'], 'synonyms not a list');
  assert.equal(notList[0]?.message, 'synonyms must be a list of groups (ignored)');
});

test('the walk of the skills folders and a duplicate name say their findings in words', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const ws = join(root, 'ws');
  const user = join(root, 'home/.workbuddy/skills');
  mkdirSync(ws, { recursive: true });
  writeTree(user, {
    'a/deploy/SKILL.md': skillMd({ name: 'deploy', description: 'one' }),
    'b/deploy/SKILL.md': skillMd({ name: 'deploy', description: 'two' }),
    'a/b/c/d/e/deep/SKILL.md': skillMd({ name: 'deep', description: 'deep' }),
    'folder/SKILL.md/x': 'x',
    'locked/inner/SKILL.md': skillMd({ name: 'inner', description: 'inner' }),
  });
  symlinkSync(join(root, 'nowhere'), join(user, 'dangling'));
  symlinkSync(user, join(user, 'a', 'up'));
  mkdirSync(join(user, 'pipe'));
  execFileSync('mkfifo', [join(user, 'pipe', 'SKILL.md')]);
  chmodSync(join(user, 'locked'), 0o000);
  try {
    const settings = { ...DEFAULT_SETTINGS, discovery: { ...DEFAULT_SETTINGS.discovery, maxDepth: 3 } };
    const c = await openCatalog({ paths, workspace: ws, settings });
    const codes = ['discovery.depth', 'discovery.symlink', 'discovery.loop', 'file.unreadable'];
    // root can list a folder without permissions: only then is discovery.unreadable not said.
    if (process.getuid?.() !== 0) codes.push('discovery.unreadable');
    assertAll([...c.discoveryDiagnostics(), ...c.diagnostics()], codes, 'discovery');
    const dup = c.entries().flatMap((e) => e.diagnostics.filter((d) => d.code === 'name.duplicate'));
    assert.equal(dup.length, 1);
    assertWords(dup[0]!, 'duplicate');
    assert.match(
      dup[0]!.message,
      /^another user skill is also named "deploy" \(.*\/deploy\/SKILL\.md\); that one is used$/,
    );
    const folder = c.diagnostics().find((d) => d.file === join(user, 'folder/SKILL.md'));
    assert.equal(folder?.message, 'SKILL.md is a folder, not a file');

    const few = { ...DEFAULT_SETTINGS, discovery: { ...DEFAULT_SETTINGS.discovery, maxFolders: 2 } };
    const f = await openCatalog({ paths, workspace: ws, settings: few });
    assertAll(f.discoveryDiagnostics(), ['discovery.folders'], 'folders');
  } finally {
    chmodSync(join(user, 'locked'), 0o755);
  }
});

test('a skills folder that cannot be read is said in words, naming its tier', async () => {
  const root = tempDir();
  const paths = { home: join(root, 'home'), dataDir: join(root, 'data'), builtinSkillsDir: join(root, 'builtin') };
  const ws = join(root, 'ws');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(root, 'home/.workbuddy'), { recursive: true });
  // A skills folder that is a link to itself: its real path cannot be resolved (ELOOP).
  symlinkSync(join(root, 'home/.workbuddy/skills'), join(root, 'home/.workbuddy/skills'));
  const c = await openCatalog({ paths, workspace: ws });
  const d = c.discoveryDiagnostics().find((x) => x.code === 'discovery.root');
  assert.ok(d, JSON.stringify(c.discoveryDiagnostics()));
  assertWords(d, 'root');
  assert.equal(d.message, 'cannot read user skills folder: too many symlinks in a row');
});

test('the paths given to the lint are said in words', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'notes.txt'), 'x');
  mkdirSync(join(dir, 'empty'));
  const r = lintPaths([join(dir, 'missing'), join(dir, 'notes.txt'), join(dir, 'empty')]);
  assertAll(r.diagnostics, ['lint.path', 'lint.not-dir', 'file.missing'], 'lint');
  assert.deepEqual(
    r.diagnostics.map((d) => d.message),
    [
      'Path does not exist',
      `Not a directory: ${join(dir, 'notes.txt')} (give a skill folder, its SKILL.md, or a folder of skills)`,
      'Missing required file: SKILL.md (and no skill folders below it)',
    ],
  );
});
