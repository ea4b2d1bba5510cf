// The `knack` command as a user runs it, each figure a ratio against a baseline in the same run:
// (1) start-up: `knack help` from the built bundle and from the TypeScript sources, against `node -e 0`;
// (2) issue 10's own measurement: `knack skills index` on a folder of 800 realistic skills (5 files each, 14 MB),
//     cold (a fresh data folder: every skill parsed and audited) against warm (the same command again).
// Each run is a new process, timed from spawn to exit; best of RUNS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeSkillCorpus } from './skill-corpus.js';

const root = join(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.KNACK_BENCH_RUNS ?? 5);
const N = Number(process.env.KNACK_BENCH_AUDIT_SKILLS ?? 800);
const scratch = mkdtempSync(join(tmpdir(), 'knack-bench-cli-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// The bundle is what `npm run build` makes; build it when missing or older than the sources, as `npm test` does.
const bundle = join(root, 'dist', 'main', 'electron', 'cli.js');
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--main-only'], {
  cwd: root,
  encoding: 'utf8',
});
if (build.status !== 0 || !existsSync(bundle)) throw new Error(`build failed: ${build.stderr}`);

function time(args: string[], env: Record<string, string> = {}, cwd = scratch): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}
const best = (f: () => number): number => Math.min(...Array.from({ length: RUNS }, f));
const knack = join(root, 'bin', 'knack.js');

console.log(`${RUNS} runs each, best shown; load ${loadavg()[0]!.toFixed(1)}`);
const bare = best(() => time(['-e', '0']));
const fromBundle = best(() => time([knack, 'help']));
const fromSource = best(() => time([knack, 'help'], { KNACK_CLI_FROM_SOURCE: '1' }));
console.log(
  `start-up: node -e 0 ${bare.toFixed(0)} ms; knack help from the bundle ${fromBundle.toFixed(0)} ms (${(fromBundle / bare).toFixed(1)}× node), from the TypeScript sources ${fromSource.toFixed(0)} ms (${(fromSource / bare).toFixed(1)}× node) → the bundle starts ${(fromSource / fromBundle).toFixed(1)}× faster`,
);

const ws = join(scratch, 'ws');
const bytes = writeSkillCorpus(join(ws, '.workbuddy', 'skills'), N);
let cold = Infinity;
let warm = Infinity;
for (let r = 0; r < RUNS; r++) {
  const home = join(scratch, `home-${r}`);
  mkdirSync(home);
  const env = { HOME: home, KNACK_DATA_DIR: join(home, 'data') };
  cold = Math.min(cold, time([knack, 'skills', 'index', '--workspace', ws], env));
  warm = Math.min(warm, time([knack, 'skills', 'index', '--workspace', ws], env));
  if (!statSync(join(home, 'data')).isDirectory()) throw new Error('no data folder written');
}
console.log(
  `knack skills index, ${N} skills (${(bytes / 1e6).toFixed(1)} MB, every file audited): cold ${cold.toFixed(0)} ms, warm ${warm.toFixed(0)} ms → cold/warm ${(cold / warm).toFixed(2)}× (issue 10's goal ≤ 2.5×; the same ratio in-process, without the process start, is trust-open's)`,
);
