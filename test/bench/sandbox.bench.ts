// Sandbox benchmark: cold and warm latency of a trivial script, deadline-to-kill time of a runaway, and the main
// process's event-loop lag while 20 scripts run at once — each beside a baseline measured in the same run.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SandboxClient } from '../../main/core/sandbox/client.js';
import { limitsFromSettings } from '../../main/core/sandbox/limits.js';
import type { SandboxLimits } from '../../main/core/config/settings.js';
import { DEFAULT_SETTINGS } from '../../main/core/config/settings.js';

const TRIVIAL = 'export default (args) => ({ sum: args.a + args.b })';
const root = mkdtempSync(join(tmpdir(), 'knack-bench-sandbox-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
};
const ms = (n: number): string => `${n.toFixed(1).padStart(7)} ms`;
const sleep = (t: number): Promise<void> => new Promise((r) => setTimeout(r, t));

function client(over: Partial<SandboxLimits> = {}): SandboxClient<unknown> {
  return new SandboxClient<unknown>({
    limits: { ...limitsFromSettings(DEFAULT_SETTINGS.sandbox), ...over },
    capabilities: async (_op, p) => p,
  });
}

/** Baseline: a bare Node child (no tsx, no isolated-vm) that echoes IPC messages. */
async function bareFork(): Promise<{ cold: number; warm: number[] }> {
  const file = join(root, 'echo.mjs');
  writeFileSync(file, "process.on('message', (m) => process.send(m)); process.send('ready');");
  const t0 = performance.now();
  const child = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
  const next = (): Promise<unknown> => new Promise((r) => child.once('message', r));
  await next();
  child.send({ hello: 1 });
  await next();
  const cold = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    child.send({ i, payload: TRIVIAL });
    await next();
    warm.push(performance.now() - t);
  }
  child.kill();
  return { cold, warm };
}

async function latency(): Promise<void> {
  const base = await bareFork();
  const colds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const c = client();
    const t = performance.now();
    const r = await c.run({ source: TRIVIAL, filename: 'trivial.mjs', args: { a: 1, b: 2 }, context: {} });
    colds.push(performance.now() - t);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    await c.close();
  }
  const c = client();
  await c.warm();
  for (let i = 0; i < 10; i++)
    await c.run({ source: TRIVIAL, filename: 'trivial.mjs', args: { a: 1, b: 2 }, context: {} });
  const warm: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    const r = await c.run({ source: TRIVIAL, filename: 'trivial.mjs', args: { a: i, b: 2 }, context: {} });
    warm.push(performance.now() - t);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  await c.close();
  console.log('latency of a trivial script (fresh isolate per run)');
  console.log(
    `  cold (new host) median ${ms(median(colds))}   baseline bare fork + first message ${ms(base.cold)}   ratio ${(median(colds) / base.cold).toFixed(1)}×`,
  );
  console.log(
    `  warm median            ${ms(median(warm))}   p95 ${ms(pct(warm, 0.95))}   baseline bare IPC round trip ${median(base.warm).toFixed(2)} ms   ratio ${(median(warm) / median(base.warm)).toFixed(1)}×   target warm ≤ 20 ms median: ${median(warm) <= 20 ? 'MET' : 'MISSED'}`,
  );
}

async function killTime(): Promise<void> {
  const TIMEOUT = 200;
  const c = client({ timeoutMs: TIMEOUT, cpuTimeMs: 10_000 });
  await c.warm();
  const late: number[] = [];
  const timerLate: number[] = [];
  for (let i = 0; i < 15; i++) {
    // Baseline: how late an idle timer of the same length fires in this process.
    const tb = performance.now();
    await sleep(TIMEOUT);
    timerLate.push(performance.now() - tb - TIMEOUT);
    const t = performance.now();
    const r = await c.run({
      source: 'export default () => { for (;;) {} }',
      filename: 'runaway.mjs',
      args: {},
      context: {},
    });
    late.push(performance.now() - t - TIMEOUT);
    if (r.ok || r.error.code !== 'limit.timeout') throw new Error(`expected limit.timeout, got ${JSON.stringify(r)}`);
  }
  // The hard path: a host that stops answering is killed by the client's watchdog at deadline + killGraceMs.
  const grace = c.limits.killGraceMs;
  const hard: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [pid] = c.hostPids();
    const t = performance.now();
    const pending = c.run({
      source: 'export default () => new Promise(() => {})',
      filename: 'stuck.mjs',
      args: {},
      context: {},
    });
    await sleep(20);
    if (pid) process.kill(pid, 'SIGSTOP');
    const r = await pending;
    hard.push(performance.now() - t - TIMEOUT);
    if (r.ok) throw new Error('stuck run should fail');
    await c.run({ source: TRIVIAL, filename: 'trivial.mjs', args: { a: 1, b: 1 }, context: {} });
  }
  await c.close();
  console.log(
    `runaway (for (;;) {}) with a ${TIMEOUT} ms deadline: time from deadline to the run ending (isolate terminated)`,
  );
  const verdict = (v: number): string => (v <= 100 ? 'MET' : 'MISSED');
  console.log(
    `  median ${ms(median(late))}   max ${ms(Math.max(...late))}   baseline idle timer lateness median ${ms(median(timerLate))} max ${ms(Math.max(...timerLate))}`,
  );
  console.log(
    `  target ≤ 100 ms: median ${verdict(median(late))}, max ${verdict(Math.max(...late))} (a loaded machine shows in the baseline's max)`,
  );
  console.log(
    `  frozen host (SIGSTOP) killed by the watchdog: median ${ms(median(hard))} after the deadline (killGraceMs ${grace})`,
  );
}

async function eventLoopLag(): Promise<void> {
  const DURATION = 1_500;
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  await sleep(DURATION);
  h.disable();
  const idle = { p99: h.percentile(99) / 1e6, max: h.max / 1e6 };

  const c = client({ maxConcurrent: 20, poolSize: 2, timeoutMs: 10_000, cpuTimeMs: 10_000 });
  await c.warm();
  // Each script burns CPU, logs and calls back into this process, so the main side has real work to do.
  const busy = `export default async (args, knack) => {
    let n = 0;
    const end = Date.now() + args.ms;
    while (Date.now() < end) {
      for (let i = 0; i < 1e5; i++) n += i;
      knack.log('tick ' + n);
      await knack.listDir('.');
    }
    return n;
  }`;
  const h2 = monitorEventLoopDelay({ resolution: 5 });
  h2.enable();
  const t = performance.now();
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      c.run({
        source: busy,
        filename: `busy-${i}.mjs`,
        args: { ms: DURATION },
        context: {},
        limits: { maxLogBytes: 10_000_000, maxCapabilityCalls: 1_000_000 },
      }),
    ),
  );
  const wall = performance.now() - t;
  h2.disable();
  await c.close();
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new Error(`busy runs failed: ${JSON.stringify(failed[0])}`);
  const calls = results.reduce((s, r) => s + (r.stats?.capabilityCalls ?? 0), 0);
  const busyLag = { p99: h2.percentile(99) / 1e6, max: h2.max / 1e6 };
  console.log(
    `main event-loop lag while 20 scripts run at once (${(wall / 1000).toFixed(1)} s, ${calls} capability calls served)`,
  );
  console.log(
    `  p99 ${ms(busyLag.p99)}   max ${ms(busyLag.max)}   baseline idle p99 ${ms(idle.p99)} max ${ms(idle.max)}   target < 20 ms: ${busyLag.p99 < 20 ? 'MET (p99)' : 'MISSED (p99)'}`,
  );
}

try {
  await latency();
  await killTime();
  await eventLoopLag();
} finally {
  rmSync(root, { recursive: true, force: true });
}
