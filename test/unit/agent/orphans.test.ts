import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import { agentEnv } from '../../helpers/agent-env.js';
import { leftAfter, statOf, withMarker } from '../../helpers/procs.js';

// kill -9 of the agent mid-tool-call: no process of that call is left (sandboxed and not), and a group left over
// anyway (its watchdog could not run) is ended when the session is reopened, which says so.

const child = join(import.meta.dirname, '..', '..', 'helpers', 'chat-child.ts');

/** Live (not zombie) pids in process group `pgid`. */
function inGroup(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statOf(Number(name));
    if (f && Number(f[2]) === pgid && f[0] !== 'Z') out.push(Number(name));
  }
  return out;
}

/**
 * Run one chat turn in a real child process whose model calls bash with `command`; kill -9 the child as soon as the
 * command's process group is stored (the child is frozen there). `beforeKill` runs first, given the group.
 */
async function killMidCall(
  env: Awaited<ReturnType<typeof agentEnv>>,
  command: string,
  beforeKill: (pgid: number) => void = () => undefined,
): Promise<{ id: string; pgid: number }> {
  env.server.script({ toolCalls: [{ id: 'b1', name: 'bash', input: { command } }] });
  const p: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', child, env.home, env.dataDir, env.workspace, env.server.url, 'run it', 'tool_process'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KNACK_TEST_APPROVE: 'once' } },
  );
  let stderr = '';
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let id = '';
  let pgid = 0;
  const lines = createInterface({ input: p.stdout! });
  await new Promise<void>((resolve, reject) => {
    p.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    lines.on('line', (l) => {
      if (l.startsWith('SESSION ')) id = l.slice(8);
      if (l.startsWith('PROCESS ')) pgid = Number(l.slice(8));
      if (l === 'EVENT tool_process') {
        p.removeAllListeners('exit');
        beforeKill(pgid);
        p.kill('SIGKILL');
        resolve();
      }
    });
  });
  // The sandbox's socat bridges die with the child (knack-socat: test/unit/contain/bridges-die.test.ts).
  await new Promise((r) => p.once('exit', r));
  assert.ok(pgid > 0, 'the child stored the process group of the call');
  return { id, pgid };
}

const marker = (): string => `knack-orphan-${randomBytes(6).toString('hex')}`;

for (const mode of ['auto', 'off'] as const) {
  test(`kill -9 of the agent mid-bash-call (sandbox ${mode}): no process of that call is left after 2 s`, async () => {
    const env = await agentEnv({ settings: () => ({ sandbox: { mode } }) });
    const m = marker();
    let leader = '';
    const { pgid } = await killMidCall(env, `sleep 30; echo ${m} > ${m}.txt`, (g) => {
      // Empty while caught in the middle of an exec: read again (a few ms at most).
      for (let i = 0; i < 1000 && !leader; i++) leader = readFileSync(`/proc/${g}/cmdline`, 'utf8');
    });
    // Inside the wall the group's leader runs bubblewrap (bwrap itself, or caught before its exec, the watchdog's launcher
    // or the runtime's shell naming it, by name or by the path Knack found on PATH); with the sandbox off, bash running
    // the command line.
    const walled = /(^|\0|\s|\/)bwrap(\0|\s)/.test(leader) && !leader.includes('knack-bash');
    assert.equal(walled, mode === 'auto', JSON.stringify(leader.slice(0, 80)));
    assert.deepEqual(await leftAfter(() => withMarker(m)), [], 'no process with the call line is left');
    assert.deepEqual(await leftAfter(() => inGroup(pgid)), [], 'no process of its group is left');
    assert.equal(existsSync(join(env.workspace, `${m}.txt`)), false);
  });
}

test('a process group left running by a killed agent is ended when the session is reopened, and the session says so', async () => {
  const env = await agentEnv({ settings: () => ({ sandbox: { mode: 'off' } }) });
  const m = marker();
  // The group is stopped before the kill: its watchdog cannot act, as if it had been killed too.
  const { id, pgid } = await killMidCall(env, `sleep 30; echo ${m} > ${m}.txt`, (g) => process.kill(-g, 'SIGSTOP'));
  assert.ok(inGroup(pgid).length > 0, 'the group outlived its agent');
  const chat = env.agent.openSession(id);
  assert.deepEqual(await leftAfter(() => inGroup(pgid)), [], 'recovery ended the group');
  assert.deepEqual(withMarker(m), []);
  const rec = chat.events().find((e) => e.type === 'recovered');
  assert.ok(rec && rec.type === 'recovered' && (rec.endedProcesses ?? 0) >= 1, JSON.stringify(rec));
  const result = chat.events().find((e) => e.type === 'tool_result');
  assert.ok(result && result.type === 'tool_result' && !result.ok);
  assert.match(result.content, new RegExp(`process group ${pgid}\\) were still running and were ended`));
  assert.equal(existsSync(join(env.workspace, `${m}.txt`)), false);
});
