// The wall, tried as an attacker would: each command runs inside the real OS sandbox (bubblewrap here) and tries to
// write outside the workspace, read a secret, reach a loopback listener or a host it was not given.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createTcp } from 'node:net';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { kinds, runInWall } from '../../helpers/wall-run.js';
import { Wall, WALL_TMP_PREFIX } from '../../../main/core/contain/wall.js';

const root = tempDir('knack-wall-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const canary = join(root, 'canary.txt');
mkdirSync(join(home, '.ssh'), { recursive: true });
mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY canary-ssh\n');
writeFileSync(canary, 'untouched\n');

/** Connections that reached the loopback listener (none may). */
let tcpHits = 0;
const listener = createTcp((s) => {
  tcpHits++;
  s.destroy();
});
/** Plays api.example.test behind the sandbox's proxy (as an upstream proxy: it is sent absolute URLs). */
const api: Server = createHttp((req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  res.end(`api saw ${url.host}${url.pathname}`);
});
let wall: Wall;

before(async () => {
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const port = (api.address() as { port: number }).port;
  wall = await Wall.open(
    { workspace: ws, home, dataDir: join(home, '.local/share/knack'), upstreamProxy: `http://127.0.0.1:${port}` },
    'auto',
  );
});
after(async () => {
  await wall.close();
  listener.close();
  api.close();
});

const run = (command: string, hosts: string[] = []) => runInWall(wall, ws, command, hosts);
const loopPort = () => (listener.address() as { port: number }).port;

test('the wall is available here (bubblewrap) and a command writes in the workspace', async () => {
  assert.equal(wall.status().available, true, wall.status().reason);
  assert.equal(wall.status().backend, 'bubblewrap');
  const r = await run('echo made > made.txt && cat made.txt');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(join(ws, 'made.txt'), 'utf8'), 'made\n');
  assert.deepEqual(r.blocked, []);
});

test('a write outside the workspace is blocked and named; the canary stays untouched', async () => {
  const r = await run(`echo owned > ${canary}`);
  assert.notEqual(r.code, 0);
  assert.equal(readFileSync(canary, 'utf8'), 'untouched\n');
  assert.ok(kinds(r.blocked).includes(`write ${canary}`), JSON.stringify(r.blocked));
});

test('git hooks and Knack settings in the workspace are not writable', async () => {
  const r = await run(
    'echo "touch /tmp/x" > .git/hooks/pre-commit; mkdir -p .workbuddy && echo {} > .workbuddy/settings.json',
  );
  assert.equal(existsSync(join(ws, '.git/hooks/pre-commit')), false);
  assert.equal(existsSync(join(ws, '.workbuddy/settings.json')), false);
  // The existing hooks folder is refused; the missing .workbuddy, once made, is moved aside: both are named.
  assert.ok(kinds(r.blocked).includes(`write ${join(ws, '.git/hooks/pre-commit')}`), JSON.stringify(r.blocked));
  assert.ok(kinds(r.blocked).includes(`write ${join(ws, '.workbuddy')}`), JSON.stringify(r.blocked));
});

test('reading ~/.ssh fails and is named as a blocked read', async () => {
  const r = await run(`cat ${join(home, '.ssh', 'id_ed25519')}`);
  assert.notEqual(r.code, 0);
  assert.doesNotMatch(r.stdout, /canary-ssh/);
  assert.ok(kinds(r.blocked).includes(`read ${join(home, '.ssh')}`), JSON.stringify(r.blocked));
});

test('/dev/tcp, an interpreter and curl to a loopback listener make no connection', async () => {
  const port = loopPort();
  const r = await run(
    `exec 3<>/dev/tcp/127.0.0.1/${port}; python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 2)"; curl -sS -m 3 http://127.0.0.1:${port}/`,
    ['127.0.0.1'],
  );
  assert.notEqual(r.code, 0);
  assert.equal(tcpHits, 0);
});

test('an allowed host is reached through the proxy; any other host is refused with its name', async () => {
  const ok = await run('curl -sS -m 10 http://api.example.test/v1', ['api.example.test']);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'api saw api.example.test/v1');
  const bad = await run('curl -sSf -m 10 http://evil.example.test/x', ['api.example.test']);
  assert.notEqual(bad.code, 0);
  assert.ok(kinds(bad.blocked).includes('network evil.example.test:80'), JSON.stringify(bad.blocked));
  // The refusal is Knack's own, said in words; the runtime's text is only its detail.
  const refused = bad.blocked.find((b) => b.kind === 'network')!;
  assert.deepEqual(refused.words, {
    code: 'wall.networkRefusedWhy',
    params: { host: 'evil.example.test:80', why: { code: 'wall.why.notAllowed' } },
  });
  assert.match(refused.detail ?? '', /^evil\.example\.test is not among the hosts allowed to this program \(/);
  const none = await run('curl -sSf -m 10 http://api.example.test/v1');
  assert.notEqual(none.code, 0);
  assert.ok(
    none.blocked.some((b) => b.kind === 'network'),
    JSON.stringify(none.blocked),
  );
});

test("credentials in Knack's environment never reach a command or a wrapped program", async () => {
  process.env.WALL_TEST_API_KEY = 'canary-env-key';
  try {
    const r = await run('env');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /canary-env-key/);
    // A wrapped program (an MCP server, git) gets the environment its caller gives, and nothing of Knack's own.
    const w = await wall.wrapProgram(['env'], { cwd: ws, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    await w.release();
    assert.equal(w.env.WALL_TEST_API_KEY, undefined);
    assert.equal(w.env.PATH, process.env.PATH ?? '/usr/bin:/bin');
  } finally {
    delete process.env.WALL_TEST_API_KEY;
  }
});

test("a write to the sandbox's own /dev/shm (a Python multiprocessing lock) is no blocked write and reaches no host file", async () => {
  const name = `knack-wall-shm-${process.pid}`;
  const r = await run(
    `python3 -c "import multiprocessing as m; m.Lock(); print(42)" && echo x > /dev/shm/${name} && cat /dev/shm/${name}`,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '42\nx\n');
  // Reported as blocked, the model would be told to run it again WITHOUT the sandbox.
  assert.deepEqual(kinds(r.blocked), []);
  assert.equal(existsSync(`/dev/shm/${name}`), false);
});

test("a command's temporary files (mktemp, Python's tempfile) go to a folder of the wall's own, nothing blocked", async () => {
  const r = await run(
    'f=$(mktemp) && echo t > "$f" && cat "$f" && python3 -c "import tempfile; print(tempfile.gettempdir() == __import__(\'os\').environ[\'TMPDIR\'])"',
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 't\nTrue\n');
  assert.deepEqual(kinds(r.blocked), []);
  assert.deepEqual(
    readdirSync(ws).filter((n) => n.startsWith('tmp')),
    [],
    'no temporary file fell back to the workspace',
  );
});

test("a wall's temporary folder goes as it closes; one left by a Knack killed with -9 goes as the next wall opens", async () => {
  // A pid that was alive and is no more (the child has exited), and one that is (init).
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const left = join(tmpdir(), `${WALL_TMP_PREFIX}${dead}-killed`);
  const live = join(tmpdir(), `${WALL_TMP_PREFIX}1-running`);
  for (const d of [left, live]) {
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'scratch'), 'x');
  }
  const next = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack') }, 'auto');
  try {
    const own = (await runInWall(next, ws, 'printf %s "$TMPDIR"')).stdout;
    assert.equal(existsSync(left), false, 'the folder of a process that is gone is removed');
    assert.equal(existsSync(live), true, "a live process's folder is left to it");
    assert.ok(own.startsWith(join(tmpdir(), `${WALL_TMP_PREFIX}${process.pid}-`)), own);
    assert.equal(existsSync(own), true);
    await next.close();
    assert.equal(existsSync(own), false, 'closing the wall removes its folder');
  } finally {
    await next.close();
    rmSync(live, { recursive: true, force: true });
    rmSync(left, { recursive: true, force: true });
  }
});

test('a wall turned off in settings starts nothing and says so', async () => {
  const off = await Wall.open({ workspace: ws, home, dataDir: join(home, 'data') }, 'off');
  assert.equal(off.status().available, false);
  assert.match(off.status().reason, /turned off/);
  await assert.rejects(off.spawn('true', { cwd: ws }), /unavailable/);
  await off.close();
});
