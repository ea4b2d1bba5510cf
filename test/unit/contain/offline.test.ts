// A command allowed no host runs with the network fully off (offline.ts): no socat relay starts inside the sandbox,
// no proxy variable is set, and a host, a loopback listener or the proxy's socket itself (visible read-only, as all of
// /tmp; connecting to it is refused by the seccomp filter) stay out of reach, tried as an attacker would; one given hosts still reaches them through the proxy. With
// the network off, what the wall blocked is still named (a write outside, the host that did not resolve).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createTcp } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { kinds, runInWall, wallFolders } from '../../helpers/wall-run.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { quoteWords, unquoteWords, withoutRelays } from '../../../main/core/contain/offline.js';

const { home, ws, canary } = wallFolders('knack-offline-');

let tcpHits = 0;
const listener = createTcp((s) => {
  tcpHits++;
  s.destroy();
});
/** Plays every host behind the sandbox's proxy (its upstream proxy); counts what reached it. */
let apiHits = 0;
const api: Server = createHttp((req, res) => {
  apiHits++;
  res.end(`api saw ${new URL(req.url ?? '/').host}`);
});
let wall: Wall;

before(async () => {
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const upstreamProxy = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, 'data'), upstreamProxy }, 'required');
  assert.equal(wall.available, true, wall.status().reason);
});
after(async () => {
  await wall.close();
  listener.close();
  api.close();
});

const run = (command: string, hosts: string[] = []) => runInWall(wall, ws, command, hosts);
/** Every process in the command's PID namespace, by command line. */
const PROCESSES = `for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < "$f"; echo; done`;

test('the runtime quoting reads back word for word, and any other line is not read', () => {
  const words = ['bwrap', "it's", 'a b', '', '--setenv', 'X', "'\"'\n$(x)"];
  assert.deepEqual(unquoteWords(quoteWords(words)), words);
  for (const line of ['a "b c"', 'a $(x)', "a 'b", 'a  b', 'a b;c', 'a\\ b', ' a', 'a '])
    assert.equal(unquoteWords(line), undefined, line);
});

test('a line of another shape is left as it is', () => {
  const sock = '/tmp/claude-http-x.sock';
  assert.equal(withoutRelays(['bash', '-c', `bwrap --bind ${sock} ${sock} -- /bin/bash -c true`], [sock]), undefined);
  assert.equal(withoutRelays(['bash', '-c', 'bwrap --unshare-net $(evil) -- /bin/bash -c true'], [sock]), undefined);
  assert.equal(
    withoutRelays(['bash', '-c', `bwrap --unshare-net --bind ${sock} ${sock} -- /bin/bash -c 'bash -c true'`], [sock]),
    undefined,
  );
});

test('a command allowed no host starts no relay and sees no proxy variable', async () => {
  const r = await run(`${PROCESSES}; env`);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /socat/);
  assert.doesNotMatch(r.stdout, /^(https?|all|grpc|ftp)_proxy=/im);
  assert.doesNotMatch(r.stdout, /claude-http-/);
  // Given a host, the same wall still starts its relays and reaches the host through the proxy.
  const hits = apiHits;
  const withHost = await run(`${PROCESSES}; curl -sS -m 10 http://api.example.test/`, ['api.example.test']);
  assert.equal(withHost.code, 0, withHost.stderr);
  assert.match(withHost.stdout, /socat/);
  assert.match(withHost.stdout, /api saw api\.example\.test/);
  assert.equal(apiHits, hits + 1);
});

test('with no host, a host, a loopback listener and the proxy socket are all out of reach, and each is named', async () => {
  const hits = apiHits;
  const port = (listener.address() as { port: number }).port;
  const socket = SandboxManager.getLinuxHttpSocketPath()!;
  const curl = await run('curl -sS -m 10 http://api.example.test/v1');
  assert.notEqual(curl.code, 0);
  assert.ok(kinds(curl.blocked).includes('network api.example.test'), JSON.stringify(curl.blocked));
  const proxy = await run('curl -sS -m 5 -x http://localhost:3128 http://api.example.test/v1');
  assert.notEqual(proxy.code, 0);
  assert.ok(
    proxy.blocked.some((b) => b.kind === 'network'),
    JSON.stringify(proxy.blocked),
  );
  const direct = await run(
    `exec 3<>/dev/tcp/127.0.0.1/${port}; python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 2)"`,
  );
  assert.notEqual(direct.code, 0);
  const unix = await run(
    `python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socket}'); s.sendall(b'GET http://api.example.test/ HTTP/1.1\\r\\nHost: api.example.test\\r\\n\\r\\n'); print(s.recv(100))"`,
  );
  assert.notEqual(unix.code, 0);
  assert.equal(tcpHits, 0);
  assert.equal(apiHits, hits);
});

test('with the network off, a write outside is still blocked and named', async () => {
  const r = await run(`echo owned > ${canary}`);
  assert.notEqual(r.code, 0);
  assert.equal(readFileSync(canary, 'utf8'), 'untouched\n');
  assert.ok(kinds(r.blocked).includes(`write ${canary}`), JSON.stringify(r.blocked));
  const ok = await run('echo made > made.txt && cat made.txt');
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, 'made\n');
});
