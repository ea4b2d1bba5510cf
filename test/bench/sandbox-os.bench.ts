// OS sandbox benchmark: the time a command takes inside the wall (bubblewrap here) against the same command spawned
// bare, in the same run — median and p90 over N runs each, the first contained command included; the wall's one-time
// start is printed apart. Four walls side by side: the runtime builds every command's line anew (the baseline,
// `reuseCommandLines: false`) or the line is reused (template.ts); and a command allowed no host
// starts the proxy's relays inside the sandbox (the baseline, `relaysWithoutHosts: true`) or runs with the network off
// (offline.ts, the default). Goal: overhead ≤ 100 ms median.
// Then, each in a fresh process (wall-open-child.ts), a workspace opened, 3 s as a user types, and the first bash
// command: how long it takes to answer, and the longest the event loop was held from the open on. The sandbox started
// as the workspace opens (the default) against started by that first command (the baseline), alternated in one run.
// Last, a workspace of ~20,000 folders holding a few nested repositories: a command there with its git dirs watched
// (git-dirs.ts, the default) against walked before and after each command (the baseline), interleaved, and how long
// the wall's open takes with each. KNACK_BENCH_PART=big-tree runs only that part.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Wall } from '../../main/core/contain/wall.js';
import { runBash, runContained } from '../../main/core/tools/builtin/bash.js';

const N = Number(process.env.KNACK_BENCH_N ?? 15);
const root = mkdtempSync(join(tmpdir(), 'knack-bench-wall-'));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p90 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))] ?? NaN;
const ms = (n: number): string => `${n.toFixed(1).padStart(7)} ms`;

const COMMAND = 'echo hi > out.txt && cat out.txt >/dev/null';
const opts = { timeoutMs: 30_000 };

async function open(
  name: string,
  reuseCommandLines: boolean,
  relaysWithoutHosts = false,
): Promise<{ wall: Wall; ws: string; startMs: number }> {
  const ws = join(root, name);
  mkdirSync(ws);
  const t0 = performance.now();
  const wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto', {
    reuseCommandLines,
    relaysWithoutHosts,
  });
  const startMs = performance.now() - t0;
  if (!wall.available) throw new Error(`the sandbox is unavailable: ${wall.status().reason}`);
  return { wall, ws, startMs };
}

try {
  if (process.env.KNACK_BENCH_PART !== 'big-tree') await commandsAndOpens();
  await bigTree();
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** The folders of the big workspace: 20 × 20 × 50 below it, three of them nested repositories. */
function makeBigTree(ws: string): number {
  let n = 0;
  for (let a = 0; a < 20; a++)
    for (let b = 0; b < 20; b++)
      for (let c = 0; c < 50; c++) {
        mkdirSync(join(ws, `a${a}`, `b${b}`, `c${c}`), { recursive: true });
        n++;
      }
  for (const r of ['a1/b2/c3', 'a5/b5/c5', 'a19/b19/c49']) {
    const g = spawnSync('git', ['init', '-q', join(ws, r)]);
    if (g.status !== 0) throw new Error(`git init failed: ${g.stderr}`);
  }
  writeFileSync(join(ws, 'a0', 'README.md'), 'big\n');
  return n + 20 + 400;
}

async function bigTree(): Promise<void> {
  const kinds = { 'watched (default)': true, 'walked per command (baseline)': false };
  const walls: Record<string, { wall: Wall; ws: string; openMs: number; times: number[] }> = {};
  let folders = 0;
  // The runtime started first, by a small workspace kept open: each big open below is only its own.
  const warm = join(root, 'big-warm');
  mkdirSync(warm);
  const warmWall = await Wall.open({ workspace: warm, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto');
  for (const [name, watchGitDirs] of Object.entries(kinds)) {
    const ws = join(root, `big-${watchGitDirs ? 'watched' : 'walked'}`);
    mkdirSync(ws);
    folders = makeBigTree(ws);
    const t0 = performance.now();
    const wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto', {
      watchGitDirs,
    });
    if (!wall.available) throw new Error(`the sandbox is unavailable: ${wall.status().reason}`);
    walls[name] = { wall, ws, openMs: performance.now() - t0, times: [] };
  }
  const bare: number[] = [];
  for (let i = 0; i < N; i++) {
    for (const w of Object.values(walls)) {
      const t = performance.now();
      const r = await runContained(w.wall, COMMAND, w.ws, { ...opts, hosts: [] });
      w.times.push(performance.now() - t);
      if (r.exitCode !== 0) throw new Error(`contained run failed: ${r.stderr}`);
    }
    const t = performance.now();
    await runBash(COMMAND, Object.values(walls)[0]!.ws, opts);
    bare.push(performance.now() - t);
  }
  console.log(`A workspace of ${folders} folders, 3 nested repositories, ${N} runs each of: ${COMMAND}`);
  console.log(`  bare spawn        median ${ms(median(bare))}   p90 ${ms(p90(bare))}`);
  for (const [name, w] of Object.entries(walls)) {
    const over = w.times.map((x, i) => x - bare[i]!);
    console.log(`  git dirs ${name.padEnd(30)} median ${ms(median(w.times))}   p90 ${ms(p90(w.times))}`);
    console.log(`    overhead median ${ms(median(over))}   wall open ${ms(w.openMs)}`);
    await w.wall.close();
  }
  await warmWall.close();
}

async function commandsAndOpens(): Promise<void> {
  // The first open loads the runtime and starts it: how long it holds the event loop (a streaming answer stalls).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const firstWall = await open('rebuilt', false, true);
  loop.disable();
  const walls = {
    'built per command, relays': firstWall,
    'reused, relays': await open('reused', true, true),
    'built per command': await open('rebuilt-offline', false),
    'reused (default)': await open('reused-offline', true),
  };
  // The runtime's own dependency check (`which` of bwrap, socat and the scanner, each a spawnSync), which the wall ran
  // before starting the runtime and no longer does (it finds the programs itself): how long it holds the event loop.
  const check = monitorEventLoopDelay({ resolution: 10 });
  check.enable();
  const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
  await SandboxManager.checkDependenciesAsync();
  check.disable();
  const first = walls['built per command, relays'];
  const names = Object.keys(walls) as (keyof typeof walls)[];
  const bare: number[] = [];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<keyof typeof walls, number[]>;
  // Interleaved, so a busy moment of the machine falls on all alike; the first contained runs are kept.
  for (let i = 0; i < N; i++) {
    for (const name of names) {
      const w = walls[name];
      const t = performance.now();
      const r = await runContained(w.wall, COMMAND, w.ws, { ...opts, hosts: [] });
      times[name].push(performance.now() - t);
      if (r.exitCode !== 0) throw new Error(`contained run failed: ${r.stderr}`);
    }
    const t = performance.now();
    await runBash(COMMAND, first.ws, opts);
    bare.push(performance.now() - t);
  }
  for (const w of Object.values(walls)) await w.wall.close();
  console.log(`OS sandbox (${first.wall.status().backend}), ${N} runs each of: ${COMMAND} (no host allowed)`);
  console.log(`  wall start (first workspace: the runtime)   ${ms(first.startMs)}`);
  console.log(`  wall start (second workspace)               ${ms(walls['reused, relays'].startMs)}`);
  console.log(
    `  event loop held during the first start      max ${ms(loop.max / 1e6)}   p99 ${ms(loop.percentile(99) / 1e6)}`,
  );
  console.log(`  event loop held by the runtime's own check  max ${ms(check.max / 1e6)}   (no longer run by the wall)`);
  console.log(`  bare spawn        median ${ms(median(bare))}   p90 ${ms(p90(bare))}`);
  for (const name of names) {
    const xs = times[name];
    const over = xs.map((x, i) => x - bare[i]!);
    console.log(`  line ${name.padEnd(27)} median ${ms(median(xs))}   p90 ${ms(p90(xs))}   first ${ms(xs[0]!)}`);
    console.log(`    overhead                       median ${ms(median(over))}   (goal ≤ 100 ms)`);
  }
  const OPENS = Number(process.env.KNACK_BENCH_OPENS ?? 5);
  const child = fileURLToPath(new URL('./wall-open-child.ts', import.meta.url));
  const opens = {
    'as the workspace opens (default)': [] as Opened[],
    'at the first command (baseline)': [] as Opened[],
  };
  for (let i = 0; i < OPENS; i++) {
    opens['as the workspace opens (default)'].push(openOnce(child, 'at-open'));
    opens['at the first command (baseline)'].push(openOnce(child, 'at-first-command'));
  }
  console.log(`Open a workspace, 3 s, then the first bash command, ${OPENS} fresh processes each`);
  for (const [name, runs] of Object.entries(opens)) {
    const pick = (k: keyof Opened) => runs.map((r) => r[k]);
    console.log(`  sandbox started ${name}`);
    console.log(`    first command answers  median ${ms(median(pick('firstMs')))}   p90 ${ms(p90(pick('firstMs')))}`);
    console.log(
      `    event loop held        median ${ms(median(pick('heldMs')))}   max ${ms(Math.max(...pick('heldMs')))}`,
    );
  }
}

interface Opened {
  openMs: number;
  firstMs: number;
  heldMs: number;
  p99Ms: number;
}

function openOnce(file: string, mode: string): Opened {
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, mode], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`wall-open-child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Opened;
}
