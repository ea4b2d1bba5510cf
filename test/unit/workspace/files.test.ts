// The composer's @-mention list (`workspace.files`): the open folder's files on a real temp folder, .gitignore'd
// paths, .git and node_modules left out, a link out of the workspace never listed, the walk's cap said as
// `truncated`, a file made after the first call found once the short cache has aged, the query ranked fuzzily (the
// best way the letters match, on a usual project's tree), and the names a deny rule covers left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { FileLister, fuzzyScore } from '../../../main/core/service/files.js';

function folder(): string {
  const root = tempDir();
  const ws = join(root, 'repo');
  writeTree(ws, {
    '.gitignore': 'dist/\n*.log\n',
    'src/app.ts': '',
    'src/components/Chat.tsx': '',
    'docs/my notes.md': '',
    'README.md': '',
    'debug.log': '',
    'dist/bundle.js': '',
    'node_modules/left-pad/index.js': '',
    '.git/config': '',
    'pkg/.gitignore': 'secret.txt\n',
    'pkg/secret.txt': '',
    'pkg/open.txt': '',
  });
  writeTree(root, { 'outside/passwords.txt': 'no', 'outside-file.txt': 'no' });
  symlinkSync(join(root, 'outside'), join(ws, 'linked-dir'));
  symlinkSync(join(root, 'outside-file.txt'), join(ws, 'linked-file.txt'));
  symlinkSync(join(ws, 'README.md'), join(ws, 'readme-link.md'));
  return ws;
}

test('lists the workspace files, without ignored ones, .git, node_modules or a link out of it', async () => {
  const ws = folder();
  const r = await new FileLister().list(ws, '', 100);
  assert.deepEqual([...r.paths].sort(), [
    '.gitignore',
    'README.md',
    'docs/my notes.md',
    'pkg/.gitignore',
    'pkg/open.txt',
    'readme-link.md',
    'src/app.ts',
    'src/components/Chat.tsx',
  ]);
  assert.equal(r.truncated, false);
  // The shallow ones first when nothing is typed yet.
  assert.deepEqual(r.paths.slice(0, 3), ['.gitignore', 'readme-link.md', 'README.md']);
});

test('ranks a fuzzy query: subsequence, file-name and segment-start matches first, non-matches left out', async () => {
  const ws = folder();
  const lister = new FileLister();
  assert.deepEqual((await lister.list(ws, 'chat', 10)).paths, ['src/components/Chat.tsx']);
  assert.deepEqual((await lister.list(ws, 'scch', 10)).paths, ['src/components/Chat.tsx']);
  assert.deepEqual((await lister.list(ws, 'zzz', 10)).paths, []);
  assert.deepEqual((await lister.list(ws, 'notes', 10)).paths, ['docs/my notes.md']);
  const readme = (await lister.list(ws, 'readme', 10)).paths;
  assert.equal(readme[0], 'README.md');
  assert.equal((await lister.list(ws, '', 2)).paths.length, 2);
  assert.ok(fuzzyScore('app', 'src/app.ts')! > fuzzyScore('app', 'src/apply/paper.ts')!);
  assert.equal(fuzzyScore('xa', 'src/app.ts'), undefined);
});

/** A usual TypeScript project's files. */
const TREE = [
  '.github/workflows/ci.yml',
  'README.md',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'src/app.ts',
  'src/main.ts',
  'src/index.ts',
  'src/components/Chat.tsx',
  'src/components/ChatList.tsx',
  'src/components/FileMenu.tsx',
  'src/components/menu-keys.ts',
  'src/components/Settings.tsx',
  'src/state/store.ts',
  'src/state/session-store.ts',
  'src/api/client.ts',
  'src/api/context.tsx',
  'src/i18n/words-zh.ts',
  'src/utils/format-date.ts',
  'src/utils/string-utils.ts',
  'docs/agent.md',
  'docs/interface.md',
  'test/unit/chat.test.ts',
  'test/unit/file-menu.test.tsx',
  'scripts/build.mjs',
  'src/server/websocket.ts',
];

test('ranks letters at segment and word starts and in runs first, the best way they match, not the first', async () => {
  const ws = join(tempDir(), 'project');
  writeTree(ws, Object.fromEntries(TREE.map((p) => [p, ''])));
  const lister = new FileLister();
  const top = async (q: string, n = 1) => (await lister.list(ws, q, n)).paths;
  // s(rc) c(omponents or Chat) t(sx): segment and word starts, over src/app.ts, whose c and t start nothing.
  const sct = (await lister.list(ws, 'sct', 20)).paths;
  assert.ok(sct.indexOf('src/components/Chat.tsx') < sct.indexOf('src/app.ts'), sct.join(', '));
  assert.ok(sct.indexOf('src/components/Chat.tsx') < 4, sct.join(', '));
  assert.ok(fuzzyScore('sct', 'src/components/Chat.tsx')! > fuzzyScore('sct', 'src/app.ts')!);
  // A run at a name's start over a camelCase hump.
  assert.deepEqual(await top('cli'), ['src/api/client.ts']);
  assert.deepEqual(await top('mk'), ['src/components/menu-keys.ts']);
  assert.deepEqual(await top('wz'), ['src/i18n/words-zh.ts']);
  assert.deepEqual(await top('pj', 2), ['package.json', 'package-lock.json']);
  assert.deepEqual(await top('readme'), ['README.md']);
  assert.deepEqual([...(await top('fm', 2))].sort(), ['src/components/FileMenu.tsx', 'test/unit/file-menu.test.tsx']);
  assert.deepEqual([...(await top('chat', 3))].sort(), [
    'src/components/Chat.tsx',
    'src/components/ChatList.tsx',
    'test/unit/chat.test.ts',
  ]);
});

test('the walk stops at its cap and says truncated', async () => {
  const ws = join(tempDir(), 'many');
  mkdirSync(ws);
  for (let i = 0; i < 30; i++) writeFileSync(join(ws, `f${String(i).padStart(2, '0')}.txt`), '');
  const r = await new FileLister({ maxFiles: 10 }).list(ws, '', 50);
  assert.equal(r.paths.length, 10);
  assert.equal(r.truncated, true);
});

test('a file made after the first call is found on a later one once the cache has aged', async () => {
  const ws = folder();
  let now = 1000;
  const lister = new FileLister({ ttlMs: 2000, now: () => now });
  assert.deepEqual((await lister.list(ws, 'fresh', 10)).paths, []);
  writeFileSync(join(ws, 'src', 'fresh.ts'), '');
  now += 2001;
  assert.deepEqual((await lister.list(ws, 'fresh', 10)).paths, ['src/fresh.ts']);
});

test('workspace.files leaves out the names a deny rule keeps the model from reading; an ask rule keeps them', async (t) => {
  const env = await serviceEnv(t, {
    files: { 'secret/keys.txt': '', 'secret/plans.md': '', 'private.env': '', 'src/keys.ts': '', 'ask/keys.md': '' },
  });
  const store = env.service.workspace!.store!;
  store.policy.insertRule({ effect: 'deny', tool: 'read_file', path: 'secret/**' });
  store.policy.insertRule({ effect: 'deny', tool: 'read_file', path: '*.env' });
  store.policy.insertRule({ effect: 'ask', tool: 'read_file', path: 'ask/**' });
  assert.deepEqual((await env.call('workspace.files', { query: 'keys', limit: 8 })).paths.sort(), [
    'ask/keys.md',
    'src/keys.ts',
  ]);
  const all = (await env.call('workspace.files', { query: '', limit: 50 })).paths;
  assert.ok(all.includes('notes.txt') && all.includes('src/keys.ts'), all.join(', '));
  assert.deepEqual(
    all.filter((p) => p.startsWith('secret/') || p.endsWith('.env')),
    [],
  );
  // The limit counts the names shown: the denied ones do not take a row.
  assert.equal((await env.call('workspace.files', { query: '', limit: 2 })).paths.length, 2);
});

test('workspace.files answers through the contract for the open folder', async (t) => {
  const env = await serviceEnv(t, { files: { 'src/deep/thing.ts': '', '.gitignore': 'out/\n', 'out/x.ts': '' } });
  const r = await env.call('workspace.files', { query: 'thing', limit: 5 });
  assert.deepEqual(r, { paths: ['src/deep/thing.ts'], truncated: false });
  const all = await env.call('workspace.files', { query: '' });
  assert.ok(!all.paths.some((p) => p.startsWith('out/')));
});
