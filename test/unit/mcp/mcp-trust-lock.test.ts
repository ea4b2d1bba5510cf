// The MCP trust record changed by two real processes at once (a second Knack on the same data folder, as serve mode
// beside the desktop app): each change is made holding the data folder's MCP edit lock, so none is lost and no
// forgotten trust comes back; a change while another live Knack holds the lock is refused in words, changing nothing,
// and a lock left by a process that died is taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MCP_EDIT_LOCK, trustedMcpServers } from '../../../main/core/mcp/index.js';
import { serviceEnv } from '../../helpers/service-env.js';
import { chinese, ENGLISH_SENTENCE } from '../../helpers/words.js';
import type { Said } from '../../../preload/words.js';

const CHILD = join(import.meta.dirname, '..', '..', 'helpers', 'mcp-trust-child.ts');

function child(args: string[]): { p: ChildProcess; exited: Promise<number | null>; line: Promise<string> } {
  const p = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => p.once('exit', (code) => resolve(code)));
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: p.stdout! }).once('line', resolve);
    void exited.then((code) => reject(new Error(`child exited (${code}) before saying anything: ${stderr}`)));
  });
  void exited.then((code) => {
    if (code !== 0 && code !== null) console.error(stderr);
  });
  return { p, exited, line };
}

test('two processes changing the trust record at once lose no trust and bring back no forgotten one', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'knack-mcp-lock-'));
  const go = join(dataDir, 'go');
  try {
    const n = 200;
    const keeper = child([dataDir, '/w', 'trust', 'a', String(n), go]);
    const forgetter = child([dataDir, '/w', 'revoke', 'b', String(n), go]);
    assert.deepEqual(await Promise.all([keeper.line, forgetter.line]), ['READY', 'READY']);
    writeFileSync(go, '');
    assert.deepEqual(await Promise.all([keeper.exited, forgetter.exited]), [0, 0]);
    const trusted = Object.keys(trustedMcpServers(dataDir, '/w')).sort();
    const want = Array.from({ length: n }, (_, i) => `a${i}`).sort();
    assert.deepEqual(
      trusted.filter((x) => x.startsWith('b')),
      [],
      'a forgotten trust never comes back',
    );
    assert.deepEqual(trusted, want, 'no trust is lost');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a change of MCP servers while another Knack holds the lock is refused in words, and made once it has died', async (t) => {
  const s = await serviceEnv(t, {
    files: { '.workbuddy/mcp.json': JSON.stringify({ mcpServers: { docs: { command: 'node' } } }) },
  });
  const projectFile = join(s.ws, '.workbuddy', 'mcp.json');
  const before = readFileSync(projectFile, 'utf8');
  const holder = child([s.paths.dataDir, s.ws, 'hold']);
  t.after(() => holder.p.kill('SIGKILL'));
  assert.equal(await holder.line, 'HELD');
  const lock = join(s.paths.dataDir, MCP_EDIT_LOCK);
  const e = (await s.call('mcp.remove', { scope: 'project', name: 'docs' }).then(
    () => assert.fail('removed while another process held the lock'),
    (err: unknown) => err,
  )) as { code: string; message: string; words?: Said };
  assert.equal(e.code, 'unavailable', e.message);
  assert.deepEqual(e.words, { code: 'mcp.editBusy', params: { file: lock, pid: String(holder.p.pid) } });
  assert.doesNotMatch(chinese(e.words!, true).replaceAll(lock, ''), ENGLISH_SENTENCE);
  assert.equal(readFileSync(projectFile, 'utf8'), before, 'the folder’s mcp.json is as it was');

  // Its holder dies holding it (a crash): the lock is stale, set aside, and the change is made.
  holder.p.kill('SIGKILL');
  await holder.exited;
  assert.deepEqual(await s.call('mcp.remove', { scope: 'project', name: 'docs' }), { removed: true });
  assert.doesNotMatch(readFileSync(projectFile, 'utf8'), /docs/);
  assert.throws(() => readFileSync(lock), /ENOENT/, 'and released');
});
