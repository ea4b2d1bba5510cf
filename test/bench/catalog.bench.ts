// Catalog benchmark: 10,000 synthetic skills across the three tiers; cold and warm builds as ratios to their floors
// measured in the same run (warm also in fresh processes), plus catalog tokens per skill on the real public skills.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, availableParallelism, loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { openCatalog, type CatalogTimings } from '../../main/core/skills/catalog/catalog.js';
import { LISTING_RACY_MS } from '../../main/core/skills/catalog/catalog-cache.js';
import { catalogLine } from '../../main/core/skills/use/prompt-catalog.js';
import { parseSkillFile } from '../../main/core/skills/format/manifest.js';
import { countTokens } from '../../main/core/base/tokens.js';
import { Store } from '../../main/core/store/index.js';
import { DEFAULT_SETTINGS } from '../../main/core/config/settings.js';
import { publicSkillFiles } from '../helpers/tmp.js';

const N = Number(process.env.KNACK_BENCH_SKILLS ?? 10_000);
/** Runs per measurement; the best run of each side is compared (least disturbed by other load on the machine). */
const RUNS = Number(process.env.KNACK_BENCH_RUNS ?? 5);
/** Set in a child process started by this bench: measure one thing in a fresh process and print it as JSON. */
const CHILD = process.env.KNACK_BENCH_CHILD;
const root = CHILD ? process.env.KNACK_BENCH_ROOT! : mkdtempSync(join(tmpdir(), 'knack-bench-catalog-'));
const home = join(root, 'home');
const ws = join(root, 'ws');
const builtin = join(root, 'builtin');
const tierDirs = [builtin, join(home, '.workbuddy', 'skills'), join(ws, '.workbuddy', 'skills')];

const WORDS =
  'review commit deploy test build lint format database query schema migrate release branch merge docs api cache index search render parse compile bundle profile trace log metric alert backup restore secure audit'.split(
    ' ',
  );
function words(seed: number, n: number): string {
  const out: string[] = [];
  let x = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

function generate(): string[] {
  const files: string[] = [];
  const body = ('## Steps\n\n' + Array.from({ length: 70 }, (_, i) => `${i + 1}. ${words(i, 12)}.\n`).join('')).padEnd(
    7 * 1024,
    '\n',
  );
  for (let i = 0; i < N; i++) {
    // 20% builtin, 40% user, 40% project; every 50th name repeats across tiers (shadowing).
    const tier = i % 5 === 0 ? 0 : i % 5 <= 2 ? 1 : 2;
    const name = i % 50 === 7 ? `shared-skill-${i % 500}` : `skill-${i}`;
    const dir = join(tierDirs[tier]!, `${name}-${tier}`);
    mkdirSync(dir, { recursive: true });
    const fm = [
      `name: ${name}`,
      `description: Use when the user asks to ${words(i, 14)}. Handles ${words(i + 1, 8)} safely.`,
      'license: MIT',
      'allowed-tools: Read Grep Bash(git:*)',
      'metadata:',
      `  author: bench-${i % 17}`,
      `  version: "1.${i % 10}"`,
    ].join('\n');
    const file = join(dir, 'SKILL.md');
    writeFileSync(file, `---\n${fm}\n---\n# ${name}\n\n${body}`);
    files.push(file);
  }
  return files;
}

function best(xs: number[]): number {
  return Math.min(...xs);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Floor for a cold build: read the first 4 KB of every file and parse just the frontmatter with `yaml`. */
function coldFloor(files: string[]): void {
  const buf = Buffer.allocUnsafe(4096);
  for (const f of files) {
    const fd = openSync(f, 'r');
    const n = readSync(fd, buf, 0, 4096, 0);
    closeSync(fd);
    const text = buf.toString('utf8', 0, n);
    const end = text.indexOf('\n---', 3);
    parseYaml(text.slice(4, end));
  }
}

/** Floor for a warm build: one stat per file. */
function warmFloor(files: string[]): void {
  for (const f of files) statSync(f);
}

const paths = { home, dataDir: join(root, 'data'), builtinSkillsDir: builtin };
const settings = { ...DEFAULT_SETTINGS, discovery: { ...DEFAULT_SETTINGS.discovery, maxFolders: 100_000 } };

async function main(): Promise<void> {
  const tg = performance.now();
  const files = generate();
  const generated = performance.now();
  console.log(
    `generated ${N} skills (frontmatter ~300 B, body ~7 KB) in ${((performance.now() - tg) / 1000).toFixed(1)} s; cores: ${availableParallelism()}`,
  );
  coldFloor(files); // warm the page cache so both sides read from memory
  // Folder listings taken within LISTING_RACY_MS of a change are not reused: let the generated folders age first.
  await sleep(Math.max(0, LISTING_RACY_MS + 100 - (performance.now() - generated)));

  const floorCold: number[] = [];
  const cold: number[] = [];
  const floorWarm: number[] = [];
  const warm: number[] = [];
  const warmTimings: CatalogTimings[] = [];
  let indexed = 0;
  for (let r = 0; r < RUNS; r++) {
    floorCold.push(time(() => coldFloor(files)));
    const dataDir = join(root, `data-${r}`);
    const store = Store.openIn(dataDir);
    cold.push(
      await timeAsync(async () => {
        const c = await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store, settings });
        indexed = c.entries().length;
      }),
    );
    store.close();
    // Warm: a new process would open the store and build from the cache.
    floorWarm.push(time(() => warmFloor(files)));
    const s2 = Store.openIn(dataDir);
    let parsed = -1;
    warm.push(
      await timeAsync(async () => {
        const c = await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store: s2, settings });
        parsed = c.timings.parsed;
        warmTimings.push(c.timings);
      }),
    );
    s2.close();
    if (parsed !== 0) throw new Error(`warm build re-parsed ${parsed} files`);
  }
  // A real warm start is a new process: JIT not warmed up, small young generation. Each side in its own process.
  const filesList = join(root, 'files.json');
  writeFileSync(filesList, JSON.stringify(files));
  const fresh = (what: 'floor' | 'warm', dataDir: string): number => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: {
        ...process.env,
        KNACK_BENCH_CHILD: what,
        KNACK_BENCH_ROOT: root,
        KNACK_BENCH_DATA: dataDir,
        KNACK_BENCH_FILES: filesList,
      },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`fresh ${what} process failed: ${r.stderr}`);
    return (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ms: number }).ms;
  };
  const freshFloor: number[] = [];
  const freshWarm: number[] = [];
  for (let r = 0; r < Math.min(RUNS, 3); r++) {
    freshFloor.push(fresh('floor', ''));
    freshWarm.push(fresh('warm', join(root, `data-${r}`)));
  }

  const fc = best(floorCold);
  const c = best(cold);
  const fw = best(floorWarm);
  const w = best(warm);
  console.log(
    `best of ${RUNS} runs each (medians: cold ${(median(cold) / median(floorCold)).toFixed(2)}×, warm ${(median(warm) / median(floorWarm)).toFixed(2)}×); load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  console.log(`indexed ${indexed} catalog entries from ${files.length} files`);
  console.log(
    `cold build      ${c.toFixed(0).padStart(6)} ms  floor (4 KB read + yaml.parse) ${fc.toFixed(0).padStart(6)} ms  ratio ${(c / fc).toFixed(2)}×  target ≤ 1.5×`,
  );
  console.log(
    `warm build      ${w.toFixed(0).padStart(6)} ms  floor (one stat per file)      ${fw.toFixed(0).padStart(6)} ms  ratio ${(w / fw).toFixed(2)}×  target ≤ 2×`,
  );
  const wt = warmTimings[warm.indexOf(w)]!;
  console.log(
    `  warm phases (best run): walk + stats ${wt.discoverMs.toFixed(0)} ms (${wt.folders} folders visited, ${wt.listed} read), cache rows ${wt.parseMs.toFixed(0)} ms (${wt.cached} files), merge ${wt.mergeMs.toFixed(0)} ms`,
  );
  const ffw = best(freshFloor);
  const fww = best(freshWarm);
  console.log(
    `warm, fresh process ${fww.toFixed(0).padStart(4)} ms  floor in a fresh process ${ffw.toFixed(0).padStart(9)} ms  ratio ${(fww / ffw).toFixed(2)}×  (best of ${freshWarm.length}; JIT cold, as a real start)`,
  );

  // Catalog tokens per skill on the real public skills.
  const counts: number[] = [];
  for (const f of publicSkillFiles()) {
    const p = parseSkillFile(f);
    if (p.manifest) counts.push(countTokens(catalogLine(p.manifest.name, p.manifest.description)));
  }
  const total = counts.reduce((a, b) => a + b, 0);
  console.log(
    `catalog tokens per skill (public-skills, ${counts.length} skills): median ${median(counts)}, max ${Math.max(...counts)}, total ${total}`,
  );
  const budget = Math.floor(DEFAULT_SETTINGS.catalog.contextWindow * DEFAULT_SETTINGS.catalog.budgetFraction);
  console.log(
    `default budget ${budget} tokens (2% of ${DEFAULT_SETTINGS.catalog.contextWindow}) ≈ ${Math.floor(budget / median(counts))} skills at the median size`,
  );
}

/** Child mode: one measurement in this fresh process. */
async function child(what: string): Promise<void> {
  const list = JSON.parse(readFileSync(process.env.KNACK_BENCH_FILES!, 'utf8')) as string[];
  if (what === 'floor') {
    console.log(JSON.stringify({ ms: time(() => warmFloor(list)) }));
    return;
  }
  const dataDir = process.env.KNACK_BENCH_DATA!;
  const store = Store.openIn(dataDir);
  let parsed = -1;
  const ms = await timeAsync(async () => {
    parsed = (await openCatalog({ paths: { ...paths, dataDir }, workspace: ws, store, settings })).timings.parsed;
  });
  store.close();
  if (parsed !== 0) throw new Error(`fresh warm build re-parsed ${parsed} files`);
  console.log(JSON.stringify({ ms }));
}

if (CHILD) await child(CHILD);
else {
  try {
    await main();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
