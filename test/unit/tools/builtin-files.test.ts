import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { readFileTool, READ_MAX_BYTES } from '../../../main/core/tools/builtin/read-file.js';
import { editFileTool } from '../../../main/core/tools/builtin/edit-file.js';
import { writeFileTool } from '../../../main/core/tools/builtin/write-file.js';
import { GREP_CALL_TIMEOUT_MS, grepFiles, grepTool, TimeBudget } from '../../../main/core/tools/builtin/grep.js';
import { globTool } from '../../../main/core/tools/builtin/glob.js';
import { listDirTool } from '../../../main/core/tools/builtin/list-dir.js';
import { createBashTool } from '../../../main/core/tools/builtin/bash.js';

/** The bash tool without a wall: on the host. */
const bashTool = createBashTool();

const ctxOf = (ws: string) => ({ workspace: ws, actor: { kind: 'user' as const } });

test('read_file reads a line range, refuses binary files and asks for a range on big files', async () => {
  const ws = tempDir();
  writeTree(ws, { 'a.txt': 'one\ntwo\nthree\nfour\n' });
  writeFileSync(join(ws, 'b.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  writeFileSync(join(ws, 'big.txt'), 'x'.repeat(READ_MAX_BYTES + 10));
  const r = await readFileTool.handler({ path: 'a.txt', offset: 2, limit: 2 }, ctxOf(ws));
  assert.equal(r.ok, true);
  const c = r.ok
    ? (r.content as { content: string; startLine: number; endLine: number; totalLines: number; truncated: boolean })
    : undefined;
  assert.equal(c?.content, 'two\nthree');
  assert.deepEqual([c?.startLine, c?.endLine, c?.totalLines, c?.truncated], [2, 3, 4, true]);
  const bin = await readFileTool.handler({ path: 'b.bin' }, ctxOf(ws));
  assert.equal(!bin.ok && bin.error.code, 'tool.binary');
  const big = await readFileTool.handler({ path: 'big.txt' }, ctxOf(ws));
  assert.equal(!big.ok && big.error.code, 'tool.too_large');
  const part = await readFileTool.handler({ path: 'big.txt', offset: 1, limit: 1 }, ctxOf(ws));
  assert.equal(part.ok, true);
  const missing = await readFileTool.handler({ path: 'nope.txt' }, ctxOf(ws));
  assert.equal(!missing.ok && missing.error.code, 'tool.not_found');
});

test('read_file reports the paths it reads so the gate can check them', () => {
  assert.deepEqual(readFileTool.access({ path: 'src/x.ts' }, ctxOf('/ws')), { read: ['/ws/src/x.ts'] });
  assert.deepEqual(editFileTool.access({ path: '../y', old_string: 'a', new_string: 'b' }, ctxOf('/ws')), {
    read: ['/y'],
    write: ['/y'],
  });
  assert.deepEqual(bashTool.access({ command: 'ls -la' }, ctxOf('/ws')), { command: 'ls -la' });
});

test('edit_file replaces a unique match and refuses missing or ambiguous ones without touching the file', async () => {
  const ws = tempDir();
  writeTree(ws, { 'f.ts': 'let a = 1;\nlet b = 1;\nlet a2 = 2;\n' });
  const amb = await editFileTool.handler({ path: 'f.ts', old_string: '= 1;', new_string: '= 3;' }, ctxOf(ws));
  assert.equal(!amb.ok && amb.error.code, 'tool.ambiguous');
  assert.deepEqual(!amb.ok && (amb.error.details as { lines: number[] }).lines, [1, 2]);
  const none = await editFileTool.handler({ path: 'f.ts', old_string: 'let c', new_string: 'let d' }, ctxOf(ws));
  assert.equal(!none.ok && none.error.code, 'tool.no_match');
  assert.equal(readFileSync(join(ws, 'f.ts'), 'utf8'), 'let a = 1;\nlet b = 1;\nlet a2 = 2;\n');
  const one = await editFileTool.handler(
    { path: 'f.ts', old_string: 'let b = 1;', new_string: 'let b = 5;' },
    ctxOf(ws),
  );
  assert.equal(one.ok, true);
  const all = await editFileTool.handler(
    { path: 'f.ts', old_string: 'let a', new_string: 'const a', replace_all: true },
    ctxOf(ws),
  );
  assert.equal(all.ok && (all.content as { replacements: number }).replacements, 2);
  assert.equal(readFileSync(join(ws, 'f.ts'), 'utf8'), 'const a = 1;\nlet b = 5;\nconst a2 = 2;\n');
});

test('write_file creates parent folders and says whether the file is new', async () => {
  const ws = tempDir();
  const r = await writeFileTool.handler({ path: 'deep/er/n.md', content: '# hi' }, ctxOf(ws));
  assert.equal(r.ok && (r.content as { created: boolean }).created, true);
  const again = await writeFileTool.handler({ path: 'deep/er/n.md', content: '# ho' }, ctxOf(ws));
  assert.equal(again.ok && (again.content as { created: boolean }).created, false);
  assert.equal(readFileSync(join(ws, 'deep/er/n.md'), 'utf8'), '# ho');
});

test('grep respects .gitignore (root and nested), skips binaries and caps results', async () => {
  const ws = tempDir();
  writeTree(ws, {
    '.gitignore': 'build/\n*.log\n',
    'src/a.ts': 'const needle = 1;\nother\nneedle again\n',
    'src/sub/.gitignore': 'secret.ts\n',
    'src/sub/secret.ts': 'needle hidden\n',
    'src/sub/open.ts': 'needle visible\n',
    'build/out.js': 'needle built\n',
    'debug.log': 'needle logged\n',
    'node_modules/x/i.js': 'needle dep\n',
  });
  writeFileSync(join(ws, 'src', 'img.bin'), Buffer.concat([Buffer.from('needle'), Buffer.from([0, 0, 1])]));
  const r = await grepTool.handler({ pattern: 'needle' }, ctxOf(ws));
  assert.equal(r.ok, true);
  const c = r.ok ? (r.content as { matches: { file: string; line: number }[]; skippedBinary: number }) : undefined;
  assert.deepEqual(
    c?.matches.map((m) => `${m.file}:${m.line}`),
    ['src/a.ts:1', 'src/a.ts:3', 'src/sub/open.ts:1'],
  );
  assert.equal(c?.skippedBinary, 1);
  const capped = await grepTool.handler({ pattern: 'needle', max_results: 1 }, ctxOf(ws));
  assert.equal(capped.ok && (capped.content as { truncated: boolean }).truncated, true);
  const bad = await grepTool.handler({ pattern: '(' }, ctxOf(ws));
  assert.equal(!bad.ok && bad.error.code, 'tool.invalid_args');
});

test('glob matches patterns under the workspace and skips ignored files', async () => {
  const ws = tempDir();
  writeTree(ws, {
    '.gitignore': 'dist/\n',
    'a/x.test.ts': '',
    'a/y.ts': '',
    'dist/z.test.ts': '',
    'b/c/w.test.ts': '',
  });
  const r = await globTool.handler({ pattern: '**/*.test.ts' }, ctxOf(ws));
  assert.deepEqual(r.ok && (r.content as { files: string[] }).files, ['a/x.test.ts', 'b/c/w.test.ts']);
  const l = await listDirTool.handler({}, ctxOf(ws));
  assert.deepEqual(l.ok && (l.content as { entries: { name: string }[] }).entries.map((e) => e.name), [
    'a',
    'b',
    'dist',
    '.gitignore',
  ]);
});

test('bash kills the whole process group on timeout, including background children', async () => {
  const ws = tempDir();
  const r = await bashTool.handler({ command: '(sleep 3; touch late.txt) & sleep 5', timeout_ms: 300 }, ctxOf(ws));
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  await new Promise((res) => setTimeout(res, 3500));
  assert.equal(existsSync(join(ws, 'late.txt')), false);
});

test('bash caps output and reports the exit code', async () => {
  const ws = tempDir();
  const r = await bashTool.handler(
    { command: 'head -c 300000 /dev/zero | tr "\\0" a; echo err >&2; exit 3' },
    ctxOf(ws),
  );
  assert.equal(r.ok, true);
  const c = r.ok ? (r.content as { exitCode: number; stdout: string; stderr: string; truncated: boolean }) : undefined;
  assert.equal(c?.exitCode, 3);
  assert.equal(c?.truncated, true);
  assert.ok(c!.stdout.length < 110_000);
  assert.equal(c?.stderr.trim(), 'err');
});

test('edit_file matches text as read_file shows it in a CRLF file and keeps the CRLF line endings', async () => {
  const ws = tempDir();
  writeFileSync(join(ws, 'w.txt'), 'alpha\r\nbeta\r\ngamma\r\n');
  const read = await readFileTool.handler({ path: 'w.txt' }, ctxOf(ws));
  assert.equal(read.ok && (read.content as { content: string }).content, 'alpha\nbeta\ngamma');
  const r = await editFileTool.handler(
    { path: 'w.txt', old_string: 'alpha\nbeta', new_string: 'alpha\nBETA\nextra' },
    ctxOf(ws),
  );
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(readFileSync(join(ws, 'w.txt'), 'utf8'), 'alpha\r\nBETA\r\nextra\r\ngamma\r\n');
});

test('grep (both engines) and glob never follow a symlink out of the searched folder', async () => {
  const ws = tempDir();
  const outside = tempDir();
  writeTree(outside, { 'secret.txt': 'needle outside\n' });
  writeTree(ws, { 'in.txt': 'needle inside\n', 'sub/x.txt': 'x\n' });
  const { symlinkSync } = await import('node:fs');
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
  symlinkSync(join(ws, 'in.txt'), join(ws, 'sub', 'inner-link.txt'));
  // JavaScript follows a symlinked file whose target stays inside; ripgrep follows no symlink at all.
  const js = await grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'javascript' });
  assert.deepEqual(js.ok && (js.content as { matches: { file: string }[] }).matches.map((m) => m.file), [
    'in.txt',
    'sub/inner-link.txt',
  ]);
  const rg = await grepFiles({ pattern: 'needle' }, ctxOf(ws), undefined, { engine: 'ripgrep' });
  assert.equal(rg.ok && (rg.content as { engine: string }).engine, 'ripgrep');
  assert.deepEqual(rg.ok && (rg.content as { matches: { file: string }[] }).matches.map((m) => m.file), ['in.txt']);
  const g = await globTool.handler({ pattern: '**/*.txt' }, ctxOf(ws));
  assert.ok(g.ok && !(g.content as { files: string[] }).files.includes('link.txt'));
});

test('grep with a catastrophic pattern ends with a timeout error instead of freezing the app', async () => {
  const ws = tempDir();
  writeTree(ws, { 'a.txt': `${'a'.repeat(40)}b\n`, 'b.txt': 'fine\n' });
  // ripgrep never backtracks: it answers (nothing matches); the JavaScript engine stops at its time limit.
  const rg = await grepTool.handler({ pattern: '(a+)+$' }, ctxOf(ws));
  assert.deepEqual(rg.ok && (rg.content as { matches: unknown[]; engine: string }), {
    ...(rg.ok ? (rg.content as object) : {}),
    matches: [],
    engine: 'ripgrep',
  });
  const started = Date.now();
  const r = await grepFiles({ pattern: '(a+)+$' }, ctxOf(ws), undefined, { engine: 'javascript' });
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  assert.match(!r.ok ? r.error.message : '', /a\.txt/);
  assert.ok(Date.now() - started < 15_000);
  const fine = await grepTool.handler({ pattern: '^fi(n)+e$' }, ctxOf(ws));
  assert.deepEqual(
    fine.ok &&
      (fine.content as { matches: { file: string; line: number }[] }).matches.map((m) => `${m.file}:${m.line}`),
    ['b.txt:1'],
  );
});

test('grep of a literal that runs out of time says how far it got and never blames the pattern', async () => {
  const ws = tempDir();
  writeTree(ws, { 'a.txt': 'needle\n', 'b.txt': 'hay\n', 'c.txt': 'needle\n', 'd.txt': 'hay\n' });
  // A clock that moves 1 s per reading: each file's match counts 1 s, so the 2 s budget is spent after two files.
  let t = 0;
  const budget = new TimeBudget(GREP_CALL_TIMEOUT_MS, () => (t += 1000));
  const r = await grepFiles({ pattern: 'needle' }, ctxOf(ws), budget, { engine: 'javascript' });
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  const message = !r.ok ? r.error.message : '';
  assert.match(
    message,
    /^timed out: .* it searched 2 files and found [0-2] match(es)? before it stopped at [a-d]\.txt; narrow path or glob$/,
  );
  assert.doesNotMatch(message, /\(a\+\)\+/);
});

test('grep anchors ^ and $ match at every line of a file, not only at its start and end', async () => {
  const ws = tempDir();
  writeTree(ws, { 'm.ts': 'import a from "a";\nexport const x = 1;\nexport function f() {}\n' });
  const r = await grepTool.handler({ pattern: '^export .*$' }, ctxOf(ws));
  assert.deepEqual(r.ok && (r.content as { matches: { line: number }[] }).matches.map((m) => m.line), [2, 3]);
});

test('glob with a pattern that backtracks without end ends with a timeout error instead of freezing the app', async () => {
  const ws = tempDir();
  writeTree(ws, { [`${'a'.repeat(200)}.txt`]: 'x', 'b.md': 'y' });
  const started = Date.now();
  const r = await globTool.handler({ pattern: `${'*a'.repeat(10)}*b` }, ctxOf(ws));
  assert.equal(!r.ok && r.error.code, 'tool.timeout');
  assert.ok(Date.now() - started < 10_000);
  const g = await grepTool.handler({ pattern: 'x|y', glob: `${'*a'.repeat(10)}*b` }, ctxOf(ws));
  assert.equal(!g.ok && g.error.code, 'tool.timeout');
  const ok = await globTool.handler({ pattern: '**/*.md' }, ctxOf(ws));
  assert.deepEqual(ok.ok && (ok.content as { files: string[] }).files, ['b.md']);
});

test('read_file and edit_file refuse a FIFO or other special file instead of blocking on it', async () => {
  const ws = tempDir();
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [join(ws, 'pipe')]);
  const r = await Promise.race([
    readFileTool.handler({ path: 'pipe' }, ctxOf(ws)),
    new Promise((res) => setTimeout(() => res('blocked'), 3000)),
  ]);
  assert.notEqual(r, 'blocked');
  assert.equal((r as { ok: boolean }).ok, false);
  assert.match((r as { error: { message: string } }).error.message, /not a regular file/);
  const e = await Promise.race([
    editFileTool.handler({ path: 'pipe', old_string: 'a', new_string: 'b' }, ctxOf(ws)),
    new Promise((res) => setTimeout(() => res('blocked'), 3000)),
  ]);
  assert.notEqual(e, 'blocked');
  assert.match((e as { error: { message: string } }).error.message, /not a regular file/);
});
