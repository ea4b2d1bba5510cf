// `knack mcp trust NAME` trusts a server of the workspace's mcp.json as it is now, in the record the window reads
// (the server then starts there and in `knack tools`), changed holding the MCP edit lock the window holds; `knack mcp
// untrust NAME` takes it back. It asks first (no terminal: refused, unless --yes), refuses a name the file does not
// hold, and waits for, then refuses, a lock another live Knack holds, writing nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tempDir, writeTree } from '../../helpers/tmp.js';
import { cliArgs, cliEnv, KNACK_BIN, run } from '../../helpers/cli.js';
import { mcpServersOf } from '../../../main/core/service/mcp.js';
import { MCP_EDIT_LOCK } from '../../../main/core/mcp/index.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');

function setup() {
  const root = tempDir();
  const ws = join(root, 'ws');
  const data = join(root, 'data');
  writeTree(ws, {
    '.workbuddy/mcp.json': JSON.stringify({
      mcpServers: {
        repo: { command: process.execPath, args: [SERVER, '--name', 'repo'] },
        off: { command: process.execPath, args: [SERVER], disabled: true },
      },
    }),
  });
  return { ws, data, common: cliArgs({ ws, home: join(root, 'home'), data }) };
}

/** The workspace's servers as the window starts them: trusted ones in `servers`, the others held. */
const startsInWindow = (data: string, ws: string) => mcpServersOf(data, ws).servers.map((s) => s.name);

test('knack mcp trust, run as a real process, trusts a workspace server for the window and knack tools', async () => {
  const { ws, data, common } = setup();
  assert.deepEqual(startsInWindow(data, ws), []);
  const knack = (...args: string[]) =>
    spawnSync(process.execPath, [KNACK_BIN, ...args, ...common], { env: cliEnv(), encoding: 'utf8' });

  // No terminal to ask and no --yes: refused, nothing written.
  const asked = knack('mcp', 'trust', 'repo');
  assert.equal(asked.status, 1, asked.stderr);
  assert.match(asked.stderr, /not trusted: answer yes on a terminal, or pass --yes/);
  assert.equal(existsSync(join(data, 'mcp-trust.json')), false);

  const r = knack('mcp', 'trust', 'repo', '--yes', '--json');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    name: 'repo',
    file: join(ws, '.workbuddy', 'mcp.json'),
    trusted: true,
    runs: `${process.execPath} ${SERVER} --name repo`,
  });
  assert.deepEqual(startsInWindow(data, ws), ['repo']);
  assert.equal(existsSync(join(data, MCP_EDIT_LOCK)), false, 'the lock is released');
  // knack tools starts it without --trust-mcp now.
  const listed = await run(['tools', 'list', '--deferred', '--json', ...common]);
  assert.equal(listed.code, 0, listed.err);
  assert.ok(
    (JSON.parse(listed.out) as { tools: { name: string }[] }).tools.some((t) => t.name.startsWith('mcp__repo__')),
  );

  // Trusted as it was: a changed entry is not trusted any more.
  const file = join(ws, '.workbuddy', 'mcp.json');
  const cfg = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
  cfg.mcpServers.repo!.args.push('--extra');
  writeFileSync(file, JSON.stringify(cfg));
  assert.deepEqual(startsInWindow(data, ws), []);
  const note = await run(['tools', 'list', ...common]);
  assert.match(note.err, /"repo" .* not started: workspace servers run once trusted \(knack mcp trust repo\)/);

  // Trusted again, then taken back.
  assert.equal((await run(['mcp', 'trust', 'repo', ...common], true)).code, 0);
  assert.deepEqual(startsInWindow(data, ws), ['repo']);
  const u = await run(['mcp', 'untrust', 'repo', ...common]);
  assert.equal(u.code, 0, u.err);
  assert.match(u.out, /"repo" is no longer trusted/);
  assert.deepEqual(startsInWindow(data, ws), []);
});

test('knack mcp trust asks first and refuses a server the workspace file does not hold or has turned off', async () => {
  const { ws, data, common } = setup();
  const declined = await run(['mcp', 'trust', 'repo', ...common], false);
  assert.equal(declined.code, 1);
  assert.equal(existsSync(join(data, 'mcp-trust.json')), false);

  const missing = await run(['mcp', 'trust', 'nope', '--yes', ...common]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, new RegExp(`no server "nope" in ${join(ws, '.workbuddy', 'mcp.json')}`));
  const off = await run(['mcp', 'trust', 'off', '--yes', ...common]);
  assert.equal(off.code, 2);
  assert.match(off.err, /"off" in .* is turned off \(disabled: true\): not trusted/);
  assert.equal(existsSync(join(data, 'mcp-trust.json')), false);
});

test('knack mcp trust waits for the MCP edit lock another live Knack holds, then refuses, writing nothing', async (t) => {
  const { ws, data, common } = setup();
  // Another Knack, alive on this host, holding the lock the window's own changes take.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.after(() => holder.kill());
  writeTree(data, { [MCP_EDIT_LOCK]: `${holder.pid}\n${hostname()}\nother\n` });
  const r = await run(['mcp', 'trust', 'repo', '--yes', ...common]);
  assert.equal(r.code, 1, r.err);
  assert.match(
    r.err,
    new RegExp(`another Knack \\(process ${holder.pid}\\) .*${MCP_EDIT_LOCK}\\): nothing was changed`),
  );
  assert.equal(existsSync(join(data, 'mcp-trust.json')), false);
  assert.deepEqual(startsInWindow(data, ws), []);
});
