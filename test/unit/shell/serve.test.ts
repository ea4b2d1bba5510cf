// Serve mode tried from outside: no token, wrong token, a foreign Host (DNS rebinding), a foreign Origin (another
// site's page), a non-loopback interface; and the contract over the real WebSocket with the same schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { writeTree, skillMd } from '../../helpers/tmp.js';
import { startServe, type ServeHandle } from '../../../main/serve/server.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { judgeRequest, listenAddressProblem } from '../../../main/serve/guards.js';
import { KnackError, createClient, socketTransport, type SocketLike } from '../../../preload/client.js';

async function setup(t: { after(fn: () => unknown): void }) {
  const { root, ws, service } = await serviceEnv(t, {
    files: { '.workbuddy/skills/notes/SKILL.md': skillMd({ name: 'notes', description: 'Take notes' }) },
  });
  const renderer = join(root, 'renderer');
  writeTree(renderer, { 'index.html': '<!doctype html><title>Knack UI</title>', 'assets/app.js': 'console.log(1)' });
  writeTree(root, { 'secret.txt': 'do not serve me' });
  const server = await startServe({ handlers: service.handlers, events: service.events, rendererDir: renderer });
  t.after(() => server.close());
  return { server, service, ws, root };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(server: ServeHandle, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'GET',
        headers: { Host: `127.0.0.1:${server.port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function upgrade(
  server: ServeHandle,
  headers: Record<string, string>,
  path = '/ws',
): Promise<{ opened: WebSocket } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, { headers });
    ws.on('open', () => resolve({ opened: ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

const cookie = (s: ServeHandle) => `knack_${s.port}=${s.token}`;
const origin = (s: ServeHandle) => `http://127.0.0.1:${s.port}`;

test('the page needs the token: none or a wrong one is 401; the right one becomes an HttpOnly cookie and leaves the URL', async (t) => {
  const { server } = await setup(t);
  assert.equal((await get(server, '/')).status, 401);
  assert.equal((await get(server, '/?token=nope')).status, 401);
  assert.equal(
    (await get(server, '/', { Cookie: `knack_${server.port}=${'x'.repeat(server.token.length)}` })).status,
    401,
  );
  const first = await get(server, `/?token=${server.token}`);
  assert.equal(first.status, 303);
  assert.equal(first.headers.location, '/');
  assert.match(String(first.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
  const page = await get(server, '/', { Cookie: cookie(server) });
  assert.equal(page.status, 200);
  assert.match(page.body, /Knack UI/);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'; .*frame-ancestors 'none'/);
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  assert.equal(
    (await get(server, '/assets/app.js', { Cookie: cookie(server) })).headers['content-type'],
    'text/javascript; charset=utf-8',
  );
});

test('a foreign Host is refused even with the token (DNS rebinding), and so is a foreign Origin or a cross-site fetch', async (t) => {
  const { server } = await setup(t);
  assert.equal(
    (await get(server, '/', { Host: `attacker.example:${server.port}`, Cookie: cookie(server) })).status,
    421,
  );
  assert.equal((await get(server, '/', { Host: `127.0.0.1:${server.port + 1}`, Cookie: cookie(server) })).status, 421);
  assert.equal((await get(server, '/', { Origin: 'http://attacker.example', Cookie: cookie(server) })).status, 403);
  assert.equal((await get(server, '/', { 'Sec-Fetch-Site': 'cross-site', Cookie: cookie(server) })).status, 403);
  assert.equal((await get(server, '/', { Host: `localhost:${server.port}`, Cookie: cookie(server) })).status, 200);
});

test('the renderer folder cannot be left by the path', async (t) => {
  const { server } = await setup(t);
  for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt']) {
    const r = await get(server, p, { Cookie: cookie(server) });
    assert.doesNotMatch(r.body, /do not serve me/, p);
  }
});

test('the socket refuses no token, a wrong token, a foreign Origin and a foreign Host', async (t) => {
  const { server } = await setup(t);
  assert.deepEqual(await upgrade(server, { Origin: origin(server) }), { status: 401 });
  assert.deepEqual(await upgrade(server, { Origin: origin(server), Cookie: `knack_${server.port}=wrong` }), {
    status: 401,
  });
  assert.deepEqual(await upgrade(server, { Origin: 'http://attacker.example', Cookie: cookie(server) }), {
    status: 403,
  });
  assert.deepEqual(
    await upgrade(server, { Origin: origin(server), Cookie: cookie(server), Host: `rebind.example:${server.port}` }),
    { status: 421 },
  );
  assert.deepEqual(await upgrade(server, { Origin: origin(server), Cookie: cookie(server) }, '/other'), {
    status: 404,
  });
  const ok = await upgrade(server, { Origin: origin(server), Cookie: cookie(server) });
  assert.ok('opened' in ok);
  ok.opened.close();
});

test('the server listens on loopback only: 0.0.0.0 is refused and no other interface answers', async (t) => {
  assert.match(listenAddressProblem('0.0.0.0')!, /127\.0\.0\.1 only/);
  await assert.rejects(
    startServe({ handlers: {} as never, events: { on: () => () => {} } as never, rendererDir: '.', host: '0.0.0.0' }),
    /127\.0\.0\.1 only/,
  );
  const v = judgeRequest(
    {
      method: 'GET',
      host: '127.0.0.1:1',
      origin: undefined,
      fetchSite: undefined,
      remoteAddress: '192.0.2.9',
      token: 't',
      upgrade: false,
    },
    1,
    't',
  );
  assert.deepEqual(v, { ok: false, status: 403, reason: 'not a loopback peer' });
  const { server } = await setup(t);
  const external = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && a.family === 'IPv4')
    .map((a) => a!.address);
  assert.ok(external.length > 0, 'this machine has no non-loopback IPv4 interface to try the server from');
  for (const address of external) {
    const refused = await new Promise<string>((resolve) => {
      const s = connect({ host: address, port: server.port });
      s.once('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    assert.equal(refused, 'ECONNREFUSED', `${address}:${server.port}`);
  }
});

test('the contract over the socket: typed calls, the same input validation, errors as {code, message}, events', async (t) => {
  const { server, root } = await setup(t);
  const client = createClient(
    socketTransport({
      connect: () =>
        new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
          headers: { Origin: origin(server), Cookie: cookie(server) },
        }) as unknown as SocketLike,
    }),
  );
  t.after(() => client.close());
  const { skills } = await client.call('skills.list', {});
  assert.ok(skills.some((s) => s.name === 'notes' && s.tier === 'project'));
  await assert.rejects(
    client.call('skills.show', { name: 'ghost' }),
    (e: unknown) => e instanceof KnackError && e.code === 'not_found',
  );
  // Another folder (opening the one already open changes nothing, so says nothing).
  const other = join(root, 'other');
  mkdirSync(other);
  const changed = new Promise((resolve) => client.on('workspace.changed', resolve));
  await client.call('workspace.open', { path: other });
  assert.deepEqual(await changed, { workspace: { ...(await client.call('workspace.current', {}))! } });
});

test('a call the connection drops under fails as unavailable, with words the window says in its language', async (t) => {
  const { server } = await setup(t);
  let socket: WebSocket | undefined;
  const client = createClient(
    socketTransport({
      connect: () =>
        (socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, {
          headers: { Origin: origin(server), Cookie: cookie(server) },
        })) as unknown as SocketLike,
    }),
  );
  await client.call('skills.list', {});
  const inFlight = client.call('skills.list', {});
  socket!.terminate();
  await assert.rejects(
    inFlight,
    (e: unknown) =>
      e instanceof KnackError &&
      e.code === 'unavailable' &&
      e.message === 'the connection to Knack closed' &&
      e.words?.code === 'connection.closed',
  );
  client.close();
  await assert.rejects(
    client.call('skills.list', {}),
    (e: unknown) => e instanceof KnackError && e.code === 'unavailable' && e.words?.code === 'connection.clientClosed',
  );
});

test('frames that break the contract are answered with invalid_input or close the socket, never reach a handler', async (t) => {
  const { server } = await setup(t);
  const got = await upgrade(server, { Origin: origin(server), Cookie: cookie(server) });
  assert.ok('opened' in got);
  const sock = got.opened;
  const replies: unknown[] = [];
  sock.on('message', (d) => replies.push(JSON.parse(d.toString())));
  const answered = new Promise<void>((resolve) => sock.on('message', () => replies.length >= 3 && resolve()));
  sock.send(
    JSON.stringify({ type: 'call', id: 1, method: 'skills.setEnabled', input: { name: 'notes', enabled: 'yes' } }),
  );
  sock.send(JSON.stringify({ type: 'call', id: 2, method: '__proto__', input: {} }));
  sock.send(JSON.stringify({ type: 'nope', id: 3 }));
  await answered;
  const codes = Object.fromEntries(
    replies.map((r) => [(r as { id: number }).id, (r as { result: { error: { code: string } } }).result.error.code]),
  );
  assert.deepEqual(codes, { 1: 'invalid_input', 2: 'unknown_method', 3: 'invalid_input' });
  const closed = new Promise<number>((resolve) => sock.on('close', (code) => resolve(code)));
  sock.send('not json');
  assert.equal(await closed, 1007);
});
