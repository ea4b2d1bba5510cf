import { test } from 'node:test';
import assert from 'node:assert/strict';
import { echoClient, run, testLimits } from './setup.js';
import { SandboxClient } from '../../../main/core/sandbox/client.js';
import { forkHost, type SpawnHost, type HostProcess } from '../../../main/core/sandbox/spawn.js';
import { parseClientMessage, parseHostMessage } from '../../../main/core/sandbox/protocol.js';

const trivial = 'export default (args) => ({ ok: args.n })';

test('the host starts lazily on the first run and is reused (warm) after', async () => {
  const client = echoClient();
  assert.deepEqual(client.hostPids(), []);
  const a = await run(client, trivial, { n: 1 });
  assert.deepEqual(a.ok && a.value, { ok: 1 });
  const pids = client.hostPids();
  assert.equal(pids.length, 1);
  const b = await run(client, trivial, { n: 2 });
  assert.deepEqual(b.ok && b.value, { ok: 2 });
  assert.deepEqual(client.hostPids(), pids);
  assert.notEqual(pids[0], process.pid, 'scripts never run in this process');
});

test('a host that dies mid-run fails that run with a clear error, and the next run works on a fresh host', async () => {
  const client = echoClient({ timeoutMs: 10_000, cpuTimeMs: 10_000 });
  await run(client, trivial);
  const [pid] = client.hostPids();
  assert.ok(pid);
  const pending = run(client, 'export default () => { for (;;) {} }');
  await new Promise((r) => setTimeout(r, 150));
  process.kill(pid, 'SIGKILL');
  const r = await pending;
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'host.crashed');
    assert.match(r.error.message, /exited unexpectedly .*SIGKILL.*next run starts a fresh host/);
  }
  const next = await run(client, trivial, { n: 3 });
  assert.deepEqual(next.ok && next.value, { ok: 3 });
  assert.notDeepEqual(client.hostPids(), [pid]);
});

test('a host that stops answering (no heartbeat) is killed by the watchdog and replaced', async () => {
  // 300 ms without a heartbeat was too short for the fresh host to start at load 18; 1.5 s still ends the stopped one.
  const client = echoClient({ timeoutMs: 20_000, cpuTimeMs: 20_000, heartbeatMs: 50, heartbeatTimeoutMs: 1_500 });
  await run(client, trivial);
  const [pid] = client.hostPids();
  assert.ok(pid);
  const pending = run(client, 'export default () => new Promise(() => {})');
  await new Promise((r) => setTimeout(r, 100));
  process.kill(pid, 'SIGSTOP');
  const r = await pending;
  assert.equal(!r.ok && r.error.code, 'host.unresponsive');
  const next = await run(client, trivial, { n: 4 });
  assert.deepEqual(next.ok && next.value, { ok: 4 });
});

test('a healthy host is not killed as unresponsive when this thread was too busy to read its heartbeats', async () => {
  const client = echoClient({ timeoutMs: 20_000, cpuTimeMs: 20_000, heartbeatMs: 50, heartbeatTimeoutMs: 500 });
  await run(client, trivial);
  // The script waits on this thread (a capability call), so it is still running when this thread wakes up.
  const pending = run(client, 'export default async (a, knack) => { await knack.listDir("."); return 7; }');
  // This thread is blocked over twice the heartbeat timeout (a long synchronous task): the idle host's beats wait in
  // the pipe, and the watchdog's timer comes due before the loop reads them (blocked in the check phase, timers run next).
  await new Promise<void>((r) =>
    setImmediate(() => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_200);
      r();
    }),
  );
  const r = await pending;
  assert.equal(r.ok ? r.value : r.error.code, 7);
  await client.close();
});

test('runs beyond maxConcurrent wait their turn; beyond maxQueued they get limit.concurrency', async () => {
  const client = echoClient({ maxConcurrent: 2, maxQueued: 2, poolSize: 2 });
  const slow =
    'export default async (a, knack) => { await knack.listDir("."); const end = Date.now() + 150; while (Date.now() < end) {} return a.i; }';
  const runs = [0, 1, 2, 3, 4].map((i) => run(client, slow, { i }));
  assert.deepEqual(client.load(), { active: 2, queued: 2 });
  const results = await Promise.all(runs);
  const refused = results.filter((r) => !r.ok);
  assert.equal(refused.length, 1);
  assert.equal(!refused[0]!.ok && refused[0]!.error.code, 'limit.concurrency');
  assert.match(!refused[0]!.ok ? refused[0]!.error.message : '', /maxConcurrent/);
  assert.deepEqual(
    results.filter((r) => r.ok).map((r) => r.ok && r.value),
    [0, 1, 2, 3],
  );
  assert.deepEqual(client.load(), { active: 0, queued: 0 });
});

test('many scripts run at once across the pool, each with its own result', async () => {
  const client = echoClient({ maxConcurrent: 8, maxQueued: 32, poolSize: 2 });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      run(client, 'export default async (a, k) => { k.log("run " + a.i); return a.i * a.i; }', { i }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.ok && r.value),
    Array.from({ length: 20 }, (_, i) => i * i),
  );
  assert.deepEqual(
    results.map((r) => r.logs),
    Array.from({ length: 20 }, (_, i) => [`run ${i}`]),
  );
});

test('the protocol rejects unknown and malformed messages on both sides', () => {
  const bad = parseClientMessage({ type: 'eval', code: 'process.exit()' });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.error.code, 'protocol.invalid_message');
  assert.equal(parseClientMessage({ type: 'run', runId: 'x' }).ok, false);
  assert.equal(parseHostMessage({ type: 'result', runId: 'x', ok: true }).ok, false);
  assert.equal(parseHostMessage('hello').ok, false);
  assert.equal(parseHostMessage({ type: 'heartbeat', at: 1, activeRuns: 0 }).ok, true);
});

test('a live host answers a malformed message with a protocol error and keeps working', async () => {
  let proc: HostProcess | undefined;
  const spy: SpawnHost = (o) => (proc = forkHost(o));
  const client = new SandboxClient<unknown>({ limits: testLimits(), capabilities: async () => null, spawn: spy });
  try {
    await run(client, trivial);
    proc!.send({ type: 'eval', code: 'process.exit(1)' });
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(client.rejectedMessages.some((e) => e.code === 'protocol.invalid_message' && /"eval"/.test(e.message)));
    const r = await run(client, trivial, { n: 5 });
    assert.deepEqual(r.ok && r.value, { ok: 5 });
  } finally {
    await client.close();
  }
});

test('closing the client stops its hosts and refuses new runs', async () => {
  const client = new SandboxClient<unknown>({ limits: testLimits(), capabilities: async () => null });
  await run(client, trivial);
  const [pid] = client.hostPids();
  await client.close();
  assert.throws(() => process.kill(pid!, 0));
  const r = await run(client, trivial);
  assert.equal(!r.ok && r.error.code, 'sandbox.closed');
});

test('arguments too large to send are refused before anything starts', async () => {
  const client = echoClient();
  const r = await run(client, trivial, { blob: 'x'.repeat(9 * 1024 * 1024) });
  assert.equal(!r.ok && r.error.code, 'script.bad_arguments');
  assert.deepEqual(client.hostPids(), [], 'no host was started for it');
});

test('runs that arrive together on a cold pool are spread over poolSize hosts', async () => {
  const client = echoClient({ poolSize: 3, maxConcurrent: 3 });
  const results = await Promise.all([1, 2, 3].map((n) => run(client, trivial, { n })));
  assert.deepEqual(
    results.map((r) => r.ok && r.value),
    [{ ok: 1 }, { ok: 2 }, { ok: 3 }],
  );
  assert.equal(new Set(client.hostPids()).size, 3);
});
