// Frontmatter safety and the head-only read: caps, aliases, tags, duplicate keys, BOM/CRLF, fences inside values,
// and start-up never reading the body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import {
  MAX_FRONTMATTER_BYTES,
  readFrontmatterHead,
  readSkillBody,
  splitFrontmatter,
} from '../../../main/core/skills/format/frontmatter.js';
import { parseSkillFile, parseSkillText } from '../../../main/core/skills/format/manifest.js';

test('a billion-laughs alias bomb is refused with a diagnostic, not expanded', () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++)
    lines.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
        .fill('*' + String.fromCharCode(96 + i))
        .join(',')}]`,
    );
  const text = `---\nname: bomb\ndescription: boom\n${lines.join('\n')}\n---\nbody\n`;
  const r = parseSkillText(text, 'bomb/SKILL.md');
  assert.equal(r.manifest, undefined);
  assert.ok(
    r.diagnostics.some((d) => d.code === 'yaml.alias-limit' && d.severity === 'error'),
    JSON.stringify(r.diagnostics),
  );
});

test('custom YAML tags are refused and the line is named', () => {
  const r = parseSkillText('---\nname: t\ndescription: !!python/object:os.system "rm -rf /"\n---\n', 't/SKILL.md');
  assert.equal(r.manifest, undefined);
  const d = r.diagnostics.find((x) => x.code === 'yaml.tag');
  assert.ok(d);
  assert.equal(d.line, 3);
  const local = parseSkillText('---\nname: t\ndescription: !shell "ls"\n---\n', 't/SKILL.md');
  assert.ok(local.diagnostics.some((x) => x.code === 'yaml.tag'));
});

test('duplicate keys are an error naming the line of the second key', () => {
  const r = parseSkillText(
    '---\nname: dup\ndescription: one\npermissions:\n  network: false\npermissions:\n  network: true\n---\n',
    'dup/SKILL.md',
  );
  assert.equal(r.manifest, undefined);
  const d = r.diagnostics.find((x) => x.code === 'yaml.duplicate-key');
  assert.ok(d);
  assert.equal(d.line, 6);
  assert.equal(d.file, 'dup/SKILL.md');
});

test('frontmatter over the size cap is refused without reading the rest of the file', () => {
  const dir = tempDir();
  const file = join(dir, 'SKILL.md');
  writeFileSync(file, `---\nname: big\ndescription: x\nnotes: "${'y'.repeat(MAX_FRONTMATTER_BYTES * 4)}"\n---\nbody`);
  const head = readFrontmatterHead(file);
  assert.equal(head.split.ok, false);
  assert.ok(!head.split.ok && head.split.diagnostic.code === 'frontmatter.too-large');
  assert.ok(head.bytesRead <= MAX_FRONTMATTER_BYTES + 8192, `read ${head.bytesRead} bytes`);
});

test('start-up reads only the frontmatter: a huge body that is not even UTF-8 is never read', () => {
  const dir = tempDir();
  const file = join(dir, 'fast', 'SKILL.md');
  writeTree(dir, { 'fast/SKILL.md': '' });
  const body = Buffer.alloc(20 * 1024 * 1024, 0xff); // 20 MB of invalid UTF-8
  writeFileSync(file, Buffer.concat([Buffer.from('---\nname: fast\ndescription: Reads fast\n---\n'), body]));
  const r = parseSkillFile(file);
  assert.equal(r.manifest?.description, 'Reads fast');
  assert.ok((r.bytesRead ?? Infinity) <= 4096, `read ${r.bytesRead} bytes`);
});

test('a closing fence split across two 4 KB chunks is still found', () => {
  const dir = tempDir();
  for (const pad of [4090, 4091, 4092, 4093, 4094, 4095, 4096, 4097]) {
    const file = join(dir, `s${pad}.md`);
    const head = `---\nname: s\ndescription: "${'d'.repeat(pad - 30)}"\n`;
    writeFileSync(file, `${head}---\nbody\n`);
    const h = readFrontmatterHead(file);
    assert.ok(h.split.ok, `pad ${pad}`);
    assert.equal(parseSkillFile(file, { folderName: null }).manifest?.name, 's');
  }
});

test('BOM and CRLF files parse; the body starts after the closing fence', () => {
  const s = splitFrontmatter('\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\n# Body\r\n');
  assert.ok(s.ok);
  assert.equal(s.bom, true);
  assert.equal(s.crlf, true);
  assert.equal(s.body, '# Body\r\n');
  assert.equal(s.bodyStartLine, 5);
  assert.equal(
    parseSkillText('\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\n', 'a/SKILL.md').manifest?.description,
    'b',
  );
});

test('--- inside a value or an indented block is not a fence; a --- line in the body is body', () => {
  const r = parseSkillText(
    '---\nname: a\ndescription: |\n  first\n  ---\n  last\n---\nBody\n---\nmore\n',
    'a/SKILL.md',
  );
  assert.equal(r.manifest?.description, 'first\n---\nlast');
  const s = splitFrontmatter('---\nname: a\ndescription: a---b\n---\nBody\n---\nmore\n');
  assert.ok(s.ok);
  assert.equal(s.body, 'Body\n---\nmore\n');
});

test('folded and literal block scalars keep YAML semantics', () => {
  assert.equal(
    parseSkillText('---\nname: a\ndescription: >\n  one\n  two\n---\n', 'a/SKILL.md').manifest?.description,
    'one two',
  );
  assert.equal(
    parseSkillText('---\nname: a\ndescription: |\n  one\n  two\n---\n', 'a/SKILL.md').manifest?.description,
    'one\ntwo',
  );
});

test('YAML 1.2 core schema: yes/no/on stay strings', () => {
  assert.equal(parseSkillText('---\nname: a\ndescription: no\n---\n', 'a/SKILL.md').manifest?.description, 'no');
});

test('readSkillBody returns the instructions and names the file when there is no frontmatter', () => {
  const dir = tempDir();
  writeTree(dir, { 'a/SKILL.md': '---\nname: a\ndescription: b\n---\n# Steps\n1. go\n', 'b/SKILL.md': '# nothing' });
  assert.equal(readSkillBody(join(dir, 'a/SKILL.md')), '# Steps\n1. go\n');
  assert.throws(
    () => readSkillBody(join(dir, 'b/SKILL.md')),
    /b\/SKILL\.md:1: SKILL\.md must start with YAML frontmatter/,
  );
});

test('an empty file and a file with only an opening fence get clear errors', () => {
  const dir = tempDir();
  writeTree(dir, { 'e/SKILL.md': '', 'o/SKILL.md': '---\n' });
  assert.equal(parseSkillFile(join(dir, 'e/SKILL.md')).diagnostics[0]?.code, 'frontmatter.missing');
  assert.equal(parseSkillFile(join(dir, 'o/SKILL.md')).diagnostics[0]?.code, 'frontmatter.unclosed');
});

test('frontmatter that is not valid UTF-8 still indexes but is reported with the line of the first bad byte', () => {
  const dir = tempDir();
  const file = join(dir, 'latin1', 'SKILL.md');
  writeTree(dir, { 'latin1/SKILL.md': '' });
  // "Résumé" saved as Latin-1: 0xE9 is not UTF-8.
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('---\nname: latin1\ndescription: R'),
      Buffer.from([0xe9]),
      Buffer.from('sum\xE9 helper\n---\nbody\n', 'latin1'),
    ]),
  );
  const p = parseSkillFile(file);
  assert.equal(p.manifest?.name, 'latin1');
  const d = p.diagnostics.find((x) => x.code === 'file.encoding');
  assert.equal(d?.severity, 'warning');
  assert.equal(d?.line, 3);
  assert.match(d?.message ?? '', /not valid UTF-8/);
  // A clean UTF-8 file (Chinese included) gets no such finding.
  writeFileSync(file, '---\nname: latin1\ndescription: 提交代码 Résumé\n---\n');
  assert.equal(
    parseSkillFile(file).diagnostics.some((x) => x.code === 'file.encoding'),
    false,
  );
});
