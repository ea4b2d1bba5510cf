import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../../helpers/tmp.js';
import { openToolbox } from '../../../main/core/toolbox.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');

test('an MCP server over streamable HTTP on loopback registers its tools and answers calls', async () => {
  const child = spawn(process.execPath, [SERVER, '--http', '0', '--name', 'web'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => {
        const m = /listening (\d+)/.exec(b.toString());
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', (c) => reject(new Error(`server exited ${c}`)));
    });
    const box = await openToolbox({
      workspace: tempDir(),
      settings: structuredClone(DEFAULT_SETTINGS),
      gate: { authorize: () => ({ verdict: 'allow', reason: 'test' }) },
      mcpServers: [
        {
          kind: 'http',
          name: 'web',
          url: `http://127.0.0.1:${port}/mcp`,
          headers: {},
          connectTimeoutMs: 5000,
          callTimeoutMs: 5000,
          source: 'test',
        },
      ],
    });
    try {
      assert.equal(box.mcp.status()[0]?.state, 'connected');
      assert.equal(box.index.search('add two numbers', 1).tools[0]?.name, 'mcp__web__add_numbers');
      const r = await box.session.deferExecute(
        'mcp__web__add_numbers',
        { a: 20, b: 22 },
        { workspace: '/', actor: { kind: 'user' } },
      );
      assert.deepEqual(r.ok && r.content, { text: '42', structured: { sum: 42 } });
    } finally {
      await box.close();
    }
  } finally {
    child.kill('SIGKILL');
  }
});

test('an HTTP server that is not listening is reported without blocking', async () => {
  const box = await openToolbox({
    workspace: tempDir(),
    settings: structuredClone(DEFAULT_SETTINGS),
    gate: { authorize: () => ({ verdict: 'allow', reason: 'test' }) },
    mcpServers: [
      {
        kind: 'http',
        name: 'gone',
        url: 'http://127.0.0.1:9/mcp',
        headers: {},
        connectTimeoutMs: 2000,
        callTimeoutMs: 2000,
        source: 'test',
      },
    ],
    backoff: { initialMs: 10_000, maxMs: 10_000, maxAttempts: 2 },
  });
  try {
    const s = box.mcp.status()[0]!;
    assert.equal(s.state, 'retrying');
    assert.ok(s.lastError);
    assert.equal(box.registry.list().filter((t) => t.source === 'mcp:gone').length, 0);
  } finally {
    await box.close();
  }
});
