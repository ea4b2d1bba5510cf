// A stdio MCP server starts inside the workspace's wall: a hostile server's tool cannot write outside the workspace,
// its tools still work inside it, and a workspace that requires the sandbox refuses to start it without one. A server's
// `network` hosts are reached through the sandbox's proxy while the ceiling's network is on; any other host is refused.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttp, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wallFolders } from '../../helpers/wall-run.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { McpConnection, type McpWall } from '../../../main/core/mcp/connection.js';
import { parseMcpConfig, type McpServerConfig } from '../../../main/core/mcp/config.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');
const { home, ws, canary } = wallFolders('knack-mcp-wall-');
let wall: Wall;
/** Plays every host behind the sandbox's proxy (as its upstream proxy: it is sent absolute URLs). */
let apiHits: string[] = [];
const api: Server = createHttp((req, res) => {
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  apiHits.push(url.host);
  res.end(`api saw ${url.host}${url.pathname}`);
});

before(async () => {
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const upstreamProxy = `http://127.0.0.1:${(api.address() as { port: number }).port}`;
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack'), upstreamProxy }, 'required');
});
after(async () => {
  await wall.close();
  api.close();
});

const config: McpServerConfig = {
  kind: 'stdio',
  name: 'hostile',
  command: process.execPath,
  args: [SERVER, '--name', 'hostile'],
  env: {},
  connectTimeoutMs: 10_000,
  callTimeoutMs: 5000,
  source: 'test',
};
const events = { onTools: () => undefined, onDown: () => undefined };
const text = (r: { content?: unknown }) => (r.content as { text: string }[]).map((c) => c.text).join('');

test('a stdio MCP server runs inside the wall: it cannot write outside the workspace, and can inside', async () => {
  assert.equal(wall.available, true, `the sandbox must be available here: ${wall.status().reason}`);
  const conn = new McpConnection(config, events, { workspace: ws, wall: Promise.resolve(wall) });
  try {
    assert.equal(await conn.connect(), true, JSON.stringify(conn.status()));
    const out = await conn.callTool('write_file', { path: canary, text: 'owned\n' });
    assert.equal(out.isError, true, text(out));
    assert.equal(readFileSync(canary, 'utf8'), 'untouched\n');
    const inside = join(ws, 'note.txt');
    const ok = await conn.callTool('write_file', { path: inside, text: 'hello\n' });
    assert.notEqual(ok.isError, true, text(ok));
    assert.equal(readFileSync(inside, 'utf8'), 'hello\n');
    assert.equal(conn.status().lastError, undefined);
  } finally {
    await conn.close();
  }
});

/** A wall that could not start (what a machine without bubblewrap gets). */
const missing = (mode: 'auto' | 'required'): McpWall => ({
  mode,
  available: false,
  status: () => ({ reason: 'bwrap not found' }),
  wrapProgram: () => Promise.reject(new Error('unavailable')),
});

test('sandbox required and unavailable: the server is not started, and its state says why', async () => {
  const conn = new McpConnection(config, events, {
    workspace: ws,
    wall: Promise.resolve(missing('required')),
    backoff: { initialMs: 60_000, maxMs: 60_000, maxAttempts: 1 },
  });
  try {
    assert.equal(await conn.connect(), false);
    const s = conn.status();
    assert.equal(s.state, 'failed');
    assert.match(s.lastError ?? '', /requires the sandbox.*bwrap not found/);
  } finally {
    await conn.close();
  }
});

test('sandbox auto and unavailable: the server runs as before, and its state says it is outside the sandbox', async () => {
  const conn = new McpConnection(config, events, { workspace: ws, wall: Promise.resolve(missing('auto')) });
  try {
    assert.equal(await conn.connect(), true);
    assert.match(conn.status().lastError ?? '', /outside the sandbox.*bwrap not found/);
    const r = await conn.callTool('add_numbers', { a: 2, b: 3 });
    assert.equal(text(r), '5');
    assert.equal(existsSync(canary), true);
  } finally {
    await conn.close();
  }
});

test('a server given network hosts reaches them through the proxy while the ceiling allows; others are refused', async () => {
  const fetching: McpServerConfig = {
    ...config,
    name: 'fetcher',
    args: [SERVER, '--name', 'fetcher', '--fetch'],
    network: ['api.example.test'],
  };
  const connect = async (network: boolean) => {
    const conn = new McpConnection(fetching, events, {
      workspace: ws,
      wall: Promise.resolve(wall),
      network: () => network,
    });
    assert.equal(await conn.connect(), true, JSON.stringify(conn.status()));
    return conn;
  };
  apiHits = [];
  const on = await connect(true);
  try {
    const ok = await on.callTool('fetch_url', { url: 'http://api.example.test/v1' });
    assert.equal(text(ok), '200 api saw api.example.test/v1');
    const other = await on.callTool('fetch_url', { url: 'http://evil.example.test/x' });
    assert.equal(other.isError, true, text(other));
    assert.match(text(other), /^403 Connection blocked by network allowlist/);
    // What the model and the user read names the refused host and why.
    assert.match(
      text(other),
      /sandbox: refused evil\.example\.test:80: not in the "network" list of MCP server "fetcher" \(mcp\.json\), or the ceiling's network is off/,
    );
    // An allowed call afterwards carries no note from the earlier refusal.
    assert.doesNotMatch(text(await on.callTool('fetch_url', { url: 'http://api.example.test/v2' })), /sandbox:/);
  } finally {
    await on.close();
  }
  // The ceiling's network off: the same server reaches no host at all.
  const off = await connect(false);
  try {
    const refused = await off.callTool('fetch_url', { url: 'http://api.example.test/v1' });
    assert.equal(refused.isError, true, text(refused));
    assert.match(text(refused), /sandbox: refused api\.example\.test:80: not in the "network" list/);
  } finally {
    await off.close();
  }
  assert.deepEqual(apiHits, ['api.example.test', 'api.example.test']);
});

test('a network entry that is not a host name is an error naming the file and the field', () => {
  const r = parseMcpConfig(
    {
      mcpServers: {
        a: { command: 'x', network: ['api.example.com', 'https://evil.test/'] },
        b: { command: 'y', network: ['*.Example.COM'] },
      },
    },
    '/ws/.workbuddy/mcp.json',
    '/ws',
  );
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.file} ${d.field}: ${d.message}`),
    [
      '/ws/.workbuddy/mcp.json mcpServers.a.network: network "https://evil.test/" is not a host name: must be a list of host names (api.example.com, *.example.com)',
    ],
  );
  assert.deepEqual(
    r.servers.map((s) => (s.kind === 'stdio' ? s.network : undefined)),
    [['*.example.com']],
  );
});
