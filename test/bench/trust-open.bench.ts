// Opening a realistic folder with the discovery audit: skills with references and scripts (not only SKILL.md).
// Cold open (every skill parsed and audited) vs warm open (verdicts from the store), as a ratio in one run; time until
// the catalog answers; audit throughput in skills/s and MB/s. Two cold figures, both timed from openCatalog until the
// last verdict is in:
//  - background: the app's way: the catalog answers at once (skills `checking`), the audits run in this thread a
//    slice at a time between events;
//  - at once: every audit before the catalog answers.
//
// KNACK_BENCH_PART=hot-reload runs only the hot-reload part (5,000 skills unless KNACK_BENCH_AUDIT_SKILLS says): a warm
// catalog with its watcher, one SKILL.md edited, CPU of this process from the edit to the catalog's change. Each round
// makes a new watcher and edits twice: its first hot reload looks at every folder (as every hot reload did before the
// targeted pass, and as a reload still does: the baseline), its second only at the folder the events touched.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog, type Catalog } from '../../main/core/skills/catalog/catalog.js';
import { watchCatalog } from '../../main/core/skills/catalog/watch.js';
import { TREE_RACY_MS } from '../../main/core/skills/trust/tree.js';
import { auditSkill } from '../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../main/core/skills/format/manifest.js';
import { parsedManifestOf } from '../../main/core/skills/format/types.js';
import { createTrustReview } from '../../main/core/skills/trust/trust.js';
import { Store } from '../../main/core/store/index.js';
import { resolvePaths } from '../../main/core/config/paths.js';
import { writeSkillCorpus } from './skill-corpus.js';

const PART = process.env.KNACK_BENCH_PART;
const N = Number(process.env.KNACK_BENCH_AUDIT_SKILLS ?? (PART === 'hot-reload' ? 5000 : 800));
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
  cpuMs: number;
}

async function open(dataDir: string, background: boolean): Promise<Open> {
  const store = Store.openIn(dataDir);
  let review: ReturnType<typeof createTrustReview> | undefined;
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    review = createTrustReview(store, { background });
    const catalog = await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store, review });
    const answerMs = performance.now() - t0;
    await catalog.settled();
    const allMs = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    if (catalog.entries().length !== N) throw new Error(`indexed ${catalog.entries().length} of ${N}`);
    const s = review.stats;
    return { answerMs, allMs, audited: s.audited, bytes: s.bytes, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    await review?.close();
    store.close();
  }
}

const corpusBytes = writeSkillCorpus(join(ws, '.workbuddy', 'skills'), N);
if (PART === 'hot-reload') {
  await hotReload();
  rmSync(root, { recursive: true, force: true });
  process.exit(0);
}
console.log(
  `corpus: ${N} skills, 5 files each (SKILL.md, 2 references, a Python and a shell script), ${(corpusBytes / 1e6).toFixed(1)} MB; ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
console.log('cold = a fresh data folder: no parse cache, no stored verdicts; every skill is parsed and audited.');
console.log(
  'warm = the same folder opened again: SKILL.md parses from the SQLite catalog cache, and each verdict from the SQLite',
);
console.log(
  '       audit cache (folder fingerprint path+size+mtime → content hash → stored report, valid for this rule book).',
);
console.log('All are timed until every verdict is in (no skill checking), from the same process, best of the runs.');

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

const cold: Open[] = [];
const coldAtOnce: Open[] = [];
const warm: Open[] = [];
for (let r = 0; r < RUNS; r++) {
  const d = join(root, `data-${r}`);
  cold.push(await open(d, true));
  warm.push(await open(d, true));
  const di = join(root, `data-at-once-${r}`);
  coldAtOnce.push(await open(di, false));
  rmSync(di, { recursive: true, force: true });
}
const best = (xs: Open[], k: keyof Open): number => Math.min(...xs.map((x) => x[k]));
const c = cold.reduce((a, b) => (a.allMs <= b.allMs ? a : b));
const w = best(warm, 'allMs');
console.log(
  `cold open (background): catalog answers in ${c.answerMs.toFixed(0)} ms (skills listed as checking); every verdict in ${c.allMs.toFixed(0)} ms`,
);
console.log(
  `  whole open: ${(c.audited / (c.allMs / 1000)).toFixed(0)} skills/s, ${(c.bytes / 1e6 / (c.allMs / 1000)).toFixed(1)} MB/s; every run ${cold.map((x) => x.allMs.toFixed(0)).join(', ')} ms`,
);
console.log(`cold open, every audit before the catalog answers: ${best(coldAtOnce, 'allMs').toFixed(0)} ms`);
console.log(`warm open (parse cache + verdicts from the SQLite audit cache): ${w.toFixed(0)} ms`);
const ratio = c.allMs / w;
console.log(
  `cold with audit / warm, wall clock: ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'OK' : 'OVER'}; catalog answer / warm: ${(c.answerMs / w).toFixed(2)}×; at once / warm: ${(best(coldAtOnce, 'allMs') / w).toFixed(2)}×`,
);
const wc = best(warm, 'cpuMs');
console.log(
  `CPU time of the opens (meaningful under load, where wall clock is not): cold ${best(cold, 'cpuMs').toFixed(0)} ms, warm ${wc.toFixed(0)} ms = ${(best(cold, 'cpuMs') / wc).toFixed(2)}×`,
);
rmSync(root, { recursive: true, force: true });

/** The hot-reload part (see the header). */
async function hotReload(): Promise<void> {
  const skills = join(ws, '.workbuddy', 'skills');
  // Past the racy window, so that the audits keep each folder's tree (as a folder left alone for a while has).
  await new Promise((r) => setTimeout(r, TREE_RACY_MS + 200));
  const dataDir = join(root, 'data-hot');
  const store = Store.openIn(dataDir);
  const review = createTrustReview(store, { background: true });
  try {
    const first = await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store, review });
    await first.settled();
    await first.close();
  } finally {
    store.close();
  }
  // Warm, as serve opens it.
  const warmStore = Store.openIn(dataDir);
  const warmReview = createTrustReview(warmStore, { background: true });
  const catalog = await openCatalog({
    paths: { ...paths, dataDir },
    workspace: ws,
    store: warmStore,
    review: warmReview,
  });
  await catalog.settled();
  console.log(
    `hot reload, ${N} skills (warm catalog, its watcher, one SKILL.md edited; CPU of this process from the edit to the catalog's change), load ${loadavg()[0]!.toFixed(1)}`,
  );
  const edited = (c: Catalog, name: string, description: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${name}: no hot reload`)), 60_000);
      const check = (): void => {
        if (c.get(name)?.manifest.description !== description) return;
        clearTimeout(t);
        c.off('change', check);
        resolve();
      };
      c.on('change', check);
    });
  let edits = 0;
  const reload = async (): Promise<{ cpuMs: number; checked: number; kept: number }> => {
    const i = (edits * 997) % N;
    const name = `skill-${i}`;
    const description = `Use when the user asks for edit ${++edits}.`;
    const s0 = { ...warmReview.stats };
    const seen = edited(catalog, name, description);
    const c0 = process.cpuUsage();
    writeFileSync(
      join(skills, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${description}\n---\n# Skill\n\nDo it.\n`,
    );
    await seen;
    const cpu = process.cpuUsage(c0);
    return {
      cpuMs: (cpu.user + cpu.system) / 1000,
      checked: warmReview.stats.checked - s0.checked,
      kept: warmReview.stats.kept - s0.kept,
    };
  };
  const full: number[] = [];
  const targeted: number[] = [];
  const watchMs: number[] = [];
  let counts = '';
  let watches = 0;
  for (let r = 0; r < Math.max(RUNS, 5); r++) {
    const c0 = process.cpuUsage();
    const w = watchCatalog(catalog, { debounceMs: 50 });
    const cw = process.cpuUsage(c0);
    watchMs.push((cw.user + cw.system) / 1000);
    watches = w.watched().length;
    try {
      // Quiet first: nothing pending from the last round.
      await new Promise((res) => setTimeout(res, 300));
      const f = await reload();
      await new Promise((res) => setTimeout(res, 300));
      const t = await reload();
      full.push(f.cpuMs);
      targeted.push(t.cpuMs);
      counts = `full: ${f.checked} folders checked, ${f.kept} kept; targeted: ${t.checked} checked, ${t.kept} kept`;
    } finally {
      await w.close();
    }
  }
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ms = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`  every folder looked at (baseline): median ${med(full).toFixed(0)} ms CPU (${ms(full)})`);
  console.log(`  the touched folder only:           median ${med(targeted).toFixed(0)} ms CPU (${ms(targeted)})`);
  console.log(`  ${(med(full) / med(targeted)).toFixed(2)}× less CPU per hot reload (${counts})`);
  console.log(`  making the watcher: ${watches} watches, median ${med(watchMs).toFixed(0)} ms CPU (${ms(watchMs)})`);
  await catalog.close();
  warmStore.close();
}
