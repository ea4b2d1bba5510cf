// A settings file that does not parse when a workspace opens applies the narrowest of (the last good ceiling stored in
// the database, the defaults), never something wider; the problem names the file, line and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';

function setup() {
  const root = tempDir();
  const data = join(root, 'data');
  const ws = join(root, 'ws');
  writeTree(ws, { 'readme.md': 'hello\n' });
  const common = cliArgs({ ws, home: join(root, 'home'), data });
  const check = (tool: string, args = '{}') => run(['policy', 'check', '--tool', tool, '--args', args, ...common]);
  return { data, ws, common, check };
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test("a trailing comma in the user's settings.json at open does not give back the tools it took away", async () => {
  const s = setup();
  writeTree(s.data, { 'settings.json': '{\n  "policy": { "ceiling": { "tools": ["read_file", "list_dir"] } }\n}\n' });
  const before = await s.check('bash', '{"command":"ls"}');
  assert.equal(before.code, 2, before.out + before.err);
  assert.match(before.out, /^deny: bash is not offered/);

  writeTree(s.data, { 'settings.json': '{\n  "policy": { "ceiling": { "tools": ["read_file", "list_dir"], } }\n}\n' });
  const after = await s.check('bash', '{"command":"ls"}');
  assert.equal(after.code, 2, after.out + after.err);
  assert.match(after.out, /^deny: bash is not offered/);
  // file:line:column, and what applies meanwhile.
  assert.match(after.err, new RegExp(`^${esc(join(s.data, 'settings.json'))}:2:\\d+: .*trailing comma`, 'm'));
  assert.match(after.err, /last good/);
  // What the last good ceiling allowed still works.
  const read = await s.check('read_file', '{"path":"readme.md"}');
  assert.equal(read.code, 0, read.out + read.err);
});

test('a broken settings file at open with no last good ceiling applies the defaults, never wider', async () => {
  const s = setup();
  writeTree(s.data, { 'settings.json': '{ "policy": { "ceiling": { "network": true, } } }' });
  const net = await s.check('web_fetch', '{"url":"https://example.com/"}');
  assert.equal(net.code, 2, net.out + net.err);
  assert.match(net.out, /network/);
});

test("a workspace's broken settings file at open keeps the narrowing it last applied", async () => {
  const s = setup();
  writeTree(s.ws, { '.workbuddy/settings.json': '{ "policy": { "ceiling": { "tools": ["read_file"] } } }' });
  assert.equal((await s.check('list_dir', '{"path":"."}')).code, 2);
  writeTree(s.ws, { '.workbuddy/settings.json': '{ "policy": { "ceiling": { "tools": ["read_file"] } ' });
  const after = await s.check('list_dir', '{"path":"."}');
  assert.equal(after.code, 2, after.out + after.err);
  assert.match(after.err, new RegExp(`^${esc(join(s.ws, '.workbuddy', 'settings.json'))}:1:\\d+: `, 'm'));
});

test('a settings file that parses again sets the ceiling as it says, and that becomes the last good one', async () => {
  const s = setup();
  writeTree(s.data, { 'settings.json': '{ "policy": { "ceiling": { "tools": ["read_file"] } } }' });
  assert.equal((await s.check('list_dir', '{"path":"."}')).code, 2);
  writeTree(s.data, { 'settings.json': '{ "policy": { "ceiling": { "tools": ["read_file", "list_dir"] } } }' });
  assert.equal((await s.check('list_dir', '{"path":"."}')).code, 0);
  writeTree(s.data, { 'settings.json': '{ "policy": { "ceiling": { "tools": ["read_file", "list_dir"] } } ' });
  assert.equal((await s.check('list_dir', '{"path":"."}')).code, 0);
  assert.equal((await s.check('bash', '{"command":"ls"}')).code, 2);
});
