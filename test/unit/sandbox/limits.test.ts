import { test } from 'node:test';
import assert from 'node:assert/strict';
import { echoClient, run } from './setup.js';

const client = echoClient({
  timeoutMs: 600,
  cpuTimeMs: 10_000,
  memoryMb: 32,
  maxOutputBytes: 10_000,
  maxLogBytes: 2_000,
});

async function assertNextRunWorks(): Promise<void> {
  const r = await run(client, 'export default (args) => ({ doubled: args.n * 2 })', { n: 21 });
  assert.deepEqual(r.ok && r.value, { doubled: 42 }, JSON.stringify(r));
}

async function assertLimit(source: string, code: string, limits = {}): Promise<void> {
  const r = await run(client, source, {}, limits);
  assert.equal(r.ok, false, 'the run should fail');
  if (!r.ok) {
    assert.equal(r.error.code, code, JSON.stringify(r.error));
    assert.ok(r.error.message.length > 10);
  }
  await assertNextRunWorks();
}

test('an infinite loop ends with limit.timeout naming timeoutMs, and the next run works', async () => {
  const r = await run(client, 'export default function () { for (;;) {} }');
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'limit.timeout');
    assert.match(r.error.message, /600 ms time limit \(timeoutMs\)/);
  }
  await assertNextRunWorks();
});

test('a script waiting forever on a promise ends at the deadline', async () => {
  await assertLimit('export default () => new Promise(() => {})', 'limit.timeout');
});

test('CPU time is limited separately from the wall clock', async () => {
  await assertLimit('export default function () { for (;;) {} }', 'limit.cpu', { timeoutMs: 5_000, cpuTimeMs: 200 });
});

test('a memory bomb ends with limit.memory naming memoryMb', async () => {
  const r = await run(
    client,
    'export default function () { const a = []; for (;;) a.push({ s: "x" + Math.random(), n: [1, 2, 3] }); }',
    {},
    { timeoutMs: 10_000, cpuTimeMs: 10_000 },
  );
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'limit.memory', JSON.stringify(r.error));
    assert.match(r.error.message, /32 MB memory limit \(memoryMb\)/);
  }
  await assertNextRunWorks();
});

test('ArrayBuffer memory outside the JS heap counts against the memory limit', async () => {
  await assertLimit(
    'export default function () { const a = []; for (;;) a.push(new ArrayBuffer(4 * 1024 * 1024)); }',
    'limit.memory',
    { timeoutMs: 5_000 },
  );
});

test('WebAssembly memories cannot be allocated: WebAssembly is not there', async () => {
  const r = await run(
    client,
    `export default function () {
    if (typeof WebAssembly !== 'undefined') return new WebAssembly.Memory({ initial: 1000, maximum: 65536 }).buffer.byteLength;
    return typeof WebAssembly;
  }`,
  );
  assert.deepEqual(r.ok && r.value, 'undefined');
});

test('a huge string or result never gets copied out: limit.output, or memory', async () => {
  await assertLimit('export default () => "x".repeat(50_000)', 'limit.output');
  await assertLimit('export default () => ({ rows: Array.from({ length: 5000 }, (_, i) => ({ i })) })', 'limit.output');
  const r = await run(client, 'export default () => { let s = "x"; for (;;) s += s; }', {}, { timeoutMs: 5_000 });
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.error.code, /^(script\.error|limit\.memory)$/);
  await assertNextRunWorks();
});

test('a log flood ends with limit.log even if the script catches the error', async () => {
  const r = await run(
    client,
    'export default (a, knack) => { for (let i = 0; i < 1e6; i++) { try { knack.log("line " + i); } catch {} } return "done"; }',
  );
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'limit.log');
    assert.match(r.error.message, /2000-byte log limit \(maxLogBytes\)/);
  }
  assert.ok(r.logs.length > 0 && r.logs.join('\n').length <= 2_000, 'logs up to the cap are kept');
  await assertNextRunWorks();
});

test('a flood of bridged log calls cannot stretch a run past its deadline: the host stops it itself', async () => {
  const pids = client.hostPids();
  const r = await run(
    client,
    'export default (a, knack) => { for (;;) knack.log(""); }',
    {},
    { maxLogBytes: 50_000_000 },
  );
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.equal(r.error.code, 'limit.timeout');
    assert.doesNotMatch(r.error.message, /host was killed/, 'the host met the deadline without the watchdog');
  }
  assert.deepEqual(client.hostPids(), pids, 'same host process afterwards');
  await assertNextRunWorks();
});

test('deep recursion ends with limit.stack', async () => {
  await assertLimit('export default function f(a) { return f(a) + 1; }', 'limit.stack');
});

test('a microtask flood ends at the deadline', async () => {
  const r = await run(
    client,
    'export default () => { const spin = () => Promise.resolve().then(spin); spin(); return new Promise(() => {}); }',
  );
  assert.equal(r.ok, false);
  // Whichever limit it meets first: the queue of promises may also fill the heap.
  if (!r.ok) assert.match(r.error.code, /^limit\.(timeout|memory)$/);
  await assertNextRunWorks();
});

test('a catastrophic regular expression ends at the deadline', async () => {
  await assertLimit('export default () => /^(a+)+$/.test("a".repeat(40) + "b")', 'limit.timeout');
});

test('too many capability calls end with limit.capability_calls', async () => {
  const c = echoClient({ maxCapabilityCalls: 5 });
  const r = await run(
    c,
    'export default async (a, knack) => { for (let i = 0; i < 10; i++) await knack.listDir("."); return 1; }',
  );
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error.code, 'limit.capability_calls');
});

test('a per-run timeout override applies to that run only', async () => {
  const slow = 'export default () => { const end = Date.now() + 800; while (Date.now() < end) {} return "slow done"; }';
  const short = await run(client, slow);
  assert.equal(short.ok, false);
  const long = await run(client, slow, {}, { timeoutMs: 3_000, cpuTimeMs: 3_000 });
  assert.deepEqual(long.ok && long.value, 'slow done');
});

test('a memory bomb that makes V8 abort the host process still ends with limit.memory, and the next run works', async () => {
  const c = echoClient({ timeoutMs: 10_000, memoryMb: 32 });
  await run(c, 'export default () => 1');
  const [pid] = c.hostPids();
  // Growing a Map's backing store asks V8 for one large allocation, which it cannot refuse gracefully.
  const r = await run(c, 'export default () => { const m = new Map(); for (let i = 0; ; i++) m.set(i, i); }');
  assert.equal(r.ok, false);
  // V8 either refuses the allocation inside the isolate (the normal memory limit) or aborts the whole host; which one
  // happens depends on how far the backing store had grown. Both must read as the memory limit, naming its value.
  if (!r.ok) {
    assert.equal(r.error.code, 'limit.memory', JSON.stringify(r.error).slice(0, 500));
    assert.match(r.error.message, /memoryMb 32|32 MB memory limit/);
    if (/host was restarted/.test(r.error.message)) {
      assert.ok(pid !== undefined && !c.hostPids().includes(pid), 'the aborted host was replaced');
    }
  }
  const next = await run(c, 'export default () => "alive"');
  assert.deepEqual(next.ok && next.value, 'alive');
  assert.equal(process.memoryUsage().rss > 0, true, 'this process is unaffected');
});
