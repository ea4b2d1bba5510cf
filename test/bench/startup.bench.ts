// Start-up CPU: what a fresh `knack serve` (empty home, only the built-in skills) spends in its first 10 s, read from
// /proc/PID/stat (user + system time of every thread), against a bare Node HTTP server started beside it in the same
// run as the baseline, and the same start with the OS sandbox off in settings (its share of the start). Goal: under 1 s
// of CPU. Linux only (/proc); the built bundle is used, as `knack` runs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = join(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.KNACK_BENCH_RUNS ?? 3);
const WINDOW_MS = 10_000;
const GOAL_S = 1;
const scratch = mkdtempSync(join(tmpdir(), 'knack-bench-startup-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

if (process.platform !== 'linux') {
  console.log('startup: skipped, /proc/PID/stat is Linux only');
  process.exit(0);
}
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--main-only'], {
  cwd: root,
  encoding: 'utf8',
});
if (build.status !== 0 || !existsSync(join(root, 'dist', 'main', 'electron', 'cli.js')))
  throw new Error(`build failed: ${build.stderr}`);

// utime + stime (fields 14 and 15) in clock ticks; USER_HZ is 100 on every Linux Node runs on.
const TICKS_PER_S = 100;
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function start(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: scratch, env: { ...process.env, ...env }, stdio: 'ignore' });
  child.on('error', (e) => {
    throw e;
  });
  return child;
}

/** `sandboxOff`: the same start with `sandbox.mode` "off" in the user's settings (no OS sandbox is started). */
async function measure(run: number, sandboxOff = false): Promise<{ knack: number; bare: number; rss: number }> {
  const home = join(scratch, `home-${run}${sandboxOff ? '-off' : ''}`);
  const ws = join(scratch, `ws-${run}${sandboxOff ? '-off' : ''}`);
  mkdirSync(home);
  mkdirSync(ws);
  if (sandboxOff) {
    mkdirSync(join(home, 'data'));
    writeFileSync(join(home, 'data', 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
  }
  const knack = start([join(root, 'bin', 'knack.js'), 'serve', '--port', '0', '--workspace', ws], {
    HOME: home,
    KNACK_DATA_DIR: join(home, 'data'),
  });
  const bare = start(['-e', "require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1')"], {});
  try {
    await sleep(WINDOW_MS);
    if (knack.exitCode !== null) throw new Error(`knack serve exited early (${knack.exitCode})`);
    return { knack: cpuSeconds(knack.pid!), bare: cpuSeconds(bare.pid!), rss: rssMb(knack.pid!) };
  } finally {
    knack.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all([knack, bare].map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : 0)));
  }
}

console.log(`${RUNS} runs, load ${loadavg()[0]!.toFixed(1)}; CPU (user + system, all threads) in the first 10 s`);
const rows = [];
for (let r = 0; r < RUNS; r++) rows.push(await measure(r));
const knackBest = Math.min(...rows.map((x) => x.knack));
console.log(
  `knack serve (empty home, built-in skills): ${rows.map((x) => x.knack.toFixed(2)).join(' / ')} s; RSS at 10 s ${rows.map((x) => x.rss.toFixed(0)).join(' / ')} MB`,
);
console.log(`baseline, a bare node:http server: ${rows.map((x) => x.bare.toFixed(2)).join(' / ')} s`);
console.log(
  `start-up CPU, best of ${RUNS}: ${knackBest.toFixed(2)} s (goal < ${GOAL_S} s) ${knackBest < GOAL_S ? 'OK' : 'OVER'}`,
);
// The OS sandbox starts with the workspace (its runtime, its network bridges, a probe command run inside it), so that
// the first command does not wait for it: its share of the start is this difference.
const off = [];
for (let r = 0; r < RUNS; r++) off.push(await measure(r, true));
console.log(
  `the same with the sandbox off in settings: ${off.map((x) => x.knack.toFixed(2)).join(' / ')} s; best ${Math.min(...off.map((x) => x.knack)).toFixed(2)} s`,
);
