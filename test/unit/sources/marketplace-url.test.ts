// A marketplace.json fetched over HTTP(S) is downloaded inside the wall (curl, reaching only the URL's host through
// the sandbox's proxy), never by main itself; a hostile server (an endless body, a body nested without end, a body that
// trickles, a redirect) gets one line naming the URL, against real servers on 127.0.0.1.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { parseSource } from '../../../main/core/skills/sources/spec.js';
import { openSource } from '../../../main/core/skills/sources/open.js';
import { fetchJsonText } from '../../../main/core/skills/sources/fetch.js';
import type { GitWall } from '../../../main/core/skills/sources/git.js';
import { english, type Said } from '../../../preload/words.js';

const root = tempDir('knack-market-url-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const tmp = join(root, 'tmp');
for (const d of [home, ws, tmp]) mkdirSync(d, { recursive: true });
process.env.TMPDIR = tmp;
const leftovers = () => readdirSync(tmp).filter((x) => x.startsWith('knack-fetch-'));

const market = JSON.stringify({
  name: 'served-market',
  plugins: [{ name: 'weather', description: 'Forecasts', source: { source: 'github', repo: 'example/weather' } }],
});

/** What the server was asked, and by whom: each request's path and the connections still open. */
const asked: string[] = [];
const sockets = new Set<Socket>();
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/market.json': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(market),
  // An endless body, never a Content-Length: only a reader that stops can stop it.
  '/endless.json': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, ' ');
    res.write('{"name": "x", "plugins": [], "pad": "');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  },
  '/declared-huge.json': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
    res.write('{');
  },
  '/deep.json': (_q, res) =>
    res.writeHead(200).end(`{"name": "m", "plugins": [${'['.repeat(200_000)}${']'.repeat(200_000)}]}`),
  // Headers at once, then a byte now and then, for ever.
  '/slow.json': (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 200);
    res.on('close', () => clearInterval(t));
  },
  '/moved.json': (_q, res) => res.writeHead(302, { location: '/market.json' }).end(),
};
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  asked.push(path);
  const route = routes[path];
  if (route) route(req, res);
  else res.writeHead(404).end('not found');
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
let base = '';
let wall: Wall;
/** The wall as sources see it, noting each program it wraps and the hosts it may reach. */
const wrapped: { program: string; hosts: string[] }[] = [];
const watched: GitWall = {
  wrapProgram(argv, opts) {
    wrapped.push({ program: argv[0]!, hosts: opts.hosts ?? [] });
    return wall.wrapProgram(argv, opts);
  },
};

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack') }, 'required');
});
after(async () => {
  await wall.close();
  for (const s of sockets) s.destroy();
  server.close();
});

/** Open `path` of the server as a source, through the wall; the one line it fails with (its words say the same). */
async function failure(path: string, limits?: { timeoutMs: number }): Promise<string> {
  const url = `${base}${path}`;
  try {
    const o = await openSource(parseSource(url, ws), { wall: watched, ...(limits ? { limits } : {}) });
    o.dispose();
  } catch (e) {
    assert.deepEqual(leftovers(), [], `${path} left a temporary folder`);
    const words = (e as { words?: Said }).words;
    assert.ok(words, `${path}: no words for the window`);
    assert.equal(english(words), (e as Error).message);
    return (e as Error).message;
  }
  assert.fail(`${path} opened`);
}

test('a marketplace.json URL is downloaded inside the wall, reaching only its host', async () => {
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
  wrapped.length = 0;
  const o = await openSource(parseSource(`${base}/market.json`, ws), { wall: watched });
  try {
    assert.equal(o.kind, 'marketplace');
    assert.deepEqual(
      o.marketplace?.plugins.map((p) => p.name),
      ['weather'],
    );
  } finally {
    o.dispose();
  }
  assert.deepEqual(wrapped, [{ program: 'curl', hosts: ['127.0.0.1'] }]);
  // The same download allowed only another host: the sandbox's proxy refuses it and the server hears nothing, so
  // the bytes came through the wall, never from main.
  const before = asked.length;
  const elsewhere: GitWall = {
    wrapProgram: (argv, opts) => wall.wrapProgram(argv, { ...opts, hosts: ['example.invalid'] }),
  };
  await assert.rejects(fetchJsonText(`${base}/market.json`, { wall: elsewhere }), (e: Error) => {
    assert.match(e.message, new RegExp(`^${base}/market\\.json: (network error|HTTP 403)`));
    return true;
  });
  assert.equal(asked.length, before, 'no request reached the server');
});

test('an endless body stops at the size limit with one line naming the URL', async () => {
  assert.equal(await failure('/endless.json'), `${base}/endless.json: larger than 5 MB (the limit)`);
  assert.equal(await failure('/declared-huge.json'), `${base}/declared-huge.json: larger than 5 MB (the limit)`);
});

test('a body nested without end is refused at its line, never a stack overflow', async () => {
  assert.equal(await failure('/deep.json'), `${base}/deep.json:1: nested more than 64 levels deep`);
});

test('a body that trickles times out with one line naming the URL', async () => {
  assert.equal(await failure('/slow.json', { timeoutMs: 3_000 }), `${base}/slow.json: timed out after 3 s`);
});

test('a redirect is not followed, a missing file says so, a closed port is a network error', async () => {
  const before = asked.length;
  assert.equal(await failure('/moved.json'), `${base}/moved.json: HTTP 302 (redirects are not followed)`);
  assert.deepEqual(asked.slice(before), ['/moved.json'], 'the redirect target was never asked for');
  assert.equal(await failure('/nothing.json'), `${base}/nothing.json: HTTP 404 (no such file)`);
  const closed = 'http://127.0.0.1:9/market.json';
  await assert.rejects(openSource(parseSource(closed, ws), { wall: watched }), (e: Error) => {
    assert.match(e.message, /^http:\/\/127\.0\.0\.1:9\/market\.json: network error \(.+\)$/);
    // The terminal keeps curl's line; the window says the host could not be reached.
    assert.deepEqual((e as { words?: Said }).words, { code: 'source.unreachable', params: { source: closed } });
    return true;
  });
});

test("a download is answered only once the wall's sweep after it has finished, and fails when the sweep fails", async () => {
  // The sweep moves aside what the program left in protected places; what it fetched is used only after that.
  let swept = false;
  const slowSweep: GitWall = {
    async wrapProgram(argv, opts) {
      const w = await wall.wrapProgram(argv, opts);
      return {
        ...w,
        release: async () => {
          await new Promise((r) => setTimeout(r, 200));
          await w.release();
          swept = true;
        },
      };
    },
  };
  const text = await fetchJsonText(`${base}/market.json`, { wall: slowSweep });
  assert.match(text, /weather/);
  assert.equal(swept, true, 'the download was answered before the sweep finished');
  // A sweep that fails: the run fails closed, saying why, and nothing is left unhandled.
  const failingSweep: GitWall = {
    async wrapProgram(argv, opts) {
      const w = await wall.wrapProgram(argv, opts);
      return {
        ...w,
        release: async () => {
          await w.release();
          throw new Error('disk gone');
        },
      };
    },
  };
  await assert.rejects(
    fetchJsonText(`${base}/market.json`, { wall: failingSweep }),
    /could not check what curl left behind: disk gone/,
  );
});
