// Attacks on web_fetch (issue 8, finding 11): other spellings of a loopback address past a host rule, internal
// addresses reached without an exact allow, and redirects that change the port. Loopback servers only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { guardedLookup } from '../../../main/core/tools/builtin/web-fetch.js';
import { createGate } from '../../../main/core/policy/gate.js';
import { ceilingFrom } from '../../../main/core/policy/ceiling.js';
import { internalKind, normalizeHost } from '../../../main/core/policy/hosts.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import type { Rule } from '../../../main/core/store/policy-repo.js';
import type { ToolContext } from '../../../main/core/tools/types.js';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

function executor(rules: Rule[]) {
  const ws = tempDir();
  const settings = structuredClone(DEFAULT_SETTINGS);
  settings.policy.ceiling.network = true;
  const registry = new ToolRegistry();
  registry.registerAll(builtinTools({ network: true }));
  const gate = createGate({
    ceiling: ceilingFrom(settings, ws),
    rules: () => rules,
    skill: () => undefined,
    protectedRoots: [],
  });
  const asked: string[] = [];
  const ex = new ToolExecutor({ registry, gate, approver: async (r) => (asked.push(r.reason), 'deny') });
  const ctx: ToolContext = { workspace: ws, actor: { kind: 'agent', activeSkills: [] } };
  return { ex, ctx, asked, gate };
}

test('finding 11: host spellings are normalised and internal ranges recognised', () => {
  for (const [h, want] of [
    ['[::ffff:127.0.0.1]', '127.0.0.1'],
    ['[::1]', '::1'],
    ['LOCALHOST.', 'localhost'],
    ['127.0.0.2', '127.0.0.2'],
    ['0', '0.0.0.0'],
    ['Example.COM', 'example.com'],
  ]) {
    assert.equal(normalizeHost(h!), want, h);
  }
  for (const h of [
    '127.0.0.1',
    '127.0.0.2',
    '[::1]',
    '::ffff:127.0.0.1',
    '0',
    '0.0.0.0',
    'localhost',
    'a.localhost',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '169.254.169.254',
    'fd00::1',
    'fe80::1',
    '100.100.100.200',
  ]) {
    assert.ok(internalKind(h), h);
  }
  for (const h of ['8.8.8.8', 'example.com', '2606:4700::1111']) assert.equal(internalKind(h), undefined, h);
});

test('finding 11: under deny --host 127.0.0.1, no other spelling of a loopback address reaches the server', async () => {
  let hits = 0;
  const { server, port } = await listen((_q, res) => {
    hits++;
    res.end('secret');
  });
  try {
    const rules: Rule[] = [
      { id: 'a', effect: 'allow', tool: 'web_fetch', createdAt: 0 },
      { id: 'd', effect: 'deny', tool: 'web_fetch', host: '127.0.0.1', createdAt: 0 },
    ];
    const { ex, ctx } = executor(rules);
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f.1', '127.1']) {
      const r = await ex.execute('web_fetch', { url: `http://${host}:${port}/` }, ctx);
      assert.equal(r.ok, false, host);
    }
    // Other internal hosts are not covered by the blanket allow: they ask (and the approver here says no).
    const { ex: ex2, ctx: ctx2, asked } = executor([{ id: 'a', effect: 'allow', tool: 'web_fetch', createdAt: 0 }]);
    for (const host of ['127.0.0.2', 'localhost', '[::1]', '0']) {
      const r = await ex2.execute('web_fetch', { url: `http://${host}:${port}/` }, ctx2);
      assert.equal(!r.ok && r.error.code, 'tool.declined', host);
    }
    assert.ok(
      asked.every((a) => /loopback|unspecified/.test(a)),
      asked.join('\n'),
    );
    assert.equal(hits, 0);
  } finally {
    server.close();
  }
});

test('finding 11: an exact allow for the internal host reaches it; a redirect to another port is not followed', async () => {
  const other = await listen((_q, res) => res.end('other port'));
  const { server, port } = await listen((req, res) => {
    if (req.url === '/hop') {
      res.writeHead(302, { location: `http://127.0.0.1:${other.port}/` });
      res.end();
    } else res.end('hello');
  });
  try {
    const { ex, ctx } = executor([{ id: 'h', effect: 'allow', tool: 'web_fetch', host: '127.0.0.1', createdAt: 0 }]);
    const ok = await ex.execute('web_fetch', { url: `http://127.0.0.1:${port}/` }, ctx);
    assert.equal(ok.ok && (ok.content as { text: string }).text, 'hello');
    const hop = await ex.execute('web_fetch', { url: `http://127.0.0.1:${port}/hop` }, ctx);
    assert.ok(hop.ok);
    assert.doesNotMatch((hop.content as { text: string }).text, /other port/);
    assert.match((hop.content as { text: string }).text, /not followed/);
  } finally {
    server.close();
    other.server.close();
  }
});

test('finding 11: a name that resolves to an internal address is refused at connect time (DNS rebinding)', async () => {
  // The resolver answers evil.example with loopback (as a rebinding DNS server would); the guard refuses it.
  const resolver = ((
    _h: string,
    _o: unknown,
    cb: (e: Error | null, a: { address: string; family: number }[]) => void,
  ) =>
    cb(null, [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ])) as unknown as Parameters<typeof guardedLookup>[1];
  const got = await new Promise<{ err: Error | null }>((done) =>
    guardedLookup(false, resolver)('evil.example', { all: true }, (err) => done({ err })),
  );
  assert.match(String(got.err?.message), /loopback/);
  const pub = ((_h: string, _o: unknown, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
    cb(null, [{ address: '93.184.216.34', family: 4 }])) as unknown as Parameters<typeof guardedLookup>[1];
  const fine = await new Promise<{ err: Error | null; addr: unknown }>((done) =>
    guardedLookup(false, pub)('good.example', { all: true }, (err, addr) => done({ err, addr })),
  );
  assert.equal(fine.err, null);
});
