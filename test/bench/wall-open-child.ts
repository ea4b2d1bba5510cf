// One measured open for sandbox-os.bench.ts, in a fresh process (the runtime loads once per process): open a workspace,
// wait as a user typing a first message would (3 s), run the first bash command, and print as JSON how long that command
// took to answer and the longest the event loop was held from the open on. `at-open` (the default): the sandbox starts
// as the workspace opens. `at-first-command` (the baseline): it starts when the first command needs it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { resolvePaths } from '../../main/core/config/index.js';
import { openWorkspace } from '../../main/core/workspace.js';
import { runContained } from '../../main/core/tools/builtin/bash.js';

const atOpen = process.argv[2] !== 'at-first-command';
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
  const open = await openWorkspace({ paths, workspace: ws, audit: false, startWall: atOpen });
  const openMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 3000));
  const asked = performance.now();
  const r = await runContained(await open.wall(), 'echo hi', ws, { timeoutMs: 60_000, hosts: [] });
  const firstMs = performance.now() - asked;
  loop.disable();
  clearInterval(tick);
  if (r.exitCode !== 0) throw new Error(`the first command failed: ${r.stderr}`);
  await open.close();
  console.log(JSON.stringify({ openMs, firstMs, heldMs: held, p99Ms: loop.percentile(99) / 1e6 }));
} finally {
  clearInterval(tick);
  rmSync(root, { recursive: true, force: true });
}
