// Opening a realistic folder with the discovery audit: skills with references and scripts (not only SKILL.md).
// Cold open (every skill audited, on worker threads) vs warm open (verdicts from the store), as a ratio in one run;
// time until the catalog answers; audit throughput in skills/s and MB/s (workers, and one thread for comparison).
//
// Two cold figures, both timed from openCatalog until the last verdict is in:
//  - app: the process's audit pool (sharedAuditPool) with its workers loaded before the clock, as a folder opened
//    after an earlier one finds them (the first open of a process starts them: that is `fresh`). Its later opens
//    reuse the same (hot) workers, as the app's do.
//  - fresh: a new pool is created inside the timed region (worker start and code load timed), as in a
//    process that opens a folder the moment it starts.
// The launch's own price is printed too: the CPU the pool's workers spend loading before the first open (off any open,
// once per process), and that of every thread meanwhile.
// Where the CPU of the app opens goes, by thread (Linux only, from /proc/self/task/*/schedstat): the opening thread,
// the audit workers, and every other thread (V8's compiler and GC helpers): this says whether the gap is the audit,
// the opening thread's handling, or V8 compiling the workers' code in the first opens after launch. Only reported.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog } from '../../main/core/skills/catalog/catalog.js';
import { auditSkill } from '../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../main/core/skills/format/manifest.js';
import { parsedManifestOf } from '../../main/core/skills/format/types.js';
import { createTrustReview } from '../../main/core/skills/trust/trust.js';
import { AuditPool, sharedAuditPool } from '../../main/core/skills/trust/audit-pool.js';
import { Store } from '../../main/core/store/index.js';
import { resolvePaths } from '../../main/core/config/paths.js';
import { writeSkillCorpus } from './skill-corpus.js';

const N = Number(process.env.KNACK_BENCH_AUDIT_SKILLS ?? 800);
const RUNS = Number(process.env.KNACK_BENCH_RUNS ?? 3);
const TARGET = 2.5;

const root = mkdtempSync(join(tmpdir(), 'knack-bench-trust-'));
const ws = join(root, 'ws');
const home = join(root, 'home');
const builtin = join(root, 'builtin');
mkdirSync(home, { recursive: true });
mkdirSync(builtin, { recursive: true });

const paths = resolvePaths({ home, dataDir: join(root, 'data'), builtinSkillsDir: builtin });

interface Open {
  answerMs: number;
  allMs: number;
  audited: number;
  bytes: number;
  threads: number;
  cpuMs: number;
  byThread?: string;
}

/** CPU time (ns) of each thread of this process, by thread id; empty where /proc is not there. */
function threadTimes(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const t of readdirSync('/proc/self/task')) {
      try {
        out.set(t, Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // the thread ended
      }
    }
  } catch {
    // not Linux
  }
  return out;
}
/** Threads of the app's audit pool (known once it is ready). */
const poolThreads = new Set<string>();
function byThread(before: Map<string, number>): string | undefined {
  const after = threadTimes();
  if (!after.size) return undefined;
  let main = 0;
  let workers = 0;
  let other = 0;
  for (const [t, ns] of after) {
    const ms = (ns - (before.get(t) ?? 0)) / 1e6;
    if (t === String(process.pid)) main += ms;
    else if (poolThreads.has(t)) workers += ms;
    else other += ms;
  }
  return `opening thread ${main.toFixed(0)} ms, audit workers ${workers.toFixed(0)} ms, other threads (V8 compiler, GC) ${other.toFixed(0)} ms`;
}

/** `pool`: 'shared' (the process's pool, started before), 'fresh' (a new pool, created inside the timed region), or none (in-thread). */
async function open(dataDir: string, pool: 'shared' | 'fresh' | 'none'): Promise<Open> {
  const store = Store.openIn(dataDir);
  let review: ReturnType<typeof createTrustReview> | undefined;
  try {
    const threads0 = threadTimes();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    review = createTrustReview(store, {
      background: pool === 'none' ? false : pool === 'shared' ? true : { pool: new AuditPool() },
    });
    const catalog = await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store, review });
    const answerMs = performance.now() - t0;
    await catalog.settled();
    const allMs = performance.now() - t0;
    // CPU of every thread of the process (the opening thread and the audit workers): what the open costs, whatever the load.
    const cpu = process.cpuUsage(c0);
    const split = pool === 'shared' ? byThread(threads0) : undefined;
    if (catalog.entries().length !== N) throw new Error(`indexed ${catalog.entries().length} of ${N}`);
    const s = review.stats;
    return {
      answerMs,
      allMs,
      audited: s.audited,
      bytes: s.bytes,
      threads: s.threads,
      cpuMs: (cpu.user + cpu.system) / 1000,
      ...(split ? { byThread: split } : {}),
    };
  } finally {
    await review?.close();
    store.close();
  }
}

const corpusBytes = writeSkillCorpus(join(ws, '.workbuddy', 'skills'), N);
console.log(
  `corpus: ${N} skills, 5 files each (SKILL.md, 2 references, a Python and a shell script), ${(corpusBytes / 1e6).toFixed(1)} MB; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  'cold = a fresh data folder: no parse cache, no stored verdicts; every skill is parsed and audited (audits on worker threads).',
);
console.log(
  'warm = the same folder opened again: SKILL.md parses from the SQLite catalog cache, and each verdict from the SQLite',
);
console.log(
  '       audit cache (folder fingerprint path+size+mtime → content hash → stored report, valid for this rule book).',
);
console.log('Both are timed until every verdict is in (no skill checking), from the same process, best of the runs.');
console.log(
  'cold (app)   = audit pool started at launch and loaded when the folder is opened (as the desktop app and knack start it);',
);
console.log('cold (fresh) = a new audit pool started inside the timed region (worker start and code load timed).');

// One thread, no cache: the audit's own throughput, the first pass (code not yet optimised, as in a fresh worker) and
// steady. Each folder is given the manifest discovery parsed from its SKILL.md (as the pool's audits are), so the
// frontmatter is not parsed again: these figures are the audit alone.
const skillDirs = Array.from({ length: N }, (_, i) => join(ws, '.workbuddy', 'skills', `skill-${i}`));
const manifests = skillDirs.map((d) => {
  const m = parseSkillFile(join(d, 'SKILL.md'), { folderName: null }).manifest;
  if (!m) throw new Error(`${d}: no manifest`);
  return parsedManifestOf(m);
});
const auditAll = (): { ms: number; bytes: number } => {
  const c0 = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < N; i++) bytes += auditSkill(skillDirs[i]!, { parsed: manifests[i]! }).bytes;
  const cpu = process.cpuUsage(c0);
  return { ms: (cpu.user + cpu.system) / 1000, bytes };
};
const first = auditAll();
const steady = [auditAll(), auditAll()].reduce((a, b) => (a.ms <= b.ms ? a : b));
const rate = (r: { ms: number; bytes: number }): string =>
  `${(N / (r.ms / 1000)).toFixed(0)} skills/s, ${(r.bytes / 1e6 / (r.ms / 1000)).toFixed(1)} MB/s`;
console.log(
  `audit, one thread (CPU time, manifest given as discovery parsed it): first pass ${rate(first)} (${first.ms.toFixed(0)} ms); steady ${rate(steady)} (${steady.ms.toFixed(0)} ms)`,
);

// The app's pool: started at launch, before any folder is opened; the clock starts once its workers are loaded.
const threadsBefore = threadTimes();
const launchCpu0 = process.cpuUsage();
await sharedAuditPool().ready();
const launchCpu = process.cpuUsage(launchCpu0);
const threadsReady = threadTimes();
for (const t of threadsReady.keys()) if (!threadsBefore.has(t)) poolThreads.add(t);
// The launch's price: the pool's workers loading, and V8's threads compiling meanwhile.
let launchWorkers = 0;
for (const t of poolThreads) launchWorkers += (threadsReady.get(t) ?? 0) / 1e6;
const launchAll = (launchCpu.user + launchCpu.system) / 1000;
if (threadsReady.size) {
  console.log(
    `launch (once, before any open): the pool's ${poolThreads.size} workers loading ${launchWorkers.toFixed(0)} ms of CPU; all threads ${launchAll.toFixed(0)} ms`,
  );
}

const cold: Open[] = [];
const coldFresh: Open[] = [];
const coldInline: Open[] = [];
const warm: Open[] = [];
for (let r = 0; r < RUNS; r++) {
  const d = join(root, `data-${r}`);
  cold.push(await open(d, 'shared'));
  warm.push(await open(d, 'shared'));
  const df = join(root, `data-fresh-${r}`);
  coldFresh.push(await open(df, 'fresh'));
  rmSync(df, { recursive: true, force: true });
  const di = join(root, `data-inline-${r}`);
  coldInline.push(await open(di, 'none'));
  rmSync(di, { recursive: true, force: true });
}
const best = (xs: Open[], k: Exclude<keyof Open, 'byThread'>): number => Math.min(...xs.map((x) => x[k]));
const bestRun = (xs: Open[]): Open => xs.reduce((a, b) => (a.allMs <= b.allMs ? a : b));
const w = best(warm, 'allMs');
const describe = (label: string, c: Open): void => {
  const auditPhase = c.allMs - c.answerMs;
  console.log(
    `cold open (${label}), audits on ${c.threads} worker threads: catalog answers in ${c.answerMs.toFixed(0)} ms (skills listed as checking); every verdict in ${c.allMs.toFixed(0)} ms`,
  );
  console.log(
    `  audit throughput on the workers, answer → last verdict: ${(c.audited / (auditPhase / 1000)).toFixed(0)} skills/s, ${(c.bytes / 1e6 / (auditPhase / 1000)).toFixed(1)} MB/s; whole open: ${(c.audited / (c.allMs / 1000)).toFixed(0)} skills/s, ${(c.bytes / 1e6 / (c.allMs / 1000)).toFixed(1)} MB/s`,
  );
};
const c = bestRun(cold);
const f = bestRun(coldFresh);
describe('app', c);
describe('fresh', f);
// The first app run is the first folder opened after launch; later ones reuse hot workers.
console.log(
  `  every run, until the last verdict: app ${cold.map((x) => x.allMs.toFixed(0)).join(', ')} ms (first = first open after launch); fresh ${coldFresh.map((x) => x.allMs.toFixed(0)).join(', ')} ms`,
);
for (const [k, x] of cold.entries()) if (x.byThread) console.log(`  CPU by thread, app run ${k + 1}: ${x.byThread}`);
console.log(`cold open, audits in the opening thread: ${best(coldInline, 'allMs').toFixed(0)} ms`);
console.log(`warm open (parse cache + verdicts from the SQLite audit cache): ${w.toFixed(0)} ms`);
const ratio = c.allMs / w;
console.log(
  `cold with audit / warm, wall clock (app): ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'OVER'}; catalog answer / warm: ${(c.answerMs / w).toFixed(2)}×`,
);
console.log(
  `cold with audit / warm, wall clock (fresh): ${(f.allMs / w).toFixed(2)}×; in-thread cold / warm: ${(best(coldInline, 'allMs') / w).toFixed(2)}×`,
);
const wc = best(warm, 'cpuMs');
console.log(
  `CPU time of the opens (all threads; meaningful under load, where wall clock is not): cold (app) ${best(cold, 'cpuMs').toFixed(0)} ms, ` +
    `cold (fresh) ${best(coldFresh, 'cpuMs').toFixed(0)} ms, warm ${wc.toFixed(0)} ms = ${(best(cold, 'cpuMs') / wc).toFixed(2)}× / ${(best(coldFresh, 'cpuMs') / wc).toFixed(2)}×; ` +
    'with 2 cores the cold wall time can at best be about half its CPU time.',
);
rmSync(root, { recursive: true, force: true });
