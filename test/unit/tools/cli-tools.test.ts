import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, run } from '../../helpers/cli.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');

function dirs() {
  const root = tempDir();
  const ws = join(root, 'ws');
  const data = join(root, 'data');
  writeTree(root, {
    'ws/readme.md': 'hello\n',
    'catalog.json': JSON.stringify([
      {
        name: 'weather.forecast',
        description: 'Get the weather forecast for a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      {
        name: 'translate_text',
        description: 'Translate text between languages.',
        input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ]),
  });
  return { root, common: cliArgs({ ws, home: join(root, 'home'), data }), data, ws };
}

test('knack tools search finds imported catalog tools and prints JSON', async () => {
  const { root, common } = dirs();
  const r = await run([
    'tools',
    'search',
    'rain forecast',
    '--catalog',
    join(root, 'catalog.json'),
    '--json',
    '--no-mcp',
    ...common,
  ]);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { tools: { name: string; description: string }[] };
  assert.equal(j.tools[0]?.name, 'weather_forecast');
  assert.equal(j.tools[0]?.description, 'Get the weather forecast for a city.');
});

test('knack tools call validates, asks on the terminal for bash, and runs read_file through the gate', async () => {
  const { common } = dirs();
  const bad = await run(['tools', 'call', 'read_file', '--args', '{"path": 3}', '--no-mcp', ...common]);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /tool\.invalid_args: .*path: must be string/);
  const ok = await run(['tools', 'call', 'read_file', '--args', '{"path": "readme.md"}', '--no-mcp', ...common]);
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /"content": "hello"/);
  // A recursive delete asks even inside the OS sandbox (which protects the machine, not the user's work).
  const declined = await run(
    ['tools', 'call', 'bash', '--args', '{"command": "echo hi; rm -rf nothing-here"}', '--no-mcp', ...common],
    false,
  );
  assert.equal(declined.code, 1);
  assert.match(declined.err, /tool\.declined/);
  const approved = await run(
    ['tools', 'call', 'bash', '--args', '{"command": "echo hi; rm -rf nothing-here"}', '--no-mcp', ...common],
    true,
  );
  assert.equal(approved.code, 0, approved.err);
  assert.match(approved.out, /"stdout": "hi\\n"/);
});

test('knack tools list shows MCP tools from the user mcp.json; workspace servers need --trust-mcp', async () => {
  const { common, data, ws } = dirs();
  writeTree(data, {
    'mcp.json': JSON.stringify({ mcpServers: { tracker: { command: process.execPath, args: [SERVER] } } }),
  });
  writeTree(ws, {
    '.workbuddy/mcp.json': JSON.stringify({
      mcpServers: { repo: { command: process.execPath, args: [SERVER, '--name', 'repo'] } },
    }),
  });
  const r = await run(['tools', 'list', '--deferred', ...common]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /mcp__tracker__create_issue\s+deferred/);
  assert.doesNotMatch(r.out, /mcp__repo__/);
  assert.match(
    r.err,
    /"repo" .* not started: workspace servers run once trusted \(knack mcp trust repo\) or with --trust-mcp/,
  );
  const trusted = await run(['tools', 'list', '--deferred', '--trust-mcp', '--json', ...common]);
  const j = JSON.parse(trusted.out) as { tools: { name: string }[] };
  assert.ok(j.tools.some((t) => t.name === 'mcp__repo__create_issue'));
});

test('knack tools mcp shows each server’s state and why a broken one failed, exit 1', async () => {
  const { common, data } = dirs();
  writeTree(data, {
    'mcp.json': JSON.stringify({
      mcpServers: {
        ok: { command: process.execPath, args: [SERVER] },
        dead: { command: process.execPath, args: [SERVER, '--mode', 'exit-at-start'] },
      },
    }),
  });
  const r = await run(['tools', 'mcp', ...common]);
  assert.equal(r.code, 1);
  assert.match(r.out, /^ok: connected, \d+ tools/m);
  assert.match(r.out, /^dead: failed/m);
  assert.match(r.out, /stderr: fixture: refusing to start/);
});
