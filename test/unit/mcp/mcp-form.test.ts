// The window's MCP server form through the contract, with the real service, the real fixture server (official SDK)
// started inside the workspace's sandbox and real mcp.json files: add a stdio server (its tools appear, its env value
// never comes back to the window, the file is the user's only), edit it keeping a secret, refuse a bad entry naming the
// field, refuse to save a command that does not start unless asked, turn it off and on, remove it; a workspace server
// saved from the form is trusted as saved, and a later hand edit of the folder's file holds it again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCP_EDIT_LOCK, trustMcpServer, trustedMcpServers } from '../../../main/core/mcp/index.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { chinese, ENGLISH_SENTENCE } from '../../helpers/words.js';
import type { Said } from '../../../preload/words.js';
import type { McpEntryInput } from '../../../preload/contract.js';

const SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'server.mjs');
const stdio = (name: string, env: { name: string; value?: string }[] = []) => ({
  kind: 'stdio' as const,
  command: process.execPath,
  args: [SERVER, '--name', name],
  env,
});

test('add, edit, turn off and on, and remove a stdio server from the form', async (t) => {
  const s = await serviceEnv(t);
  const userFile = join(s.paths.dataDir, 'mcp.json');
  const added = await s.call('mcp.save', {
    scope: 'user',
    name: 'tracker',
    server: stdio('tracker', [{ name: 'TRACKER_TOKEN', value: 'tok-secret-123' }]),
  });
  assert.equal(added.saved, true, added.error);
  assert.ok(added.tools.includes('create_issue'), added.tools.join(', '));
  assert.equal(statSync(userFile).mode & 0o777, 0o600, 'it holds secrets: readable by the user only');
  const tools = (await s.call('tools.list', {})).tools.map((x) => x.name);
  assert.ok(tools.includes('mcp__tracker__create_issue'), 'its tools are in the registry');
  assert.ok(tools.includes('ListMcpResources') && tools.includes('ReadMcpResource'), 'and the resource tools, at once');
  assert.equal(
    s
      .of('tools.mcpChanged')
      .at(-1)!
      .servers.find((x) => x.name === 'tracker')?.state,
    'connected',
  );

  const listed = await s.call('mcp.list', {});
  const entry = listed.servers.find((x) => x.name === 'tracker')!;
  assert.deepEqual(
    [entry.scope, entry.kind, entry.enabled, entry.envKeys, entry.held],
    ['user', 'stdio', true, ['TRACKER_TOKEN'], false],
  );
  assert.doesNotMatch(JSON.stringify(listed), /tok-secret-123/, 'an env value never goes back to the window');

  // Edited with the secret left as it is (no value): the file keeps it; a network host is added.
  await s.call('mcp.save', {
    scope: 'user',
    name: 'tracker',
    previousName: 'tracker',
    server: { ...stdio('tracker', [{ name: 'TRACKER_TOKEN' }]), network: ['api.example.com'] },
  });
  const file = JSON.parse(readFileSync(userFile, 'utf8')) as {
    mcpServers: Record<string, { env?: Record<string, string>; network?: string[]; disabled?: boolean }>;
  };
  assert.equal(file.mcpServers.tracker!.env!.TRACKER_TOKEN, 'tok-secret-123');
  assert.deepEqual(file.mcpServers.tracker!.network, ['api.example.com']);

  await s.call('mcp.setEnabled', { scope: 'user', name: 'tracker', enabled: false });
  assert.equal(JSON.parse(readFileSync(userFile, 'utf8')).mcpServers.tracker.disabled, true);
  assert.ok(!(await s.call('tools.list', {})).tools.some((x) => x.name.startsWith('mcp__tracker__')), 'stopped');
  assert.equal((await s.call('mcp.list', {})).servers.find((x) => x.name === 'tracker')!.enabled, false);
  await s.call('mcp.setEnabled', { scope: 'user', name: 'tracker', enabled: true });
  assert.ok(
    (await s.call('tools.list', {})).tools.some((x) => x.name === 'mcp__tracker__create_issue'),
    'started',
  );

  assert.deepEqual(await s.call('mcp.remove', { scope: 'user', name: 'tracker' }), { removed: true });
  assert.deepEqual(JSON.parse(readFileSync(userFile, 'utf8')).mcpServers, {});
  assert.ok(!(await s.call('tools.list', {})).tools.some((x) => x.name.startsWith('mcp__tracker__')));
  assert.ok(!(await s.call('tools.list', {})).tools.some((x) => x.name.endsWith('McpResource')), 'no server left');
  await assert.rejects(s.call('mcp.remove', { scope: 'user', name: 'tracker' }), /not_found/);
});

test('a bad entry is refused naming the field; a command that does not start is saved only when asked', async (t) => {
  const s = await serviceEnv(t);
  const userFile = join(s.paths.dataDir, 'mcp.json');
  await assert.rejects(
    s.call('mcp.save', { scope: 'user', name: 'web', server: { ...stdio('web'), network: ['https://x.example/'] } }),
    /invalid_input: .*mcp\.json: mcpServers\.web\.network: network "https:\/\/x\.example\/" is not a host name/,
  );
  await assert.rejects(
    s.call('mcp.save', { scope: 'user', name: 'far', server: { kind: 'http', url: 'http://example.com/mcp' } }),
    /mcpServers\.far\.url: only loopback servers are supported/,
  );
  await assert.rejects(s.call('mcp.save', { scope: 'user', name: 'bad name', server: stdio('x') }), /invalid_input/);
  // Each refusal is words too, which the window says in its language: the field, then why.
  const refused: [string, McpEntryInput, RegExp][] = [
    [
      'web',
      { ...stdio('web'), network: ['https://x.example/'] },
      /^mcpServers\.web\.network：network：「https:\/\/x\.example\/」不是主机名/,
    ],
    [
      'far',
      { kind: 'http', url: 'http://example.com/mcp' },
      /^mcpServers\.far\.url：只支持本机回环地址上的服务器.*不支持 example\.com$/,
    ],
    ['bad name', stdio('x'), /^mcpServers\.bad name：服务器名称「bad name」只能由/],
  ];
  for (const [name, server, zh] of refused) {
    await assert.rejects(s.call('mcp.save', { scope: 'user', name, server }), (e: Error & { words?: Said }) => {
      assert.match(chinese(e.words!), zh);
      assert.doesNotMatch(chinese(e.words!, true), ENGLISH_SENTENCE);
      return true;
    });
  }

  const missing = { kind: 'stdio' as const, command: '/no/such/program-knack', args: [] };
  const tried = await s.call('mcp.save', { scope: 'user', name: 'ghost', server: missing });
  assert.equal(tried.saved, false);
  assert.match(tried.error ?? '', /program-knack|ENOENT|not found|exit/i);
  assert.throws(() => readFileSync(userFile), /ENOENT/, 'nothing written');
  const forced = await s.call('mcp.save', { scope: 'user', name: 'ghost', server: missing, force: true });
  assert.equal(forced.saved, true);
  assert.equal(JSON.parse(readFileSync(userFile, 'utf8')).mcpServers.ghost.command, '/no/such/program-knack');

  // A file that is not JSON is never written over.
  writeFileSync(userFile, '{ "mcpServers": { oops } }');
  await assert.rejects(
    s.call('mcp.save', { scope: 'user', name: 'other', server: stdio('other') }),
    /mcp\.json:1: invalid JSON/,
  );
  assert.equal(readFileSync(userFile, 'utf8'), '{ "mcpServers": { oops } }');
});

test('a workspace server saved from the form is trusted as saved; a hand edit of the folder’s file holds it', async (t) => {
  const s = await serviceEnv(t);
  const saved = await s.call('mcp.save', { scope: 'project', name: 'folder', server: stdio('folder') });
  assert.equal(saved.saved, true, saved.error);
  assert.ok((await s.call('tools.list', {})).tools.some((x) => x.name === 'mcp__folder__create_issue'));
  const projectFile = join(s.ws, '.workbuddy', 'mcp.json');
  const text = readFileSync(projectFile, 'utf8');
  // The cloned repository (or anyone) changes what it runs: it is held at the next open, until trusted again.
  writeFileSync(projectFile, text.replace('"--name"', '"--mode", "normal", "--name"'));
  await s.service.openWorkspace(s.ws, { reload: true });
  const entry = (await s.call('mcp.list', {})).servers.find((x) => x.name === 'folder')!;
  assert.equal(entry.held, true);
  assert.ok(!(await s.call('tools.list', {})).tools.some((x) => x.name.startsWith('mcp__folder__')));
});

test('a damaged trust record is never written over, and trusts nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'knack-mcp-trust-'));
  const file = join(dir, 'mcp-trust.json');
  const damaged = '{"/w": {"tracker": "k1"},\n  oops';
  writeFileSync(file, damaged);
  assert.deepEqual(trustedMcpServers(dir, '/w'), {}, 'read as trusting nothing');
  assert.throws(
    () => trustMcpServer(dir, '/w', 'tracker', undefined),
    (e: Error) => e.message.startsWith(`${file}:2:`) && /left as it is/.test(e.message),
  );
  assert.equal(readFileSync(file, 'utf8'), damaged, 'the damaged file is as it was');
  rmSync(dir, { recursive: true, force: true });
});

test('a damaged trust record refuses saving or removing a workspace server in its words, and changes nothing', async (t) => {
  const s = await serviceEnv(t);
  const saved = await s.call('mcp.save', { scope: 'project', name: 'folder', server: stdio('folder') });
  assert.equal(saved.saved, true, saved.error);
  const projectFile = join(s.ws, '.workbuddy', 'mcp.json');
  const trustFile = join(s.paths.dataDir, 'mcp-trust.json');
  const damaged = '{"/w": {"tracker": "k1"},\n  oops';
  writeFileSync(trustFile, damaged);
  const before = readFileSync(projectFile, 'utf8');
  const refusal = async (p: Promise<unknown>) => {
    const e = (await p.then(
      () => assert.fail('not refused'),
      (err: unknown) => err,
    )) as { code: string; message: string; words?: Said };
    // A refusal of the user's damaged file, said in its words: not an internal failure of the service.
    assert.equal(e.code, 'refused', e.message);
    assert.equal(e.words?.code, 'mcp.trustDamaged');
    assert.ok(String(e.words?.params?.file).startsWith(`${trustFile}:2:`), JSON.stringify(e.words));
    assert.doesNotMatch(chinese(e.words!, true), ENGLISH_SENTENCE);
  };
  await refusal(s.call('mcp.remove', { scope: 'project', name: 'folder' }));
  await refusal(s.call('mcp.save', { scope: 'project', name: 'other', server: stdio('other') }));
  assert.equal(readFileSync(projectFile, 'utf8'), before, 'the folder’s mcp.json is as it was');
  assert.equal(readFileSync(trustFile, 'utf8'), damaged, 'the damaged record is as it was');
  assert.ok((await s.call('tools.list', {})).tools.some((x) => x.name === 'mcp__folder__create_issue'));
});

test('a workspace server whose mcp.json cannot be written is not trusted, and the error is said in words', async (t) => {
  const s = await serviceEnv(t);
  const saved = await s.call('mcp.save', { scope: 'project', name: 'folder', server: stdio('folder') });
  assert.equal(saved.saved, true, saved.error);
  const folder = join(s.ws, '.workbuddy');
  const projectFile = join(folder, 'mcp.json');
  const trustFile = join(s.paths.dataDir, 'mcp-trust.json');
  const before = { project: readFileSync(projectFile, 'utf8'), trust: readFileSync(trustFile, 'utf8') };
  // mcp.json is written beside a temporary file in its folder: a folder no one may add a file to (read-only for a
  // user; immutable for root, whom permissions do not stop) makes the write fail.
  const root = process.getuid?.() === 0;
  const fix = (dir: string) => {
    if (!root) return chmodSync(dir, 0o500);
    const made = spawnSync('chattr', ['+i', dir]);
    if (made.status !== 0) t.skip(`chattr +i is not available here: ${String(made.stderr).trim()}`);
    return made.status === 0;
  };
  const undo = (dir: string) => (root ? spawnSync('chattr', ['-i', dir]) : chmodSync(dir, 0o700));
  if (fix(folder) === false) return;
  try {
    assert.throws(() => writeFileSync(join(folder, 'probe'), ''), 'the folder is still writable');
    const unwritten = async (p: Promise<unknown>, file = projectFile) => {
      const e = (await p.then(
        () => assert.fail('saved'),
        (err: unknown) => err,
      )) as { code: string; message: string; words?: Said };
      assert.equal(e.code, 'unavailable', e.message);
      assert.equal(e.words?.code, 'mcp.cannotWrite', JSON.stringify(e.words));
      assert.equal(e.words?.params?.file, file);
      assert.doesNotMatch(chinese(e.words!, true).replaceAll(file, ''), ENGLISH_SENTENCE);
      // Neither half of the change is left: the record trusts what it trusted, the folder's file is as it was.
      assert.equal(readFileSync(trustFile, 'utf8'), before.trust, 'the trust record is as it was');
      assert.equal(readFileSync(projectFile, 'utf8'), before.project, 'the folder’s mcp.json is as it was');
    };
    // A new server, and a renamed one (whose old trust would go): neither is trusted for a setup never written.
    await unwritten(s.call('mcp.save', { scope: 'project', name: 'other', server: stdio('other') }));
    await unwritten(
      s.call('mcp.save', { scope: 'project', name: 'renamed', previousName: 'folder', server: stdio('folder') }),
    );
    // A remove that cannot be written keeps the server trusted, as it is still in the file.
    await unwritten(s.call('mcp.remove', { scope: 'project', name: 'folder' }));
    undo(folder);

    // The data folder cannot be written: the MCP edit lock cannot be made there, it is named, and neither file is
    // written.
    fix(s.paths.dataDir);
    await unwritten(
      s.call('mcp.save', { scope: 'project', name: 'other', server: stdio('other') }),
      join(s.paths.dataDir, MCP_EDIT_LOCK),
    );
  } finally {
    undo(folder);
    undo(s.paths.dataDir);
  }
  assert.deepEqual(Object.keys(trustedMcpServers(s.paths.dataDir, s.ws)), ['folder']);
  assert.ok((await s.call('tools.list', {})).tools.some((x) => x.name === 'mcp__folder__create_issue'));
});
