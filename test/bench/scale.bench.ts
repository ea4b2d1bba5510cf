// Does a folder of 5,000 skills feel like one of 50? For each size, generated folders of realistic skills (SKILL.md,
// two references, a Python and a shell script each; test/bench/skill-corpus.ts): `knack skills list`, `skills match`
// and `skills search` as a user runs them (a new process, spawn to exit, process start included), cold (a fresh data
// folder: every skill parsed and audited) and warm (the same command again), and `knack serve` from spawn to its
// address printed, to the answer of its first `skills.list` over the WebSocket, and on until it is idle (its CPU
// then: the catalog's watches and whatever else starting costs after the answer), and serve's first answer again with
// the folder's P1 skills trusted (`trusted`: a trust lookup per listed skill); peak RSS of each. The 50-skill
// folder is the baseline in the same run. Goal: at 5,000 skills each warm figure ≤ 2× the same at 50, RSS ≤ 300 MB.
// KNACK_BENCH_SCALE_SIZES=50,5000 and KNACK_BENCH_RUNS=3 (warm runs, best shown) change the run. Linux only (/proc).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { writeSkillCorpus } from './skill-corpus.js';

const root = join(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.KNACK_BENCH_RUNS ?? 3);
const SIZES = (process.env.KNACK_BENCH_SCALE_SIZES ?? '50,5000').split(',').map(Number);
const GOAL_RATIO = 2;
const GOAL_RSS_MB = 300;
const SERVE_TIMEOUT_MS = 180_000;
const knack = join(root, 'bin', 'knack.js');
const scratch = mkdtempSync(join(tmpdir(), 'knack-bench-scale-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

if (process.platform !== 'linux') {
  console.log('scale: skipped, peak RSS is read from /proc and GNU time (Linux only)');
  process.exit(0);
}
// The bundle is what `knack` runs; build it as the other process benches do.
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--main-only'], {
  cwd: root,
  encoding: 'utf8',
});
if (build.status !== 0 || !existsSync(join(root, 'dist', 'main', 'electron', 'cli.js')))
  throw new Error(`build failed: ${build.stderr}`);
// GNU time reports the peak RSS of a one-shot command (%M, KiB); without it RSS shows as n/a.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Run {
  ms: number;
  /** User + system CPU of the process (all its threads), seconds: the wall figures move with the machine's load. */
  cpuS: number;
  rssMb: number;
}

const COMMANDS: Record<string, string[]> = {
  list: ['skills', 'list'],
  match: ['skills', 'match', 'please review the commit and deploy the release'],
  search: ['skills', 'search', 'migrate the database schema'],
};

function envFor(home: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, KNACK_DATA_DIR: join(home, 'data') };
}

/** One `knack …` process, spawn to exit; its CPU and peak RSS from GNU time. `nodeArgs` go before the script. */
function runCli(args: string[], ws: string, home: string, nodeArgs: string[] = []): Run & { stderr: string } {
  const cmd = [process.execPath, ...nodeArgs, knack, ...args, '--workspace', ws];
  const t0 = performance.now();
  const r = gnuTime
    ? spawnSync(gnuTime, ['-f', 'knack-bench-usage=%U %S %M', ...cmd], { env: envFor(home), encoding: 'utf8' })
    : spawnSync(cmd[0]!, cmd.slice(1), { env: envFor(home), encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`knack ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /knack-bench-usage=([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const usage = m ? { cpuS: Number(m[1]) + Number(m[2]), rssMb: Number(m[3]) / 1024 } : { cpuS: NaN, rssMb: NaN };
  return { ms, ...usage, stderr: r.stderr };
}

/** The stat and lstat calls of one more warm `skills list`, per skill (counted by test/bench/fs-count.mjs). */
function statsPerSkill(ws: string, home: string, skills: number): { perSkill: number; counts: Record<string, number> } {
  const r = runCli(COMMANDS.list!, ws, home, ['--import', join(import.meta.dirname, 'fs-count.mjs')]);
  const m = /knack-bench-fs=(\{.*\})/.exec(r.stderr);
  if (!m) throw new Error(`no fs counts from knack: ${r.stderr}`);
  const counts = JSON.parse(m[1]!) as Record<string, number>;
  return { perSkill: ((counts.statSync ?? 0) + (counts.lstatSync ?? 0)) / skills, counts };
}

// utime + stime (fields 14 and 15 of /proc/PID/stat) in clock ticks; USER_HZ is 100 on every Linux Node runs on.
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * `knack serve` from spawn to its address and to the answer of the first skills.list, peak RSS then; and its CPU and
 * peak RSS once it has settled (idle) after that.
 */
async function runServe(
  ws: string,
  home: string,
): Promise<Run & { readyMs: number; settledCpuS: number; settledRssMb: number; skills: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [knack, 'serve', '--port', '0', '--workspace', ws], {
    env: envFor(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), SERVE_TIMEOUT_MS);
  try {
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Knack is running at (\S+)/.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.once('exit', (code) => reject(new Error(`knack serve exited (${code}) before its address: ${stderr}`)));
    });
    const readyMs = performance.now() - t0;
    const port = Number(url.port);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
      headers: { Origin: `http://127.0.0.1:${port}`, Cookie: `knack_${port}=${url.searchParams.get('token')}` },
    });
    const answer = await new Promise<{ ok: boolean; value?: { skills: unknown[] }; error?: unknown }>(
      (resolve, reject) => {
        socket.once('open', () =>
          socket.send(JSON.stringify({ type: 'call', id: 1, method: 'skills.list', input: {} })),
        );
        socket.on('message', (data: Buffer) => {
          const frame = JSON.parse(data.toString()) as { type: string; id?: number; result?: never };
          if (frame.type === 'result' && frame.id === 1) resolve(frame.result!);
        });
        socket.once('error', reject);
        child.once('exit', (code) => reject(new Error(`knack serve exited (${code}): ${stderr}`)));
      },
    );
    const ms = performance.now() - t0;
    if (!answer.ok) throw new Error(`skills.list failed: ${JSON.stringify(answer.error)}`);
    const rssMb = peakRssMb(child.pid!);
    const cpuS = cpuSeconds(child.pid!);
    // Then until it is idle (under 0.02 s of CPU in a second, or a minute): what starting cost besides the answer
    // (the catalog's watches, anything left running), and the peak RSS by then.
    let settledCpuS = cpuS;
    const settleBy = performance.now() + 60_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = cpuSeconds(child.pid!);
      const idle = now - settledCpuS < 0.02;
      settledCpuS = now;
      if (idle || performance.now() > settleBy) break;
    }
    const settledRssMb = peakRssMb(child.pid!);
    socket.close();
    return { ms, readyMs, cpuS, rssMb, settledCpuS, settledRssMb, skills: answer.value!.skills.length };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const fmt = (r: Run) =>
  `${r.ms.toFixed(0).padStart(6)} ms ${r.cpuS.toFixed(2).padStart(5)} s CPU ${Number.isNaN(r.rssMb) ? '  n/a' : r.rssMb.toFixed(0).padStart(4)} MB`;
/** The machine's load (1-minute average) beside each figure: the 2-core machines these run on are shared. */
const load = (): string => `load ${loadavg()[0]!.toFixed(1)}`;
const best = (rs: Run[]): Run => rs.reduce((a, b) => (b.ms < a.ms ? b : a));
const peak = (rs: Run[]): number => Math.max(...rs.map((r) => r.rssMb));

console.log(`sizes ${SIZES.join(', ')}; warm = best of ${RUNS}; ${load()}`);
const results = new Map<number, Map<string, { cold: Run; warm: Run; peakMb: number }>>();
/** The warm serve run's CPU once settled, per size. */
const settledCpu = new Map<number, number>();
for (const n of SIZES) {
  const ws = join(scratch, `ws-${n}`);
  mkdirSync(ws);
  const bytes = writeSkillCorpus(join(ws, '.workbuddy', 'skills'), n);
  const rows = new Map<string, { cold: Run; warm: Run; peakMb: number }>();
  console.log(`\n${n} skills (${(bytes / 1e6).toFixed(1)} MB in ${n * 5} files)`);
  console.log(`  ${''.padEnd(34)} ${'cold'.padEnd(28)}   warm`);
  for (const [label, args] of Object.entries(COMMANDS)) {
    const h = join(scratch, `home-${n}-${label}`);
    mkdirSync(h);
    const cold = runCli(args, ws, h);
    const warms = Array.from({ length: RUNS }, () => runCli(args, ws, h));
    const row = { cold, warm: best(warms), peakMb: peak([cold, ...warms]) };
    rows.set(label, row);
    console.log(`  ${`knack skills ${label}`.padEnd(34)} ${fmt(cold)}   ${fmt(row.warm)}   ${load()}`);
    if (label === 'list') {
      const { perSkill, counts } = statsPerSkill(ws, h, n);
      console.log(
        `  ${'  stat + lstat per skill, warm'.padEnd(34)} ${perSkill.toFixed(2)}   ${JSON.stringify(counts)}`,
      );
    }
  }
  const h = join(scratch, `home-${n}-serve`);
  mkdirSync(h);
  const cold = await runServe(ws, h);
  const warms: Awaited<ReturnType<typeof runServe>>[] = [];
  for (let r = 0; r < RUNS; r++) warms.push(await runServe(ws, h));
  const warm = warms.reduce((a, b) => (b.ms < a.ms ? b : a));
  rows.set('serve', { cold, warm, peakMb: peak([cold, ...warms]) });
  console.log(
    `  ${'knack serve → first skills.list'.padEnd(34)} ${fmt(cold)}   ${fmt(warm)}   ${load()}, ${warm.skills} listed`,
  );
  const ready = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`.padEnd(28);
  console.log(
    `  ${'knack serve → address printed'.padEnd(34)} ${ready(cold.readyMs)}   ${ready(warm.readyMs)}`.trimEnd(),
  );
  const settled = (r: typeof warm) =>
    `${r.settledCpuS.toFixed(2).padStart(5)} s CPU ${r.settledRssMb.toFixed(0).padStart(4)} MB`.padEnd(28);
  console.log(`  ${'knack serve → settled (idle)'.padEnd(34)} ${settled(cold)}   ${settled(warm)}`.trimEnd());
  settledCpu.set(n, warm.settledCpuS);
  // Serve again with every P1 skill of the folder trusted (a fifth of the corpus): its first skills.list looks up the
  // trust of each listed skill by content hash, once per skill, through an index of the decisions.
  runCli(['skills', 'trust', '--all', '--yes'], ws, h);
  const trusted: Awaited<ReturnType<typeof runServe>>[] = [];
  for (let r = 0; r < RUNS; r++) trusted.push(await runServe(ws, h));
  const trustedWarm = trusted.reduce((a, b) => (b.ms < a.ms ? b : a));
  rows.set('trusted', { cold: trusted[0]!, warm: trustedWarm, peakMb: peak(trusted) });
  console.log(
    `  ${'  the P1 skills trusted'.padEnd(34)} ${''.padEnd(28)}   ${fmt(trustedWarm)}   ${load()}, ${trustedWarm.skills} listed`,
  );
  results.set(n, rows);
}

const small = results.get(Math.min(...SIZES));
const large = results.get(Math.max(...SIZES));
if (small && large && small !== large) {
  console.log(
    `\nwarm ${Math.max(...SIZES)} / warm ${Math.min(...SIZES)} (goal ≤ ${GOAL_RATIO}×), peak RSS (goal ≤ ${GOAL_RSS_MB} MB):`,
  );
  for (const [label, row] of large) {
    const base = small.get(label)!.warm;
    const ratio = row.warm.ms / base.ms;
    console.log(
      `  ${label.padEnd(8)} wall ${ratio.toFixed(2)}× ${ratio <= GOAL_RATIO ? 'OK  ' : 'OVER'}  (CPU ${(row.warm.cpuS / base.cpuS).toFixed(2)}×)   peak RSS ${row.peakMb.toFixed(0)} MB ${row.peakMb <= GOAL_RSS_MB ? 'OK' : 'OVER'}`,
    );
  }
  const [lo, hi] = [settledCpu.get(Math.min(...SIZES))!, settledCpu.get(Math.max(...SIZES))!];
  console.log(`  serve settled: CPU ${(hi / lo).toFixed(2)}× (${lo.toFixed(2)} → ${hi.toFixed(2)} s)   ${load()}`);
}
