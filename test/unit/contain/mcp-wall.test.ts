// A stdio MCP server starts inside the workspace's wall: a hostile server's tool cannot write outside the workspace,
// its tools still work inside it, and a workspace that requires the sandbox refuses to start it without one.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { Wall } from '../../../main/core/contain/wall.js';
import { McpConnection, type McpWall } from '../../../main/core/mcp/connection.js';
import type { McpServerConfig } from '../../../main/core/mcp/config.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');
const root = tempDir('knack-mcp-wall-');
const home = join(root, 'home');
const ws = join(root, 'ws');
const canary = join(root, 'canary.txt');
mkdirSync(home, { recursive: true });
mkdirSync(ws, { recursive: true });
writeFileSync(canary, 'untouched\n');
let wall: Wall;

before(async () => {
  wall = await Wall.open({ workspace: ws, home, dataDir: join(home, '.local/share/knack') }, 'required');
});
after(() => wall.close());

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
