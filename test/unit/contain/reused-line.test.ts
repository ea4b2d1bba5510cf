// The wall reuses the command line the runtime built (template.ts): what changes on disk between two commands still
// changes what the next one may do. A secret folder made after the first command is unreadable to the next, a
// protected folder made since is unwritable, one swapped for a link stays unwritable through it; two commands running
// at once keep their own hosts; the command never sees the variable it travelled in.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp, type Server } from 'node:http';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { runInWall } from '../../helpers/wall-run.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { COMMAND_VAR } from '../../../main/core/contain/template.js';

const root = tempDir('knack-reused-');
const home = join(root, 'home');
mkdirSync(home, { recursive: true });
/** Plays every host behind the sandbox's proxy (as its upstream proxy: it is sent absolute URLs). */
const api: Server = createHttp((req, res) => res.end(`api saw ${new URL(req.url ?? '/').host}`));
let wall: Wall;
let ws: string;

before(async () => {
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  ws = join(root, 'ws');
  mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
  const upstreamProxy = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, 'data'), upstreamProxy }, 'required');
  assert.equal(wall.available, true, wall.status().reason);
});
after(async () => {
  await wall.close();
  api.close();
});

const run = (command: string, hosts: string[] = []) => runInWall(wall, ws, command, hosts);

test('a secret folder made after a command is unreadable to the next one', async () => {
  assert.equal((await run('true')).code, 0);
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), 'aws_secret_access_key = canary-aws\n');
  const r = await run(`cat ${join(home, '.aws', 'credentials')}`);
  assert.notEqual(r.code, 0);
  assert.doesNotMatch(r.stdout, /canary-aws/);
  assert.ok(
    r.blocked.some((b) => b.kind === 'read' && b.target === join(home, '.aws')),
    JSON.stringify(r.blocked),
  );
});

test('a protected folder made after a command is unwritable to the next one', async () => {
  assert.equal((await run('true')).code, 0);
  mkdirSync(join(ws, '.workbuddy'));
  const r = await run('echo "{}" > .workbuddy/settings.json');
  assert.notEqual(r.code, 0);
  assert.equal(existsSync(join(ws, '.workbuddy', 'settings.json')), false);
});

test('git hooks swapped for a link after a command stay unwritable through it', async () => {
  assert.equal((await run('true')).code, 0);
  mkdirSync(join(ws, 'elsewhere'));
  renameSync(join(ws, '.git', 'hooks'), join(ws, 'hooks-before'));
  symlinkSync(join(ws, 'elsewhere'), join(ws, '.git', 'hooks'));
  const r = await run('echo "touch /tmp/pwned" > .git/hooks/pre-commit');
  assert.notEqual(r.code, 0);
  assert.equal(existsSync(join(ws, 'elsewhere', 'pre-commit')), false);
});

test('two commands at once keep their own hosts', async () => {
  const [allowed, refused] = await Promise.all([
    run('sleep 1; curl -sS -m 10 http://api.example.test/', ['api.example.test']),
    run('curl -sSf -m 10 http://api.example.test/'),
  ]);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, 'api saw api.example.test');
  assert.notEqual(refused.code, 0);
  assert.ok(
    refused.blocked.some((b) => b.kind === 'network'),
    JSON.stringify(refused.blocked),
  );
});

test('the command runs as bash -c of itself and never sees the variable it came in', async () => {
  const r = await run(`echo "[\${${COMMAND_VAR}-unset}]"; echo "$0"; exit 7`);
  assert.equal(r.code, 7, r.stderr);
  assert.equal(r.stdout.split('\n')[0], '[unset]');
  assert.match(r.stdout.split('\n')[1]!, /bash$/);
});
