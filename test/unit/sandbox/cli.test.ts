import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { cliArgs, run as cli } from '../../helpers/cli.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'skills', 'word-stats');

function setup(): { ws: string; base: string[]; root: string } {
  const root = tempDir('knack-sandbox-cli-');
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.workbuddy', 'skills'), { recursive: true });
  cpSync(FIXTURE, join(ws, '.workbuddy', 'skills', 'word-stats'), { recursive: true });
  writeFileSync(join(ws, 'notes.md'), 'The cat and the dog.\nThe cat sat on the mat.\n');
  writeFileSync(join(ws, 'id_rsa'), 'PRIVATE KEY');
  return { root, ws, base: cliArgs({ ws, home: join(root, 'home'), data: join(root, 'data') }) };
}

test('knack skills run runs the example skill script and prints its JSON result and logs', async () => {
  const { base } = setup();
  const r = await cli([
    'skills',
    'run',
    'word-stats',
    'count.mjs',
    '--args',
    '{"path": "notes.md", "top": 2}',
    ...base,
  ]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out), {
    path: 'notes.md',
    words: 11,
    lines: 3,
    frequent: [
      { word: 'cat', count: 2 },
      { word: 'dog', count: 1 },
    ],
  });
  assert.match(r.err, /\[word-stats\/count\.mjs\] counted 11 words in notes\.md/);
});

test('knack skills run shows a denied capability as one clear line and exits 1', async () => {
  const { base } = setup();
  const r = await cli(['skills', 'run', 'word-stats', 'count', '--args', '{"path": "id_rsa"}', ...base]);
  assert.equal(r.code, 1);
  assert.match(r.err, /capability\.denied: knack\.readFile\("id_rsa"\): denied: skill "word-stats" may not read/);
});

test('knack skills run without an approver refuses a write that needs approval, and writes nothing', async () => {
  const { base, ws } = setup();
  const r = await cli([
    'skills',
    'run',
    'word-stats',
    'count.mjs',
    '--args',
    '{"path": "notes.md", "report": true}',
    ...base,
  ]);
  assert.equal(r.code, 1);
  assert.match(r.err, /capability\.needs_approval/);
  assert.equal(existsSync(join(ws, 'reports')), false);
});

test('a stored rule (knack policy rules add) lets the script write without asking', async () => {
  const { base, ws } = setup();
  const added = await cli([
    'policy',
    'rules',
    'add',
    'allow',
    '--tool',
    'write_file',
    '--path',
    'reports/**',
    '--skill',
    'word-stats',
    ...base,
  ]);
  assert.equal(added.code, 0, added.err);
  const r = await cli([
    'skills',
    'run',
    'word-stats',
    'count.mjs',
    '--args',
    '{"path": "notes.md", "report": true}',
    ...base,
  ]);
  assert.equal(r.code, 0, r.err);
  assert.equal(JSON.parse(readFileSync(join(ws, 'reports', 'notes.md.json'), 'utf8')).words, 11);
});

test('knack skills run names unknown skills and bad flags', async () => {
  const { base } = setup();
  assert.match((await cli(['skills', 'run', 'nope', 'x.mjs', ...base])).err, /no skill named "nope"/);
  assert.match(
    (await cli(['skills', 'run', 'word-stats', 'count.mjs', '--args', '[1]', ...base])).err,
    /--args must be a JSON object/,
  );
  assert.match(
    (await cli(['skills', 'run', 'word-stats', 'count.mjs', '--timeout', 'soon', ...base])).err,
    /--timeout: "soon"/,
  );
});

test('knack sandbox run: no permissions without --skill, the manifest with it; --timeout applies', async () => {
  const { base, root, ws } = setup();
  const file = join(root, 'read.mjs');
  writeFileSync(file, 'export default (args, knack) => knack.readFile("notes.md")');
  const none = await cli(['sandbox', 'run', file, ...base]);
  assert.equal(none.code, 1);
  assert.match(none.err, /capability\.denied/);
  const withSkill = await cli([
    'sandbox',
    'run',
    file,
    '--skill',
    join(ws, '.workbuddy', 'skills', 'word-stats'),
    ...base,
  ]);
  assert.equal(withSkill.code, 0, withSkill.err);
  assert.match(withSkill.out, /The cat and the dog/);
  const loop = join(root, 'loop.js');
  writeFileSync(loop, 'export default () => { for (;;) {} }');
  const t = await cli(['sandbox', 'run', loop, '--timeout', '200', '--json', ...base]);
  assert.equal(t.code, 1);
  assert.equal(JSON.parse(t.out).error.code, 'limit.timeout');
});

test('knack sandbox run refuses scripts in other languages and points to the bash tool', async () => {
  const { base, root } = setup();
  const py = join(root, 'x.py');
  writeFileSync(py, 'print(1)');
  const r = await cli(['sandbox', 'run', py, ...base]);
  assert.equal(r.code, 1);
  assert.match(r.err, /script\.not_javascript: .*Python script.*bash tool/);
});

test('knack.callTool reaches the real built-in tools through the real gate, as the skill', async () => {
  const { base, ws, root } = setup();
  const skillDir = join(ws, '.workbuddy', 'skills', 'reader');
  mkdirSync(join(skillDir, 'scripts'), { recursive: true });
  writeFileSync(
    join(skillDir, 'SKILL.md'),
    '---\nname: reader\ndescription: Reads markdown notes with the read_file tool.\npermissions:\n  tools: [read_file]\n  paths:\n    read: ["**/*.md"]\n---\nRead notes.\n',
  );
  writeFileSync(
    join(skillDir, 'scripts', 'read.mjs'),
    'export default (args, knack) => knack.callTool("read_file", { path: args.path })',
  );
  const ok = await cli(['skills', 'run', 'reader', 'read.mjs', '--args', '{"path": "notes.md"}', '--json', ...base]);
  assert.equal(ok.code, 0, ok.err + ok.out);
  assert.match(JSON.stringify(JSON.parse(ok.out).value), /The cat and the dog/);
  const denied = await cli(['skills', 'run', 'reader', 'read.mjs', '--args', '{"path": "id_rsa"}', ...base]);
  assert.equal(denied.code, 1);
  assert.match(denied.err, /knack\.callTool\("read_file"\): denied: skill "reader" may not read/);
  const bad = await cli(['skills', 'run', 'reader', 'read.mjs', '--args', '{"path": 42}', ...base]);
  assert.match(bad.err, /capability\.bad_arguments: knack\.callTool\("read_file"\)/);
  // A tool the manifest does not list is refused (file tools are bounded by paths; others by the tools list).
  const file = join(root, 'call.mjs');
  writeFileSync(file, 'export default (args, knack) => knack.callTool("bash", { command: "cat notes.md" })');
  const other = await cli(['sandbox', 'run', file, '--skill', join(ws, '.workbuddy', 'skills', 'word-stats'), ...base]);
  assert.equal(other.code, 1);
  assert.match(other.err, /capability\.denied: knack\.callTool\("bash"\): denied: .*skill "word-stats" .*bash/);
});
