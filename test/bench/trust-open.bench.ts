// Opening a realistic folder with the discovery audit: skills with references and scripts (not only SKILL.md).
// Cold open (every skill parsed and audited) vs warm open (verdicts from the store), as a ratio in one run; time until
// the catalog answers; audit throughput in skills/s and MB/s. Two cold figures, both timed from openCatalog until the
// last verdict is in:
//  - background: the app's way: the catalog answers at once (skills `checking`), the audits run in this thread a
//    slice at a time between events;
//  - at once: every audit before the catalog answers.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalog } from '../../main/core/skills/catalog/catalog.js';
import { auditSkill } from '../../main/core/skills/trust/audit.js';
import { parseSkillFile } from '../../main/core/skills/format/manifest.js';
import { parsedManifestOf } from '../../main/core/skills/format/types.js';
import { createTrustReview } from '../../main/core/skills/trust/trust.js';
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
