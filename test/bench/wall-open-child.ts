// One measured open for sandbox-os.bench.ts, in a fresh process (the runtime's modules load once per process): open a
// workspace whose sandbox starts as it opens, run its first bash command, and print as JSON the time from the open to
// that command's result and the longest the event loop was held meanwhile. `at-once` (the baseline): the runtime is
// loaded by one plain import first, as it was before it loaded a module per turn (main/core/contain/load.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { resolvePaths } from '../../main/core/config/index.js';
import { openWorkspace } from '../../main/core/workspace.js';
import { runContained } from '../../main/core/tools/builtin/bash.js';

const atOnce = process.argv[2] === 'at-once';
const root = mkdtempSync(join(tmpdir(), 'knack-bench-open-'));
const ws = join(root, 'ws');
mkdirSync(ws);
const paths = resolvePaths({ home: join(root, 'home'), dataDir: join(root, 'data') }, {});
// The longest gap between two 1 ms ticks: what a streaming answer or a window message waits at worst.
let held = 0;
let last = performance.now();
const tick = setInterval(() => {
  const now = performance.now();
  held = Math.max(held, now - last);
  last = now;
}, 1);
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
try {
  const t0 = performance.now();
  if (atOnce) await import('@anthropic-ai/sandbox-runtime');
  const open = await openWorkspace({ paths, workspace: ws, audit: false, startWall: true });
  const openMs = performance.now() - t0;
  const r = await runContained(await open.wall(), 'echo hi', ws, { timeoutMs: 60_000, hosts: [] });
  const firstMs = performance.now() - t0;
  loop.disable();
  clearInterval(tick);
  if (r.exitCode !== 0) throw new Error(`the first command failed: ${r.stderr}`);
  await open.close();
  console.log(JSON.stringify({ openMs, firstMs, heldMs: held, p99Ms: loop.percentile(99) / 1e6 }));
} finally {
  clearInterval(tick);
  rmSync(root, { recursive: true, force: true });
}
