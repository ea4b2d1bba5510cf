// OS sandbox benchmark: the time a command takes inside the wall (bubblewrap here) against the same command spawned
// bare, in the same run — median and p90 over N runs each, the first contained command included; the wall's one-time
// start is printed apart. Goal: overhead ≤ 100 ms median.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

try {
  const t0 = performance.now();
  const wall = await Wall.open({ workspace: root, home: join(root, 'home'), dataDir: join(root, 'data') }, 'auto');
  const startMs = performance.now() - t0;
  if (!wall.available) throw new Error(`the sandbox is unavailable: ${wall.status().reason}`);
  const bare: number[] = [];
  const inside: number[] = [];
  // Interleaved, so a busy moment of the machine falls on both sides alike; the first contained run is kept.
  for (let i = 0; i < N; i++) {
    let t = performance.now();
    const r = await runContained(wall, COMMAND, root, { ...opts, hosts: [] });
    inside.push(performance.now() - t);
    if (r.exitCode !== 0) throw new Error(`contained run failed: ${r.stderr}`);
    t = performance.now();
    await runBash(COMMAND, root, opts);
    bare.push(performance.now() - t);
  }
  await wall.close();
  const over = inside.map((x, i) => x - bare[i]!);
  console.log(`OS sandbox (${wall.status().backend}), ${N} runs each of: ${COMMAND}`);
  console.log(`  wall start (once per workspace)   ${ms(startMs)}`);
  console.log(`  bare spawn        median ${ms(median(bare))}   p90 ${ms(p90(bare))}`);
  console.log(`  inside the wall   median ${ms(median(inside))}   p90 ${ms(p90(inside))}   first ${ms(inside[0]!)}`);
  console.log(`  overhead          median ${ms(median(over))}   (goal ≤ 100 ms)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
