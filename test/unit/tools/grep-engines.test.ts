// grep's two engines, ripgrep (where `rg` is on PATH) and JavaScript, give the same answer on the same tree: the same
// matches in the same order, the same limits and skips, the same read grants. Without rg on PATH, JavaScript answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { grepFiles, GREP_MAX_FILE_BYTES } from '../../../main/core/tools/builtin/grep.js';
import { findRipgrep, ripgrepReadsAlike } from '../../../main/core/tools/builtin/grep-rg.js';
import type { ToolContext } from '../../../main/core/tools/index.js';

const ctxOf = (ws: string, extra: Partial<ToolContext> = {}): ToolContext => ({
  workspace: ws,
  actor: { kind: 'user' },
  ...extra,
});

function tree(): string {
  const ws = tempDir('knack-grep-');
  writeTree(ws, {
    '.gitignore': 'build/\n*.log\n',
    '.hidden/h.txt': 'needle in a hidden folder\n',
    'src/a.ts': 'const needle = 1;\nother\nNeedle again\n  needle indented\n',
    'src/b.ts': 'export function needleOf() {}\nexport const x = "needle";\n',
    'src/sub/.gitignore': 'secret.ts\n',
    'src/sub/secret.ts': 'needle hidden by the nested .gitignore\n',
    'src/sub/open.ts': 'needle visible\n',
    'src/sub/deeper/z.md': '# needle\n\nnot here\nneedle end\n',
    'src/Ünïcode.txt': 'ünïcode needle ✓\n',
    'crlf.txt': 'needle one\r\nneedle two\r\nlast\r\n',
    'long.txt': `needle ${'x'.repeat(1000)}\n`,
    'build/out.js': 'needle built\n',
    'debug.log': 'needle logged\n',
    'node_modules/x/i.js': 'needle dep\n',
    'private/key.txt': 'needle secret key\n',
  });
  writeFileSync(join(ws, 'src', 'img.bin'), Buffer.concat([Buffer.from('needle'), Buffer.from([0, 0, 1])]));
  writeFileSync(join(ws, 'huge.txt'), `needle\n${'y'.repeat(GREP_MAX_FILE_BYTES)}\n`);
  return ws;
}

const QUERIES: { pattern: string; path?: string; glob?: string; ignore_case?: boolean; max_results?: number }[] = [
  { pattern: 'needle' },
  { pattern: 'needle', ignore_case: true },
  { pattern: '^export .*$' },
  { pattern: 'needle (one|two)$' },
  { pattern: 'needle', glob: '**/*.ts' },
  { pattern: 'needle', glob: '*.md' },
  { pattern: 'needle', path: 'src/sub' },
  { pattern: 'needle', path: 'src/a.ts' },
  { pattern: 'needle', max_results: 3 },
  { pattern: 'n[e]+dle\\.' },
  { pattern: 'nothing-matches-this' },
];

test('ripgrep and JavaScript give the same results on a fixture tree', async () => {
  assert.ok(findRipgrep(), 'rg is on PATH here');
  const ws = tree();
  for (const q of QUERIES) {
    const rg = await grepFiles(q, ctxOf(ws), undefined, { engine: 'ripgrep' });
    const js = await grepFiles(q, ctxOf(ws), undefined, { engine: 'javascript' });
    assert.ok(rg.ok && js.ok, JSON.stringify({ q, rg, js }));
    type Counts = { engine: string; filesSearched: number; skippedBinary: number };
    const { engine: e1, filesSearched: f1, skippedBinary: b1, ...r } = rg.content as Counts;
    const { engine: e2, filesSearched: f2, skippedBinary: b2, ...j } = js.content as Counts;
    assert.deepEqual([e1, e2], ['ripgrep', 'javascript']);
    assert.deepEqual(r, j, JSON.stringify(q));
    // rg tells a binary file only where it matched (JavaScript tests every file): the files looked at are the same.
    assert.equal(f1 + b1, f2 + b2, JSON.stringify(q));
    assert.ok(b1 <= b2);
  }
  // What the first query shows: ignored, binary and huge files are out; hidden files, CRLF lines and long lines are in.
  const all = await grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'ripgrep' });
  const c = all.ok ? (all.content as { matches: { file: string; text: string }[]; skippedBinary: number }) : undefined;
  const files = new Set(c?.matches.map((m) => m.file));
  for (const f of ['.hidden/h.txt', 'crlf.txt', 'src/sub/open.ts', 'long.txt']) assert.ok(files.has(f), f);
  for (const f of ['build/out.js', 'debug.log', 'node_modules/x/i.js', 'src/sub/secret.ts', 'huge.txt', 'src/img.bin'])
    assert.ok(!files.has(f), f);
  assert.equal(c?.matches.find((m) => m.file === 'crlf.txt')?.text, 'needle one');
  assert.ok(c!.matches.find((m) => m.file === 'long.txt')!.text.endsWith('…'));
  assert.equal(c?.skippedBinary, 1);
});

test('both engines search only files the read grants allow, and count the others', async () => {
  const ws = tree();
  const mayRead = (p: string): boolean => !p.includes(`${join(ws, 'private')}`);
  for (const engine of ['ripgrep', 'javascript'] as const) {
    const r = await grepFiles({ pattern: 'secret key' }, ctxOf(ws, { mayRead }), undefined, { engine });
    assert.ok(r.ok);
    const c = r.content as { matches: unknown[]; skippedNotPermitted?: number; engine: string };
    assert.deepEqual([c.engine, c.matches, c.skippedNotPermitted], [engine, [], 1]);
  }
});

test('without rg on PATH, grep answers with its JavaScript engine', async () => {
  const ws = tree();
  const saved = process.env.PATH;
  process.env.PATH = tempDir('knack-empty-path-');
  try {
    assert.equal(findRipgrep(), undefined);
    const r = await grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'ripgrep' });
    assert.equal(r.ok && (r.content as { engine: string }).engine, 'javascript');
  } finally {
    process.env.PATH = saved;
  }
});

test('ripgrepReadsAlike keeps plain classes, groups and escaped punctuation for rg', () => {
  for (const p of ['needle', 'n[a-z]+dle\\.', '(?:a|b)+c', 'x{2,3}$', '^\\[tag\\]', '[^\\]]x'])
    assert.equal(ripgrepReadsAlike(p), true, p);
});

test('a pattern ripgrep reads differently or refuses goes to the JavaScript engine', async () => {
  const ws = tree();
  // \b and \d mean other things in rg (Unicode); lookbehind rg has not; `a{` is a literal to JavaScript, an error to rg.
  for (const pattern of [
    '\\bneedle\\b',
    '(?<=const )needle',
    'needle{',
    '\\d',
    '[[:alpha:]]+dle',
    '[]n]eedle',
    'n[a-z--x]',
  ]) {
    const r = await grepFiles({ pattern }, ctxOf(ws), undefined, { engine: 'ripgrep' });
    assert.equal(r.ok && (r.content as { engine: string }).engine, 'javascript', pattern);
  }
});

test('ripgrep running out of time says it timed out and how far it got', async () => {
  const ws = tempDir('knack-grep-');
  writeTree(ws, { 'a.txt': 'needle\n', 'b.txt': 'hay\n', 'c.txt': 'needle\n', 'd.txt': 'hay\n' });
  // A clock that moves 1 s per reading, two files per rg run: the limit of 1.5 s passes after the first run.
  let t = 0;
  const r = await grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, {
    engine: 'ripgrep',
    ripgrep: { timeoutMs: 1500, now: () => (t += 1000), batchFiles: 2 },
  });
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  assert.equal(
    !r.ok && r.error.message,
    'timed out: the search took over 1500 ms; it searched 2 files and found 1 match before it stopped at c.txt; narrow path or glob',
  );
  assert.deepEqual(!r.ok && (r.error.details as { filesSearched: number }).filesSearched, 2);
});
