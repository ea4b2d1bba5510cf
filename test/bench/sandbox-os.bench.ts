// OS sandbox benchmark: the time a command takes inside the wall (bubblewrap here) against the same command spawned
// bare, in the same run — median and p90 over N runs each, the first contained command included; the wall's one-time
// start is printed apart. Two walls side by side: one whose runtime builds every command's line anew (the baseline,
// `reuseCommandLines: false`) and one that reuses the line it built (template.ts). Goal: overhead ≤ 100 ms median.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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

async function open(name: string, reuseCommandLines: boolean): Promise<{ wall: Wall; ws: string; startMs: number }> {
  const ws = join(root, name);
  mkdirSync(ws);
  const t0 = performance.now();
  const wall = await Wall.open({ workspace: ws, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto', {
    reuseCommandLines,
  });
  const startMs = performance.now() - t0;
  if (!wall.available) throw new Error(`the sandbox is unavailable: ${wall.status().reason}`);
  return { wall, ws, startMs };
}

try {
  // The first open loads the runtime and starts it: how long it holds the event loop (a streaming answer stalls).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rebuilt = await open('rebuilt', false);
  loop.disable();
  const reused = await open('reused', true);
  const bare: number[] = [];
  const times = { rebuilt: [] as number[], reused: [] as number[] };
  // Interleaved, so a busy moment of the machine falls on all three alike; the first contained runs are kept.
  for (let i = 0; i < N; i++) {
    for (const [name, w] of [
      ['rebuilt', rebuilt],
      ['reused', reused],
    ] as const) {
      const t = performance.now();
      const r = await runContained(w.wall, COMMAND, w.ws, { ...opts, hosts: [] });
      times[name].push(performance.now() - t);
      if (r.exitCode !== 0) throw new Error(`contained run failed: ${r.stderr}`);
    }
    const t = performance.now();
    await runBash(COMMAND, reused.ws, opts);
    bare.push(performance.now() - t);
  }
  await rebuilt.wall.close();
  await reused.wall.close();
  console.log(`OS sandbox (${reused.wall.status().backend}), ${N} runs each of: ${COMMAND}`);
  console.log(`  wall start (first workspace: the runtime)   ${ms(rebuilt.startMs)}`);
  console.log(`  wall start (second workspace)               ${ms(reused.startMs)}`);
  console.log(
    `  event loop held during the first start      max ${ms(loop.max / 1e6)}   p99 ${ms(loop.percentile(99) / 1e6)}`,
  );
  console.log(`  bare spawn        median ${ms(median(bare))}   p90 ${ms(p90(bare))}`);
  for (const name of ['rebuilt', 'reused'] as const) {
    const xs = times[name];
    const over = xs.map((x, i) => x - bare[i]!);
    const label = name === 'rebuilt' ? 'line built per command' : 'line reused (default)';
    console.log(`  ${label.padEnd(24)} median ${ms(median(xs))}   p90 ${ms(p90(xs))}   first ${ms(xs[0]!)}`);
    console.log(`    overhead                 median ${ms(median(over))}   (goal ≤ 100 ms)`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
