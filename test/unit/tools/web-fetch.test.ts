import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';

/** A workspace whose ceiling allows network, with the built-in tools and the real gate. */
function networkOn() {
  const ws = tempDir();
  const settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = true;
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: true }));
  const { gate } = buildGate({ settings, workspace: ws, skills: [] });
  return { ws, registry, gate };
}

test('web_fetch is offered only when the ceiling allows network, is deferred, and the gate still asks per host', async () => {
  assert.ok(!builtinTools({ network: false }).some((t) => t.name === 'web_fetch'));
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<html><script>x()</script><h1>Title</h1><p>Body &amp; more</p></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const { ws, registry, gate } = networkOn();
    assert.equal(registry.get('web_fetch')?.deferred, true);
    const asked: string[] = [];
    const ex = new ToolExecutor({ registry, gate, approver: async (r) => (asked.push(r.access.host ?? ''), 'once') });
    const r = await ex.execute(
      'web_fetch',
      { url: `http://127.0.0.1:${port}/` },
      { workspace: ws, actor: { kind: 'agent', activeSkills: [] } },
    );
    assert.deepEqual(asked, ['127.0.0.1']);
    assert.equal(r.ok && (r.content as { text: string }).text, 'Title\n Body & more');
    const off = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] }).gate;
    const denied = await new ToolExecutor({ registry, gate: off }).execute(
      'web_fetch',
      { url: `http://127.0.0.1:${port}/` },
      { workspace: ws, actor: { kind: 'user' } },
    );
    assert.equal(!denied.ok && denied.error.code, 'tool.denied');
  } finally {
    server.close();
  }
});

test('web_fetch follows redirects on the same host only; a redirect to another host is returned, not followed', async () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.headers.host?.split(':')[0]} ${req.url}`);
    const port = (server.address() as AddressInfo).port;
    if (req.url === '/same') {
      res.writeHead(302, { location: '/final' });
      res.end();
      return;
    }
    if (req.url === '/away') {
      res.writeHead(301, { location: `http://localhost:${port}/collect?d=secret` });
      res.end();
      return;
    }
    res.setHeader('content-type', 'text/plain');
    res.end(`at ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const { ws, registry, gate } = networkOn();
    const ex = new ToolExecutor({
      registry,
      gate,
      approver: async (r) => (r.access.host === '127.0.0.1' ? 'once' : 'deny'),
    });
    const ctx = { workspace: ws, actor: { kind: 'agent' as const, activeSkills: [] } };
    const same = await ex.execute('web_fetch', { url: `http://127.0.0.1:${port}/same` }, ctx);
    assert.equal(same.ok && (same.content as { text: string }).text, 'at /final');
    const away = await ex.execute('web_fetch', { url: `http://127.0.0.1:${port}/away` }, ctx);
    assert.ok(away.ok, JSON.stringify(away));
    const c = away.content as { status: number; redirect?: string; text: string };
    assert.equal(c.status, 301);
    assert.equal(c.redirect, `http://localhost:${port}/collect?d=secret`);
    assert.match(c.text, /another host/);
    assert.ok(!hits.some((h) => h.includes('/collect')), hits.join(', '));
  } finally {
    server.close();
  }
});
