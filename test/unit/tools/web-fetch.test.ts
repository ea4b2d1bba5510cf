import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../../helpers/tmp.js';
import { ToolRegistry } from '../../../main/core/tools/registry.js';
import { ToolExecutor } from '../../../main/core/tools/executor.js';
import { builtinTools } from '../../../main/core/tools/builtin/index.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config.js';

test('web_fetch is offered only when the ceiling allows network, is deferred, and the gate still asks per host', async () => {
  assert.ok(!builtinTools({ network: false }).some((t) => t.name === 'web_fetch'));
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<html><script>x()</script><h1>Title</h1><p>Body &amp; more</p></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const ws = tempDir();
    const settings = structuredClone(DEFAULT_SETTINGS);
    settings.policy.ceiling.network = true;
    const registry = new ToolRegistry();
    registry.registerAll(builtinTools({ network: true }));
    assert.equal(registry.get('web_fetch')?.deferred, true);
    const { gate } = buildGate({ settings, workspace: ws, skills: [] });
    const asked: string[] = [];
    const ex = new ToolExecutor({ registry, gate, approver: async (r) => (asked.push(r.access.host ?? ''), true) });
    const r = await ex.execute('web_fetch', { url: `http://127.0.0.1:${port}/` }, { workspace: ws, actor: { kind: 'agent', activeSkills: [] } });
    assert.deepEqual(asked, ['127.0.0.1']);
    assert.equal(r.ok && (r.content as { text: string }).text, 'Title\n Body & more');
    const off = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] }).gate;
    const denied = await new ToolExecutor({ registry, gate: off }).execute('web_fetch', { url: `http://127.0.0.1:${port}/` }, { workspace: ws, actor: { kind: 'user' } });
    assert.equal(!denied.ok && denied.error.code, 'tool.denied');
  } finally {
    server.close();
  }
});
