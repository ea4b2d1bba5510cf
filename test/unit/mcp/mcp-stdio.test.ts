import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { openToolbox } from '../../../main/core/toolbox.js';
import { loadMcpConfig, parseMcpConfig, type McpServerConfig } from '../../../main/core/mcp/config.js';
import { buildGate } from '../../../main/core/policy/setup.js';
import { DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import type { Diagnostic } from '../../../main/core/base/diagnostics.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');
const FAST = { initialMs: 150, maxMs: 300, maxAttempts: 3 };

function stdio(name: string, mode = 'normal', extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    kind: 'stdio',
    name,
    command: process.execPath,
    args: [SERVER, '--mode', mode, '--name', name],
    env: {},
    connectTimeoutMs: 20_000, // a loaded machine starts node slowly; a server that answers is not kept waiting
    callTimeoutMs: 1500,
    source: 'test',
    ...extra,
  } as McpServerConfig;
}

async function open(servers: McpServerConfig[], approve = true) {
  const ws = tempDir();
  const diags: Diagnostic[] = [];
  const { gate } = buildGate({ settings: structuredClone(DEFAULT_SETTINGS), workspace: ws, skills: [] });
  const box = await openToolbox({
    workspace: ws,
    settings: structuredClone(DEFAULT_SETTINGS),
    gate,
    approver: async () => (approve ? 'once' : 'deny'),
    mcpServers: servers,
    backoff: FAST,
    onDiagnostic: (d) => diags.push(d),
  });
  return { box, diags, ctx: { workspace: ws, actor: { kind: 'agent' as const, activeSkills: [] } } };
}

// A bound for events that do come, not a timing claim: generous, because each retry starts a server in the sandbox,
// which takes seconds on a loaded machine (a CI run at load 18 took more than 8 s for three attempts).
const until = async (cond: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return cond();
};

test('a real MCP server over stdio: tools register deferred, ToolSearch finds them, DeferExecuteTool validates, gates and runs', async () => {
  const { box, ctx } = await open([stdio('tracker')]);
  try {
    const t = box.registry.get('mcp__tracker__create_issue');
    assert.equal(t?.deferred, true);
    assert.equal(box.index.search('file a bug in the tracker', 3).tools[0]?.name, 'mcp__tracker__create_issue');
    const bad = await box.executor.execute(
      'DeferExecuteTool',
      { name: 'mcp__tracker__add_numbers', arguments: { a: 1 } },
      ctx,
    );
    assert.equal(!bad.ok && bad.error.code, 'tool.invalid_args');
    assert.match(!bad.ok ? bad.error.message : '', /b: is required/);
    const sum = await box.executor.execute(
      'DeferExecuteTool',
      { name: 'mcp__tracker__add_numbers', arguments: { a: 2, b: 40 } },
      ctx,
    );
    assert.deepEqual(sum.ok && sum.content, { text: '42', structured: { sum: 42 } });
    const issue = await box.executor.execute(
      'DeferExecuteTool',
      { name: 'mcp__tracker__create_issue', arguments: { title: 'Crash on save' } },
      ctx,
    );
    assert.deepEqual(issue.ok && issue.content, { text: 'created issue "Crash on save"' });
    const failed = await box.session.deferExecute('mcp__tracker__fail_politely', {}, ctx);
    assert.equal(!failed.ok && failed.error.message, 'the tracker is read-only today');
    const res = await box.session.deferExecute('ReadMcpResource', { server: 'tracker', uri: 'note://readme' }, ctx);
    assert.equal(res.ok && (res.content as { contents: { text: string }[] }).contents[0]?.text, 'hello from tracker');
  } finally {
    await box.close();
  }
});

test('a connector tool that is not read-only needs approval: declined means it never reaches the server', async () => {
  const { box, ctx } = await open([stdio('tracker')], false);
  try {
    const r = await box.session.deferExecute('mcp__tracker__create_issue', { title: 'x' }, ctx);
    assert.equal(!r.ok && r.error.code, 'tool.declined');
  } finally {
    await box.close();
  }
});

test('a hanging tool call times out instead of hanging the app', async () => {
  const { box, ctx } = await open([stdio('tracker')]);
  try {
    const r = await box.session.deferExecute('mcp__tracker__sleep_forever', {}, ctx);
    assert.equal(!r.ok && r.error.code, 'tool.timeout');
  } finally {
    await box.close();
  }
});

test('a server that crashes loses its tools from search, is reported, and comes back after back-off', async () => {
  const { box, ctx, diags } = await open([stdio('tracker')]);
  try {
    await box.session.deferExecute('mcp__tracker__crash_server', {}, ctx);
    assert.ok(await until(() => !box.registry.has('mcp__tracker__create_issue')), 'tools removed after the crash');
    assert.equal(box.index.search('create issue', 3).tools.length, 0);
    assert.ok(diags.some((d) => d.code === 'mcp.down' && /closed the connection/.test(d.message)));
    assert.ok(await until(() => box.registry.has('mcp__tracker__create_issue')), 'tools back after reconnect');
    assert.equal(box.index.search('create issue', 3).tools[0]?.name, 'mcp__tracker__create_issue');
  } finally {
    await box.close();
  }
});

test('servers that exit at start or never answer the handshake are reported and retried, and never block the others', async () => {
  const { box, diags } = await open([
    stdio('good'),
    stdio('dead', 'exit-at-start'),
    stdio('mute', 'hang-at-start', { connectTimeoutMs: 400 }),
  ]);
  try {
    const st = Object.fromEntries(box.mcp.status().map((s) => [s.name, s]));
    assert.equal(st.good?.state, 'connected');
    assert.notEqual(st.dead?.state, 'connected');
    assert.match(st.dead?.lastError ?? '', /refusing to start|closed/);
    assert.notEqual(st.mute?.state, 'connected');
    assert.match(st.mute?.lastError ?? '', /timed out after 400 ms/);
    assert.ok(diags.some((d) => d.field === 'mcpServers.mute'));
    assert.ok(
      await until(() => box.mcp.status().find((s) => s.name === 'dead')!.state === 'failed'),
      'gives up after maxAttempts',
    );
    assert.ok(box.mcp.status().find((s) => s.name === 'dead')!.failures >= FAST.maxAttempts);
    assert.ok(box.registry.has('mcp__good__add_numbers'));
  } finally {
    await box.close();
  }
});

test('mcp.json: user and workspace files merge (workspace wins), bad entries are diagnostics naming the field', () => {
  const data = tempDir();
  const ws = tempDir();
  writeTree(data, {
    'mcp.json': JSON.stringify({ mcpServers: { a: { command: 'node', args: ['a.js'] }, b: { command: 'node' } } }),
  });
  writeTree(ws, {
    '.workbuddy/mcp.json': JSON.stringify({
      mcpServers: {
        a: { url: 'http://127.0.0.1:9000/mcp' },
        c: { url: 'https://example.com/mcp' },
        d: { args: 3 },
        'bad name': { command: 'x' },
      },
    }),
  });
  const { servers, diagnostics } = loadMcpConfig(data, ws);
  assert.deepEqual(servers.map((s) => `${s.name}:${s.kind}`).sort(), ['a:http', 'b:stdio']);
  const fields = diagnostics.map((d) => d.field);
  assert.ok(fields.includes('mcpServers.c.url'));
  assert.ok(fields.includes('mcpServers.d.command'));
  assert.ok(fields.includes('mcpServers.bad name'));
  const broken = parseMcpConfig({ servers: {} }, 'x.json', '/');
  assert.equal(broken.diagnostics[0]?.field, 'mcpServers');
});

test('an untrusted workspace mcp.json never starts, and never displaces your own server of the same name', () => {
  const data = tempDir();
  const ws = tempDir();
  writeTree(data, { 'mcp.json': JSON.stringify({ mcpServers: { db: { command: 'node', args: ['mine.js'] } } }) });
  writeTree(ws, {
    '.workbuddy/mcp.json': JSON.stringify({
      mcpServers: { db: { command: 'node', args: ['theirs.js'] }, extra: { command: 'node' } },
    }),
  });
  const held = loadMcpConfig(data, ws, { trustWorkspace: false });
  assert.deepEqual(
    held.servers.map((s) => s.kind === 'stdio' && s.args.join(' ')),
    ['mine.js'],
  );
  assert.deepEqual(held.held.map((s) => s.name).sort(), ['db', 'extra']);
  const trusted = loadMcpConfig(data, ws, { trustWorkspace: true });
  assert.deepEqual(trusted.servers.map((s) => s.kind === 'stdio' && `${s.name}:${s.args.join(' ')}`).sort(), [
    'db:theirs.js',
    'extra:',
  ]);
});

test('a server that adds a tool while connected (tools/list_changed) gets it registered and searchable', async () => {
  const { box, ctx } = await open([stdio('tracker')]);
  try {
    assert.equal(box.registry.has('mcp__tracker__extra_report'), false);
    const r = await box.session.deferExecute('mcp__tracker__enable_extra', {}, ctx);
    assert.equal(r.ok, true);
    assert.ok(await until(() => box.registry.has('mcp__tracker__extra_report')));
    assert.equal(box.index.search('weekly status report', 1).tools[0]?.name, 'mcp__tracker__extra_report');
  } finally {
    await box.close();
  }
});

test('applying an edited configuration stops removed servers, restarts changed ones and keeps the rest', async () => {
  const { box } = await open([stdio('keep'), stdio('drop')]);
  try {
    const keepConn = box.mcp.connection('keep');
    await box.mcp.sync([stdio('keep'), stdio('added')]);
    assert.equal(box.mcp.connection('keep'), keepConn);
    assert.deepEqual(
      box.mcp
        .status()
        .map((s) => `${s.name}:${s.state}`)
        .sort(),
      ['added:connected', 'keep:connected'],
    );
    assert.equal(box.registry.has('mcp__drop__add_numbers'), false);
    assert.equal(box.registry.has('mcp__added__add_numbers'), true);
    await box.mcp.sync([stdio('keep', 'normal', { callTimeoutMs: 999 })]);
    assert.notEqual(box.mcp.connection('keep'), keepConn);
    assert.equal(box.mcp.connection('keep')?.config.callTimeoutMs, 999);
    assert.ok(box.registry.has('mcp__keep__add_numbers'));
  } finally {
    await box.close();
  }
});

test('a toolbox opened without MCP servers gets the resource tools with the first one added, and loses them with the last', async () => {
  const { box, ctx } = await open([]);
  try {
    const resourceTools = () => ['ListMcpResources', 'ReadMcpResource'].filter((n) => box.registry.has(n));
    assert.deepEqual(resourceTools(), [], 'no server: no resource tools');
    // As the window's form or a hand edit of mcp.json applies it.
    await box.mcp.sync([stdio('tracker')]);
    assert.deepEqual(resourceTools(), ['ListMcpResources', 'ReadMcpResource']);
    const listed = await box.session.deferExecute('ListMcpResources', {}, ctx);
    assert.ok(listed.ok, JSON.stringify(listed));
    assert.match(JSON.stringify(listed.content), /note:\/\/readme/);
    const read = await box.session.deferExecute('ReadMcpResource', { server: 'tracker', uri: 'note://readme' }, ctx);
    assert.equal(read.ok && (read.content as { contents: { text: string }[] }).contents[0]?.text, 'hello from tracker');
    await box.mcp.sync([]);
    assert.deepEqual(resourceTools(), [], 'the last server gone: the resource tools go');
  } finally {
    await box.close();
  }
});

test('a server that never answers the handshake and ignores SIGTERM is killed when the connection closes', async () => {
  const { McpConnection } = await import('../../../main/core/mcp/connection.js');
  const { readFileSync, existsSync } = await import('node:fs');
  const pidFile = join(tempDir(), 'pid');
  const script = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.on('SIGTERM', () => {}); process.stdin.on('end', () => {}); process.stdin.resume(); setInterval(() => {}, 1000);`;
  const cfg = {
    kind: 'stdio',
    name: 'stubborn',
    command: process.execPath,
    args: ['-e', script],
    env: {},
    connectTimeoutMs: 400,
    callTimeoutMs: 1000,
    source: 'test',
  } as McpServerConfig;
  const conn = new McpConnection(
    cfg,
    { onTools: () => undefined, onDown: () => undefined },
    { workspace: tempDir(), backoff: { initialMs: 60_000, maxMs: 60_000, maxAttempts: 1 } },
  );
  assert.equal(await conn.connect(), false);
  assert.ok(await until(() => existsSync(pidFile)));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  await conn.close();
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  assert.ok(await until(() => !alive(), 1000), `server process ${pid} is still running after close()`);
});

test('a server that exits at once shows each try again with its last error, then failed after the last', async () => {
  const { McpConnection } = await import('../../../main/core/mcp/connection.js');
  const { mcpView } = await import('../../../main/core/service/tools.js');
  const { english } = await import('../../../main/core/base/index.js');
  const cfg = {
    kind: 'stdio',
    name: 'gone',
    command: process.execPath,
    args: ['-e', 'process.stderr.write("no database\\n"); process.exit(3)'],
    env: {},
    connectTimeoutMs: 20_000,
    callTimeoutMs: 1000,
    source: 'test',
  } as McpServerConfig;
  // What the window is sent at each change: its state, the try it is on and the error beside it.
  const shown: string[] = [];
  const conn = new McpConnection(
    cfg,
    {
      onTools: () => undefined,
      onDown: () => undefined,
      onStatus: (s) => {
        const v = mcpView(s);
        const line = [v.state, v.tryWords && english(v.tryWords), v.error && 'with its error'].filter(Boolean);
        if (shown.at(-1) !== line.join(' · ')) shown.push(line.join(' · '));
      },
    },
    { workspace: tempDir(), backoff: { initialMs: 20, maxMs: 20, maxAttempts: 3 } },
  );
  try {
    assert.equal(await conn.connect(), false);
    assert.ok(await until(() => conn.status().state === 'failed'), 'gives up after the third try');
    assert.deepEqual(shown, [
      'connecting',
      'connecting · try 2 of 3 · with its error',
      'connecting · try 3 of 3 · with its error',
      'failed · with its error',
    ]);
    assert.match(conn.status().lastError ?? '', /no database/);
  } finally {
    await conn.close();
  }
});
